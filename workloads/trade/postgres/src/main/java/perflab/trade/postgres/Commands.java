package perflab.trade.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Short-lived programs (initdb, cp, kill) run to completion within a bound, failing in one line. */
final class Commands {
    /** The environment every program here gets on top of this process's: messages and collation in plain C. */
    static final Map<String, String> ENVIRONMENT = Map.of("LC_ALL", "C", "LANG", "C");

    private Commands() {
    }

    /**
     * Runs {@code command} and returns its output (stdout and stderr together); throws IllegalStateException
     * naming {@code what} with the output's last line when it fails or outlasts {@code timeout}.
     */
    static String run(List<String> command, Duration timeout, String what) {
        Process p;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().putAll(ENVIRONMENT);
            p = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException(what + " could not start: " + e.getMessage());
        }
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new IllegalStateException(what + " did not finish within " + timeout.toSeconds() + " s");
            }
            String out = output.completeOnTimeout("", 5, TimeUnit.SECONDS).join();
            if (p.exitValue() != 0) {
                throw new IllegalStateException(what + " failed (exit status " + p.exitValue() + "): " + lastLine(out));
            }
            return out;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted");
        }
    }

    /** The last non-blank line of a program's output, or "no output". */
    static String lastLine(String out) {
        String[] lines = out.strip().split("\\R");
        for (int i = lines.length - 1; i >= 0; i--) {
            if (!lines[i].isBlank()) {
                return lines[i].strip();
            }
        }
        return "no output";
    }
}
