package perflab.monitor;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A SUT run as several instances is one group: its figures are the sums of its members'. */
class RunMonitorGroupTest {
    @Test
    void aGroupsWindowAndSecondAreTheSumsOfItsMembers() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                Spinner.class.getName()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("READY", out.readLine());
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("sut-0", ProcessHandle.current().pid());
            pids.put("sut-1", child.pid());
            RunMonitor monitor = new RunMonitor(pids, Set.of(), Map.of(RunMonitor.SUT, List.of("sut-0", "sut-1")), null);
            long from = System.currentTimeMillis();
            monitor.sample();
            PrintStream in = new PrintStream(child.getOutputStream(), true);
            in.println(300);
            String spun = out.readLine();
            assertTrue(spun.startsWith("SPUN"), spun);
            // the CPU the child's thread really got (its own clock): a busy machine gives it less than 300 ms
            double spunSeconds = Long.parseLong(spun.substring(5).trim()) / 1e9;
            RunMonitor.Second second = monitor.sample();
            long to = System.currentTimeMillis();

            ProcessSampler.Reading a = second.processes().get("sut-0");
            ProcessSampler.Reading b = second.processes().get("sut-1");
            ProcessSampler.Reading sum = second.sut();
            assertEquals(a.cpuPercent() + b.cpuPercent(), sum.cpuPercent(), 1e-9);
            assertEquals(a.rssMb() + b.rssMb(), sum.rssMb(), 1e-9);
            assertEquals(a.threads() + b.threads(), sum.threads());
            assertTrue(sum.alive());

            RunMonitor.Window w = monitor.window(from, to);
            RunMonitor.SutWindow w0 = w.processes().get("sut-0");
            RunMonitor.SutWindow w1 = w.processes().get("sut-1");
            // the spinning child's CPU is in its window (each /proc reading truncated to a 10 ms tick)
            assertTrue(w1.cpuSeconds() >= spunSeconds - 0.03, "spinner cpu " + w1.cpuSeconds() + " of " + spunSeconds);
            assertEquals(w0.cpuSeconds() + w1.cpuSeconds(), w.sut().cpuSeconds(), 1e-9);
            assertEquals(w0.threads() + w1.threads(), w.sut().threads());
            assertEquals(2, w.sut().processes());
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMemberWithoutAFigureIsLeftOutOfTheSumNotMadeNaN() {
        ProcessSampler.Reading known = new ProcessSampler.Reading(50, 40, 10, 25, 100, 120, 30, true, 5, 1);
        ProcessSampler.Reading dead = new ProcessSampler.Reading(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, 0, false, Double.NaN, 1);
        ProcessSampler.Reading sum = ProcessSampler.Reading.sum(List.of(known, dead));
        assertEquals(50, sum.cpuPercent());
        assertEquals(100, sum.rssMb());
        assertEquals(5, sum.jitCpuPercent());
        assertTrue(sum.alive());
        assertFalse(ProcessSampler.Reading.sum(List.of(dead)).alive());
        assertTrue(Double.isNaN(ProcessSampler.Reading.sum(List.of(dead)).cpuPercent()));

        RunMonitor.SutWindow jitKnown = new RunMonitor.SutWindow(2, 1.5, 0.5, 10, 200, 250, 40, 0.1, 1);
        RunMonitor.SutWindow jitUnknown = new RunMonitor.SutWindow(1, 1, 0, 5, 100, 110, 20, Double.NaN, 1);
        RunMonitor.SutWindow w = RunMonitor.SutWindow.sum(List.of(jitKnown, jitUnknown));
        assertEquals(3, w.cpuSeconds(), 1e-9);
        assertEquals(360, w.maxRssMb(), 1e-9);
        assertEquals(0.1, w.jitCpuSeconds(), 1e-9);
        assertTrue(Double.isNaN(RunMonitor.SutWindow.sum(List.of(jitUnknown)).jitCpuSeconds()));
    }

    @Test
    void aGroupCannotTakeAProcesssName() {
        assertThrows(IllegalArgumentException.class, () -> new RunMonitor(Map.of("sut", 1L), Set.of(),
                Map.of("sut", List.of("sut")), null));
        assertNull(new RunMonitor(Map.of(), Set.of(), Map.of("sut", List.of("sut-0")), null).sample().sut());
    }
}
