package perflab.core.process;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A program perflab started is ended when perflab is killed (SIGKILL: no shutdown hook runs): Kamailio, haproxy and
 * SIPp ran on after {@code kill -9} of a voicemail cluster's perflab. Here a JVM standing for perflab starts a program
 * that ignores its stdin and is then killed.
 */
class ProcessReaperTest {
    private long program;
    private Process owner;

    @AfterEach
    void cleanUp() {
        if (owner != null) {
            owner.destroyForcibly();
        }
        ProcessHandle.of(program).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void aProgramOutlivesNoPerflabKilledWithSigkill() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        owner = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Owner.class.getName())
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.US_ASCII));
        String line = out.readLine();
        assertTrue(line != null && line.matches("\\d+"), "the owner's program pid: " + line);
        program = Long.parseLong(line);
        assertTrue(alive(program), "the program runs");
        owner.destroyForcibly(); // SIGKILL, as a crash or kill -9 ends perflab
        Poll.until("the program " + program + " to be ended with its owner", Duration.ofSeconds(10), () -> !alive(program));
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Stands for perflab: starts a program in its own group as perflab does, has it reaped, says its pid, waits. */
    public static final class Owner {
        public static void main(String[] args) throws Exception {
            Process p = new ProcessBuilder(ProcessReaper.inOwnGroup(List.of("sleep", "120")))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            ProcessReaper.watch(p.pid());
            System.out.println(p.pid());
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
