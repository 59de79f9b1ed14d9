package perflab.experiment.run;

import perflab.core.sut.EffectiveJvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * What a JVM perflab did not start itself runs with (a server file's, found in its process tree), asked from
 * outside as a user would: its properties through the attach API, its flags from {@code jcmd PID VM.flags -all}
 * (the flags in force, ergonomic choices included), its CPUs from the kernel. perflab's own stacks report
 * themselves ({@link EffectiveJvm#describe()}); this is the same record for any HotSpot JVM.
 */
final class AttachedJvm {
    private AttachedJvm() {
    }

    /** The JVM of process {@code pid}; null when it cannot be asked (not HotSpot, another user's, gone). */
    static EffectiveJvm describe(long pid) {
        try {
            Properties props;
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
            Properties agent;
            try {
                props = vm.getSystemProperties();
                agent = vm.getAgentProperties();
            } finally {
                vm.detach();
            }
            Map<String, String> flags = flags(jcmd(pid, "VM.flags", "-all"));
            String args = agent.getProperty("sun.jvm.args", "").trim();
            return new EffectiveJvm(pid, props.getProperty("java.version"), props.getProperty("java.vm.name"),
                    props.getProperty("java.vm.vendor"), collector(flags), List.of(),
                    megabytes(flags.get("InitialHeapSize")), megabytes(flags.get("MaxHeapSize")), cpus(pid),
                    "true".equals(flags.get("UseLargePages")), "true".equals(flags.get("UseTransparentHugePages")),
                    "true".equals(flags.get("UseCompressedOops")),
                    args.isEmpty() ? List.of() : List.of(args.split("\\s+")));
        } catch (IOException | com.sun.tools.attach.AttachNotSupportedException | RuntimeException | LinkageError e) {
            return null; // a JDK without the attach module, too: the run goes on without it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** {@code name = value} of every line of {@code jcmd VM.flags -all} ("   size_t MaxHeapSize = 536870912 {product}"). */
    static Map<String, String> flags(String out) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (w.length >= 4 && w[2].equals("=")) {
                flags.put(w[1], w[3]);
            }
        }
        return flags;
    }

    /** perflab's name for the collector the flags select, as {@link EffectiveJvm} names it. */
    static String collector(Map<String, String> flags) {
        if ("true".equals(flags.get("UseZGC"))) {
            return "true".equals(flags.get("ZGenerational")) ? "zgc-generational" : "zgc";
        }
        for (Map.Entry<String, String> c : Map.of("UseSerialGC", "serial", "UseParallelGC", "parallel", "UseG1GC", "g1",
                "UseShenandoahGC", "shenandoah", "UseEpsilonGC", "epsilon").entrySet()) {
            if ("true".equals(flags.get(c.getKey()))) {
                return c.getValue();
            }
        }
        return "unknown";
    }

    private static long megabytes(String bytes) {
        try {
            return bytes == null ? 0 : Long.parseLong(bytes) / (1024 * 1024);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The CPUs the kernel lets it run on (its affinity: --cpus, a container's cpuset). */
    private static int cpus(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Cpus_allowed:")) {
                int n = 0; // a hex mask, in comma-separated groups of 32 bits
                for (char c : line.substring(line.indexOf(':') + 1).trim().toCharArray()) {
                    n += c == ',' ? 0 : Integer.bitCount(Character.digit(c, 16));
                }
                return n;
            }
        }
        return 0;
    }

    private static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        cmd.addAll(List.of(command));
        Path out = Files.createTempFile("perflab-jcmd", ".txt");
        try {
            // its output into a file, so that a jcmd that hangs is bounded by the wait, not by a blocking read
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd did not answer");
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
