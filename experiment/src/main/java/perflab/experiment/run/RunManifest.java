package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.result.Json;
import perflab.core.sut.EffectiveJvm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * run.json: what a run was (its configuration, the machine, the commands that started its processes) and how it
 * went (when it ended, how its processes exited). Written at the start and again as the run learns more, so that
 * a run that dies half-way still says what it was. Keys are documented in docs/results.md.
 */
public final class RunManifest {
    public String runDirectory;
    public String commandLine;
    public long seed;
    public String startedAt;
    public RunConfig config;
    public Object environment;
    public EffectiveJvm driverJvm;
    /** The SUT's command, as started (ports filled in). */
    public List<String> sutCommand;
    public String jfr;
    /** The server file the SUT was started from ({@code --server}); null: the workload's own stack. */
    public ServerFileEntry server;
    /** Every process perflab started for the run by name (the SUT too): command and, at the end, exit status. */
    public Map<String, ProcessEntry> processes;
    public EffectiveJvm effectiveJvm;
    public String target;
    public String warmupEndedBy;
    public Double warmupSeconds;
    public Object profiles;
    public Integer sutExitStatus;
    public String endedAt;

    /**
     * One process of the run.
     *
     * @param ports      the ports its READY line announced, by name
     * @param exitStatus its exit status after perflab stopped it (-1: it would not die), null while it runs
     * @param sampled    {@code process} (sampled alone) or {@code tree} (with every process under it)
     * @param role       the part a companion plays ({@code database}), or null
     * @param settings   what a companion declared it runs with (a database's durability settings), or null
     * @param startup    what the process said of its start (trade's SUT: how its database was populated and
     *                   restored, in seconds), or null when it said nothing
     */
    public record ProcessEntry(long pid, List<String> command, Map<String, Integer> ports, Integer exitStatus,
                               String sampled, String role, Map<String, String> settings, Map<String, Object> startup) {
        ProcessEntry withExitStatus(Integer status) {
            return new ProcessEntry(pid, command, ports, status, sampled, role, settings, startup);
        }
    }

    /**
     * A server file as the run used it.
     *
     * @param file    the path given
     * @param name    the server's name
     * @param sha256  the hash of its text, to tell two runs of the same file from runs of an edited one
     * @param content its text
     * @param home    the home it was started from (a Maven distribution unpacked in perflab's cache), or null
     * @param env     the environment it was given, besides perflab's own (ports not yet filled in)
     */
    public record ServerFileEntry(String file, String name, String sha256, String content, String home,
                                  Map<String, String> env) {
        static ServerFileEntry of(perflab.core.server.ServerFile f, ServerLaunch launch) {
            perflab.core.server.ServerPlan plan = launch == null ? null : launch.sut().sut();
            perflab.core.server.ServerPlan.Program program = plan == null ? null : plan.program();
            return new ServerFileEntry(f.source(), f.name(), sha256(f.content()), f.content(),
                    program == null || program.home() == null ? null : program.home().toString(),
                    program == null ? null : program.env());
        }

        private static String sha256(String text) {
            try {
                return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final transient Path file;

    RunManifest(Path runDir) {
        this.file = runDir.resolve("run.json");
        this.runDirectory = runDir.toAbsolutePath().toString();
    }

    /** The process sutCommand and sutExitStatus are of: the SUT, or the first of its instances. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    private String sutName = perflab.monitor.RunMonitor.SUT;

    /** Records the started processes (their commands as run). */
    void started(ServerProcesses server) {
        if (processes == null) { // the load sources that answer may be there already: they start first
            processes = new LinkedHashMap<>();
        }
        Map<String, List<String>> commands = server.commands();
        for (ManagedProcess p : server.all()) {
            ServerLaunch.Step step = server.step(p.name());
            processes.put(p.name(), new ProcessEntry(p.pid(), commands.get(p.name()), p.ports(), null,
                    step.sampling().name().toLowerCase(java.util.Locale.ROOT), step.role() == null ? null : step.role().key(),
                    step.settings().isEmpty() ? null : step.settings(),
                    p.startupFacts().isEmpty() ? null : p.startupFacts()));
        }
        // several instances: the first one's, like effectiveJvm (they run the same command but for their files)
        sutName = server.instanceNames().isEmpty() ? perflab.monitor.RunMonitor.SUT : server.instanceNames().get(0);
        sutCommand = commands.get(sutName);
    }

    /** Records the load sources started so far (again after each group), with the ports each listens on. */
    void startedSources(LoadSources loads) {
        if (processes == null) {
            processes = new LinkedHashMap<>();
        }
        Map<String, List<String>> commands = loads.commands();
        loads.pids().forEach((name, pid) -> processes.put(name,
                new ProcessEntry(pid, commands.get(name), loads.ports().get(name), null, "process", null, null, null)));
    }

    /** Records how the processes exited. */
    void stopped(Map<String, Integer> exitStatus) {
        if (processes == null) {
            return;
        }
        exitStatus.forEach((name, status) -> processes.computeIfPresent(name,
                (n, e) -> e.withExitStatus(status)));
        if (exitStatus.containsKey(sutName)) {
            sutExitStatus = exitStatus.get(sutName);
        }
    }

    /** Writes run.json as it stands, atomically. */
    void write() throws IOException {
        Json.write(file, this);
    }
}
