package perflab.monitor.gc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.gc.GcAnalysis;
import perflab.core.result.gc.GcSecond;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GcLogTailTest {
    @TempDir
    Path dir;

    /** A real G1 log written in random chunks (lines cut anywhere): the tail ends where the whole-file analysis does. */
    @Test
    void followsAGrowingLogWithLinesCutAnywhere() throws Exception {
        Path full = dir.resolve("full.log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseG1GC", "-Xmx64m",
                "-Xlog:gc*,safepoint:file=" + full + ":time,uptime,level,tags:filecount=0",
                "-cp", System.getProperty("java.class.path"), GcWorkload.class.getName(), "alloc", "1500")
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.out").toFile()).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        byte[] bytes = Files.readAllBytes(full);

        Path growing = dir.resolve("growing.log");
        GcLogTail tail = new GcLogTail(growing);
        assertTrue(tail.poll(), "a log not yet created is waited for");
        assertNull(tail.second(0));
        Random random = new Random(42);
        try (OutputStream out = Files.newOutputStream(growing, StandardOpenOption.CREATE_NEW)) {
            for (int at = 0; at < bytes.length; ) {
                int n = Math.min(bytes.length - at, 1 + random.nextInt(700));
                out.write(bytes, at, n);
                out.flush();
                at += n;
                assertTrue(tail.poll(), tail.failure());
            }
        }
        GcAnalysis tailed = tail.accumulator().result();
        GcAnalysis whole = new GcLogAnalyzer().analyze(full);
        assertEquals(whole.count(), tailed.count());
        assertTrue(whole.count() > 0, "the child collected");
        assertEquals(whole.pauseCount(), tailed.pauseCount());
        assertEquals(whole.totalPauseMs(), tailed.totalPauseMs(), 1e-9);
        assertEquals(whole.perSecond(), tailed.perSecond());
        for (GcSecond s : whole.perSecond()) {
            GcSecond live = tail.second(s.epochMs());
            assertEquals(s.pauseMs(), live.pauseMs(), 1e-9);
            assertEquals(s.heapAfterMb(), live.heapAfterMb());
        }
        tail.close();
        assertFalse(tail.poll(), "closed");
    }

    @Test
    void aFileThatIsNotAGcLogStopsTheTailWithTheReason() throws Exception {
        Path notLog = dir.resolve("notes.txt");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            text.append("just some text, line ").append(i).append('\n');
        }
        Files.writeString(notLog, text, StandardCharsets.ISO_8859_1);
        GcLogTail tail = new GcLogTail(notLog);
        assertFalse(tail.poll());
        assertNotNull(tail.failure());
        assertTrue(tail.failure().contains(UnknownGcLogFormatException.KNOWN_FORMATS), tail.failure());
        assertNull(tail.second(0));
    }
}
