package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.sut.EffectiveJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM perflab did not start described from outside: a real one, asked through attach and jcmd. */
class AttachedJvmTest {
    @TempDir
    Path dir;

    @Test
    void aRunningJvmIsDescribedByTheFlagsInForce() throws Exception {
        Path main = dir.resolve("Idle.java");
        Files.writeString(main, "public class Idle { public static void main(String[] a) throws Exception { "
                + "System.out.println(\"up\"); Thread.sleep(120_000); } }");
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xms32m", "-Xmx64m", main.toString()).redirectErrorStream(true).start();
        try {
            assertEquals("up", new String(jvm.getInputStream().readNBytes(2)), "the JVM runs its main");
            EffectiveJvm described = AttachedJvm.describe(jvm.pid());
            assertNotNull(described, "attach and jcmd answered");
            assertEquals(jvm.pid(), described.pid());
            assertEquals("serial", described.collector());
            assertEquals(64, described.heapMaxMb());
            assertEquals(32, described.heapInitialMb());
            assertEquals(System.getProperty("java.version"), described.javaVersion());
            assertTrue(described.inputArguments().contains("-Xmx64m"), described.inputArguments().toString());
            assertTrue(described.availableProcessors() >= 1);
        } finally {
            jvm.destroyForcibly();
        }
    }

    @Test
    void flagsAndTheCollectorAreReadFromJcmdsLines() {
        Map<String, String> flags = AttachedJvm.flags("""
                12345:
                [Global flags]
                     bool UseG1GC                                  = false                                     {product} {default}
                   size_t MaxHeapSize                              = 536870912                                 {product} {command line}
                     bool UseParallelGC                            = true                                      {product} {command line}
                """);
        assertEquals("536870912", flags.get("MaxHeapSize"));
        assertEquals("parallel", AttachedJvm.collector(flags));
        assertEquals("zgc-generational", AttachedJvm.collector(Map.of("UseZGC", "true", "ZGenerational", "true")));
        assertEquals("unknown", AttachedJvm.collector(Map.of()));
        assertEquals(List.of(), List.copyOf(AttachedJvm.flags("no such process").keySet()));
    }
}
