package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** async-profiler attached to a real JVM whose working directory is not perflab's, as a server file's SUT is. */
class SutProfilerTest {
    @TempDir
    Path dir;

    @Test
    void aJvmInAnotherDirectoryIsProfiledFromARelativeRunDirectory() throws Exception {
        Path main = dir.resolve("Busy.java");
        Files.writeString(main, """
                public class Busy {
                    public static void main(String[] a) throws Exception {
                        System.out.println("up");
                        long end = System.nanoTime() + 120_000_000_000L;
                        long x = 0;
                        while (System.nanoTime() < end) {
                            x += Long.toString(x).hashCode();
                        }
                        System.out.println(x);
                    }
                }""");
        Path elsewhere = Files.createDirectories(dir.resolve("server-home"));
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", main.toString()).directory(elsewhere.toFile()).redirectErrorStream(true).start();
        // relative to this JVM's directory, as `perflab run --out results/x` gives it; not the profiled JVM's
        Path runDir = Path.of("target", "sut-profiler-" + UUID.randomUUID());
        try {
            assertEquals("up", new String(jvm.getInputStream().readNBytes(2)), "the JVM runs its main");
            SutProfiler profiler = SutProfiler.start("sut", jvm.pid(), "cpu", runDir.resolve(".profiler"));
            Thread.sleep(500); // samples to collect: a profile of nothing is written too, but shows nothing
            profiler.stop(runDir);
            String collapsed = Files.readString(runDir.resolve(SutProfiler.collapsedFile("sut")));
            assertTrue(collapsed.lines().anyMatch(l -> l.contains("Busy.main")), collapsed.lines().limit(5).toList().toString());
        } finally {
            jvm.destroyForcibly();
            try (var files = Files.walk(runDir)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }
}
