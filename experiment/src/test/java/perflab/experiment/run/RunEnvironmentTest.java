package perflab.experiment.run;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunEnvironmentTest {
    /**
     * run.json's host is what lscpu says of this machine: the same vendor, family, model, stepping and CPU count,
     * read by another program (util-linux, which the suite needs anyway for taskset).
     */
    @Test
    void theHostIsWhatLscpuSays() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/cpuinfo")), "not Linux");
        Process p = new ProcessBuilder("lscpu").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "lscpu failed: " + out);
        Map<String, String> lscpu = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                lscpu.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        Map<String, Object> host = RunEnvironment.host();
        assertEquals(lscpu.get("Vendor ID"), host.get("vendor"), host.toString());
        assertEquals(lscpu.get("CPU family"), host.get("family"), host.toString());
        assertEquals(lscpu.get("Model"), host.get("model"), host.toString());
        assertEquals(lscpu.get("Stepping"), host.get("stepping"), host.toString());
        assertEquals(lscpu.get("CPU(s)"), String.valueOf(host.get("cpus")), host.toString());
        assertEquals(lscpu.get("Thread(s) per core"), String.valueOf(host.get("threadsPerCore")), host.toString());
        assertEquals(lscpu.getOrDefault("Flags", "").contains("hypervisor"), host.get("virtual"), host.toString());
        assertTrue(String.valueOf(host.get("memTotal")).endsWith(" kB"), host.toString());
    }
}
