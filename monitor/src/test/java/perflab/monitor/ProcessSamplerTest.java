package perflab.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.os.MachineCpu;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessSamplerTest {
    /**
     * A child JVM spinning one thread reads about one core. Interpreted (-Xint) so that no JIT thread adds CPU;
     * tolerant of a loaded 2-core machine (60..140 %: another build may take part of the core, and the JVM's
     * own threads add a little).
     */
    @Test
    void childSpinningOneThreadReadsAboutOneCore() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xint", "-XX:+UseSerialGC", "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                Spinner.class.getName(), "6000").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("SPINNING", out.readLine());
            Thread.sleep(500); // past the JVM's start-up work
            ProcessSampler sampler = new ProcessSampler(child.pid());
            Thread.sleep(2000);
            ProcessSampler.Reading r = sampler.sample();
            assertTrue(r.alive());
            assertTrue(r.cpuPercent() > 60 && r.cpuPercent() < 140, "cpu% of one core: " + r);
            assertEquals(r.cpuPercent(), r.userPercent() + r.systemPercent(), 1e-6);
            assertTrue(r.userPercent() > r.systemPercent(), "spinning is user time: " + r);
            assertEquals(r.cpuPercent() / MachineCpu.cpus(), r.cpuPercentOfMachine(), 1e-6);
            assertTrue(r.threads() > 2, "the JVM's threads: " + r);
            assertTrue(r.rssMb() > 5 && r.maxRssMb() >= r.rssMb(), "rss and its peak: " + r);
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
        ProcessSampler.Reading gone = new ProcessSampler(child.pid()).sample();
        assertFalse(gone.alive());
        assertTrue(Double.isNaN(gone.cpuPercent()));
    }
}
