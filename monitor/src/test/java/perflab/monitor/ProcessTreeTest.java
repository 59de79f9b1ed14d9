package perflab.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.os.ProcessCpu;
import perflab.testsupport.Poll;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process tree (a shell and the processes it starts, as PostgreSQL's postmaster and its backends) sampled as one.
 * CPU is compared with what the processes' own counters say (or, for children that have exited, with the times
 * the shell's {@code times} builtin reports for them), never with wall time, so the bounds hold on a busy machine:
 * /proc counts in 10 ms ticks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessTreeTest {
    private static final double TICK = 0.01;

    @Test
    void aTreeIsTheProcessAndEveryProcessUnderItParentsFirst() throws Exception {
        // bash, two sleeps, a subshell and its sleep: five processes, one of them a grandchild
        Process root = shell("sleep 60 & sleep 60 & (sleep 60 & wait) & echo READY; read x");
        try {
            awaitLine(root, "READY");
            ProcessTree.Reading tree = awaitMembers(root.pid(), 5);
            assertEquals(root.pid(), tree.pids().get(0), "the root first: " + tree);
            for (int i = 1; i < tree.pids().size(); i++) {
                long parent = ProcessHandle.of(tree.pids().get(i)).flatMap(ProcessHandle::parent).orElseThrow().pid();
                assertTrue(tree.pids().subList(0, i).contains(parent), "each parent before its children: " + tree);
            }
            assertEquals(Set.copyOf(tree.pids()), Set.copyOf(ProcessTree.readByScan(root.pid()).pids()),
                    "children files and a scan of parents find the same tree");
            assertTrue(tree.threads() >= 5, "single-threaded processes: " + tree);

            ProcessSampler.Reading whole = ProcessSampler.tree(root.pid()).sample();
            assertEquals(5, whole.processes(), whole.toString());
            assertEquals(1, new ProcessSampler(root.pid()).sample().processes());
            double rssSum = tree.pids().stream().mapToDouble(ProcessSampler::rssMb).sum();
            // proportional set size: each process's private pages and its share of shared ones, never above RSS
            assertTrue(whole.rssMb() > 0 && whole.rssMb() <= rssSum + 0.1, "pss " + whole.rssMb() + " MB, rss summed " + rssSum);
            assertTrue(whole.maxRssMb() >= whole.rssMb(), whole.toString());
        } finally {
            kill(root);
        }
    }

    @Test
    void childrenThatExitedStayInTheTreesCpu() throws Exception {
        // three children that count to 200,000 one after the other and exit; bash's `times` then prints its children's
        // user and system time (what wait() collected for them, an account separate from /proc/<pid>/stat's parsing)
        Process root = shell("read go; for i in 1 2 3; do sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'; done; "
                + "times; read x");
        try {
            ProcessTree.Reading before = ProcessTree.read(root.pid());
            ProcessCpu.Sample rootAloneBefore = ProcessCpu.read(root.pid());
            OutputStream in = root.getOutputStream();
            in.write("go\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            BufferedReader out = new BufferedReader(new InputStreamReader(root.getInputStream(), StandardCharsets.UTF_8));
            out.readLine(); // the shell's own times
            double children = seconds(out.readLine());
            ProcessTree.Reading after = ProcessTree.read(root.pid());
            ProcessCpu.Sample rootAloneAfter = ProcessCpu.read(root.pid());
            double tree = (after.userNanos() + after.systemNanos() - before.userNanos() - before.systemNanos()) / 1e9;
            double alone = ProcessCpu.secondsBetween(rootAloneBefore, rootAloneAfter);
            String what = "tree " + tree + " s, children by times " + children + " s, the shell alone " + alone + " s";
            assertTrue(children >= 0.1, "counting to 200,000 three times is work: " + what);
            // /proc keeps user and system time in whole ticks, each cut down, while `times` prints milliseconds: the
            // tree may read up to a tick short on each of the two, and three exited children add their own remainders
            assertTrue(tree >= children - 4 * TICK, what);
            assertTrue(tree <= children + alone + 3 * TICK, what);
            assertTrue(alone < children / 2, "the shell alone misses its children's work: " + what);
            assertEquals(1, after.processes(), "the children are gone: " + after);
        } finally {
            kill(root);
        }
    }

    @Test
    void aRunningChildsCpuCountsAndTheMonitorWindowHasTheTree() throws Exception {
        Process root = shell("sh -c 'while :; do :; done' & echo READY; read x; kill $!");
        try {
            awaitLine(root, "READY");
            ProcessTree.Reading tree = awaitMembers(root.pid(), 2);
            long spinner = tree.pids().get(1);
            RunMonitor monitor = new RunMonitor(Map.of("db", root.pid(), "alone", root.pid()), Set.of("db"), null);
            long from = System.currentTimeMillis();
            monitor.sample();
            ProcessCpu.Sample spinBefore = ProcessCpu.read(spinner);
            // the spinner's interval ends once it has used 0.3 s of CPU, not after a time: a busy machine may
            // give it a small share of a core
            ProcessCpu.Sample spinAfter = Poll.until("the spinner to use 0.3 s of CPU", Duration.ofSeconds(30),
                    () -> ProcessCpu.read(spinner), s -> ProcessCpu.secondsBetween(spinBefore, s) >= 0.3);
            RunMonitor.Second second = monitor.sample();
            long to = System.currentTimeMillis();
            double spun = ProcessCpu.secondsBetween(spinBefore, spinAfter);

            RunMonitor.SutWindow db = monitor.window(from, to).processes().get("db");
            RunMonitor.SutWindow alone = monitor.window(from, to).processes().get("alone");
            String what = "tree " + db + ", root alone " + alone + ", the spinner itself " + spun + " s";
            assertNotNull(db, what);
            // the spinner's interval lies inside the monitor's samples: the tree grew at least as much
            assertTrue(spun > 0 && db.cpuSeconds() >= spun - TICK, what);
            assertTrue(alone.cpuSeconds() < db.cpuSeconds(), what);
            assertEquals(2, db.processes(), what);
            assertEquals(1, alone.processes(), what);
            assertEquals(2, second.processes().get("db").processes());
            assertTrue(second.processes().get("db").cpuPercent() > 0, second.toString());
        } finally {
            kill(root);
        }
    }

    @Test
    void aTreeWhoseRootIsGoneReadsAsGone() throws Exception {
        Process root = shell("exit 0");
        assertTrue(root.waitFor(10, TimeUnit.SECONDS));
        ProcessSampler.Reading gone = ProcessSampler.tree(root.pid()).sample();
        assertFalse(gone.alive());
        assertEquals(0, gone.processes());
        assertTrue(Double.isNaN(gone.cpuPercent()));
        assertEquals(null, ProcessTree.read(root.pid()));
    }

    private static Process shell(String script) throws IOException {
        return new ProcessBuilder("bash", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void awaitLine(Process p, String line) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals(line, out.readLine());
    }

    /** The tree once it has {@code n} members (the shell forks them a moment after it prints). */
    private static ProcessTree.Reading awaitMembers(long root, int n) throws InterruptedException {
        return Poll.until("the tree of " + root + " to reach " + n + " processes", Duration.ofSeconds(10),
                () -> ProcessTree.read(root), tree -> tree != null && tree.processes() >= n);
    }

    /** "0m0.912s 0m0.004s" (user, system) in seconds. */
    private static double seconds(String times) {
        double total = 0;
        for (String word : times.trim().split("\\s+")) {
            int m = word.indexOf('m');
            total += Double.parseDouble(word.substring(0, m)) * 60 + Double.parseDouble(word.substring(m + 1, word.length() - 1));
        }
        return total;
    }

    /** The shell and everything under it, so that no sleep outlives the test. */
    private static void kill(Process root) throws InterruptedException {
        List<ProcessHandle> all = root.descendants().toList();
        all.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
        root.waitFor(10, TimeUnit.SECONDS);
        for (ProcessHandle h : all) {
            h.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> h).join();
        }
        assertTrue(all.stream().noneMatch(ProcessHandle::isAlive), "left behind: " + all);
        assertFalse(Files.exists(Path.of("/proc", Long.toString(root.pid()), "stat")) && root.isAlive());
    }
}
