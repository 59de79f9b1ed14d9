package perflab.core.process;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Ends what perflab started when perflab itself ends without stopping it (SIGKILL, a crash, an OOM kill). A JVM
 * perflab starts stops by itself when its stdin closes, but a program does not: Kamailio with its workers, haproxy
 * and the three SIPps of a voicemail cluster ran on after {@code kill -9} of perflab. So each perflab JVM keeps one
 * small shell process, in a session of its own (a Ctrl-C to perflab's terminal does not reach it), that reads from a
 * pipe the process groups perflab starts ({@code +PGID}) and has ended ({@code -PGID}); when the pipe closes, which
 * the kernel does however perflab ended, it sends SIGKILL to every group still listed and exits. A group is released
 * only once it is ended, so that an id the kernel has freed is never signalled.
 */
public final class ProcessReaper {
    private static final String SCRIPT = """
            groups=' '
            while IFS= read -r line; do
              case $line in
                +*) groups="$groups${line#+} " ;;
                -*) groups=$(printf '%s' "$groups" | sed "s/ ${line#-} / /") ;;
              esac
            done
            for g in $groups; do env kill -KILL -- "-$g" 2>/dev/null; done
            """;
    // env kill: the kill program (procps), which takes a negative process group id; dash's builtin reads it as an option

    private static Writer pipe;
    private static boolean unavailable;

    private ProcessReaper() {
    }

    /** The process group {@code pgid} (a process perflab started through setsid leads its own) is to be reaped. */
    public static synchronized void watch(long pgid) {
        send("+" + pgid);
    }

    /** The group has ended: nothing of it is left to reap. */
    public static synchronized void release(long pgid) {
        send("-" + pgid);
    }

    /**
     * SIGKILL to the process group {@code pgid} now, as the reaper would, and released from its watch once the kill
     * ran: "no such process", when the group is already empty, is as good.
     */
    public static void killGroup(long pgid) {
        if (signalGroup(pgid, "KILL")) {
            release(pgid);
        }
    }

    /**
     * Sends {@code signal} (TERM, INT, ...) to every process of the group {@code pgid}: a server's own way to stop,
     * reaching the JVM its start script forked as well as the script. Whether the kill program ran.
     */
    public static boolean signalGroup(long pgid, String signal) {
        try {
            Process k = new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return k.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException e) {
            return false; // no kill program: the leader was ended by its own handle, its workers are what is left
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether any process of group {@code pgid} is still there (its leader or what it forked, reparented or not), from
     * the kernel's process table: the fifth field of /proc/PID/stat, after the command's name in parentheses.
     */
    public static boolean groupAlive(long pgid) {
        String group = Long.toString(pgid);
        try (java.util.stream.Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).anyMatch(p -> {
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
                    return after.length > 2 && after[2].equals(group) && !after[0].equals("Z");
                } catch (IOException | RuntimeException e) {
                    return false; // gone while we looked
                }
            });
        } catch (IOException e) {
            return ProcessHandle.of(pgid).map(ProcessHandle::isAlive).orElse(false);
        }
    }

    /** The command that starts a program in a process group of its own, which {@link #watch} can then reap. */
    public static List<String> inOwnGroup(List<String> command) {
        List<String> full = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            full.add("/usr/bin/setsid");
        }
        full.addAll(command);
        return full;
    }

    private static void send(String line) {
        if (unavailable) {
            return;
        }
        try {
            if (pipe == null) {
                pipe = start();
            }
            pipe.write(line + "\n");
            pipe.flush();
        } catch (IOException e) {
            unavailable = true; // once: the processes are still stopped by perflab itself on every ordinary end
            System.err.println("perflab: warning: no reaper for the processes perflab starts (" + e.getMessage()
                    + "): if perflab is killed, programs it started may go on running");
        }
    }

    private static Writer start() throws IOException {
        List<String> command = inOwnGroup(List.of("sh", "-c", SCRIPT));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return new OutputStreamWriter(p.getOutputStream(), StandardCharsets.US_ASCII);
    }
}
