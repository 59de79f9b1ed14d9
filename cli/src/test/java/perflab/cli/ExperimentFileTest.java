package perflab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.ExperimentSpec;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The experiment file's decision keys: how sure a best configuration must be. */
class ExperimentFileTest {
    @TempDir
    Path dir;

    private ExperimentSpec read(String yaml) throws Exception {
        Path f = dir.resolve("e.yaml");
        Files.writeString(f, yaml);
        return ExperimentFile.read(f);
    }

    @Test
    void alphaAndMinimumEffectAreReadAndKeptWhenWrittenBack() throws Exception {
        assertEquals(ExperimentSpec.Decision.DEFAULT, read("workload: soap-echo\n").decision());
        ExperimentSpec spec = read("workload: soap-echo\nalpha: 0.01\nmin-effect: 5%\nmatrix: {gc: [parallel, g1]}\n");
        assertEquals(new ExperimentSpec.Decision(0.01, 5), spec.decision());
        Path back = dir.resolve("back.yaml");
        ExperimentFile.write(back, spec);
        assertEquals(spec.decision(), ExperimentFile.read(back).decision());
        assertEquals(new ExperimentSpec.Decision(0.05, 1), read("workload: soap-echo\nmin-effect: 1\n").decision());
    }

    @Test
    void repeatAutoIsAdaptiveWithItsMaximumAndSurvivesAResume() throws Exception {
        ExperimentSpec spec = read("workload: soap-echo\nrepeat: auto:12\nmatrix: {gc: [parallel, g1]}\n");
        assertEquals(12, spec.repeat());
        assertEquals(true, spec.decision().adaptive());
        Path back = dir.resolve("back.yaml");
        ExperimentFile.write(back, spec);
        assertEquals(true, Files.readString(back).contains("repeat: auto:12"), Files.readString(back));
        assertEquals(spec.decision(), ExperimentFile.read(back).decision());
        assertEquals(10, read("workload: soap-echo\nrepeat: auto\n").repeat());
        assertEquals(false, read("workload: soap-echo\nrepeat: 4\n").decision().adaptive());
    }

    @Test
    void badValuesGetOneLine() {
        assertEquals("e.yaml: alpha: 'often' is not a number (e.g. 0.05)",
                assertThrows(IllegalArgumentException.class, () -> read("workload: soap-echo\nalpha: often\n")).getMessage());
        assertEquals("e.yaml: alpha must be within (0, 0.5), got 0.7",
                assertThrows(IllegalArgumentException.class, () -> read("workload: soap-echo\nalpha: 0.7\n")).getMessage());
        assertEquals("e.yaml: repeat: 'auto:1': auto:MAX needs MAX within 3..100 (auto: 10)",
                assertThrows(IllegalArgumentException.class, () -> read("workload: soap-echo\nrepeat: auto:1\n")).getMessage());
        assertEquals("e.yaml: min-effect: 'lots' is not a percentage (e.g. 2%)",
                assertThrows(IllegalArgumentException.class, () -> read("workload: soap-echo\nmin-effect: lots\n")).getMessage());
    }
}
