package perflab.example.ring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The SUT's one call to its phone: against SIPp's built-in uas, as in a run, and against a port nobody answers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PhoneCallTest {
    private static Path sipp() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(dir -> Path.of(dir, "sipp")).filter(Files::isExecutable).findFirst().orElse(null);
    }

    private static int freeUdpPort() throws IOException {
        return perflab.core.process.LocalSockets.freeUdpPort();
    }

    @Test
    void sippsUasAnswersTheCallAndCountsItSuccessful() throws Exception {
        Path sipp = sipp();
        assumeTrue(sipp != null, "sipp is not installed (Debian package sip-tester)");
        int port = freeUdpPort();
        // -m 1: SIPp exits once the call has ended (after the scenario's 4 s wait), 0 when it succeeded
        Process uas = new ProcessBuilder(sipp.toString(), "-sn", "uas", "-i", "127.0.0.1", "-p", Integer.toString(port),
                "-m", "1", "-timeout", "40s", "-nostdin").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        try {
            // SIPp binds in a moment; the call resends its INVITE until then
            PhoneCall.place("127.0.0.1", new InetSocketAddress("127.0.0.1", port), Duration.ofSeconds(20));
            assertTrue(uas.waitFor(30, TimeUnit.SECONDS), "SIPp ends after its one call");
            assertEquals(0, uas.exitValue(), "SIPp counts the call successful");
        } finally {
            uas.destroyForcibly();
        }
    }

    @Test
    void aPhoneThatDoesNotAnswerIsAOneLineFailure() throws Exception {
        int port = freeUdpPort();
        IOException e = assertThrows(IOException.class,
                () -> PhoneCall.place("127.0.0.1", new InetSocketAddress("127.0.0.1", port), Duration.ofSeconds(2)));
        assertEquals("the phone at 127.0.0.1:" + port + " did not answer the INVITE (is it listening?)", e.getMessage());
    }
}
