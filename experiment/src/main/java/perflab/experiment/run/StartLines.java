package perflab.experiment.run;

import perflab.core.sut.EffectiveJvm;
import perflab.monitor.RunMonitor;
import perflab.core.workload.SutInstances;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The console's line for each process a run starts, as it starts: a SUT process with what its JVM really runs (the
 * collector and heap it got, not the ones asked for), a companion or a load source with its pid and ports, so that a
 * user can attach a tool to it while the run goes on.
 */
final class StartLines {
    private final PrintStream console; // null: --quiet

    StartLines(PrintStream console) {
        this.console = console;
    }

    /** A process of the server side; {@code jvm} its JVM report (a SUT process's), null when it has none yet. */
    void process(ManagedProcess p, EffectiveJvm jvm) {
        if (console == null) {
            return;
        }
        if (!SutInstances.reserved(p.name())) {
            console.printf("perflab: companion %s pid %d%s%n", p.name(), p.pid(),
                    p.ports().isEmpty() ? "" : " on " + ports(p.ports()));
            return;
        }
        if (jvm != null) {
            console.printf("perflab: %s pid %d on port %d: %s %s, %s, heap %d MB, %d CPUs%n",
                    p.name().equals(RunMonitor.SUT) ? "SUT" : "SUT instance " + p.name(), p.pid(), p.port(),
                    jvm.vmName(), jvm.javaVersion(), jvm.collector(), jvm.heapMaxMb(), jvm.availableProcessors());
        }
    }

    /** The load sources started since the ones in {@code known}. */
    void loadSources(LoadSources sources, Set<String> known) {
        if (console == null) {
            return;
        }
        Map<String, Map<String, Integer>> declared = sources.declaredPorts();
        Map<String, String> kinds = sources.kinds();
        sources.pids().forEach((name, pid) -> {
            if (!known.contains(name)) {
                console.printf("perflab: load source %s (%s) pid %d%s%n", name, kinds.get(name), pid,
                        declared.get(name).isEmpty() ? "" : " on " + ports(declared.get(name)));
            }
        });
    }

    /** "port 8080", or "ports http 8080, sip 5060" for a process with several. */
    static String ports(Map<String, Integer> ports) {
        if (ports.size() == 1 && ports.containsKey("port")) {
            return "port " + ports.get("port");
        }
        List<String> named = new ArrayList<>();
        ports.forEach((name, port) -> named.add(name + " " + port));
        return "ports " + String.join(", ", named);
    }
}
