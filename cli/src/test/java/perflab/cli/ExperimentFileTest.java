package perflab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.ExperimentSpec;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(ExperimentSpec.Decision.DEFAULT, read("workload: hello\n").decision());
        ExperimentSpec spec = read("workload: hello\nalpha: 0.01\nmin-effect: 5%\nmatrix: {gc: [parallel, g1]}\n");
        assertEquals(new ExperimentSpec.Decision(0.01, 5), spec.decision());
        Path back = dir.resolve("back.yaml");
        ExperimentFile.write(back, spec);
        assertEquals(spec.decision(), ExperimentFile.read(back).decision());
        assertEquals(new ExperimentSpec.Decision(0.05, 1), read("workload: hello\nmin-effect: 1\n").decision());
    }

    @Test
    void agentsInAnExperimentFileDriveEveryConfigurationAndABadSpecStopsItBeforeAnyRun() throws Exception {
        ExperimentSpec spec = read("workload: hello\nagents: local:2\ndriver-cpus: 0/1\nmatrix: {heap: [256m, 512m]}\n");
        var plan = TuneCommand.plan("e.yaml", spec, perflab.core.workload.Workloads.named("hello"));
        assertEquals(2, plan.configurations().size());
        for (var c : plan.configurations()) {
            assertEquals("local:2", c.config().agents().spec(), c.variant().name());
            assertEquals("0/1", c.config().driverCpus());
        }
        ExperimentSpec bad = read("workload: hello\nagents: local:99\nmatrix: {heap: [256m, 512m]}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TuneCommand.plan("e.yaml", bad, perflab.core.workload.Workloads.named("hello")));
        assertTrue(e.getMessage().contains("--agents local:99: local:N needs N from 1 to 16"), e.getMessage());
    }

    @Test
    void theTimeEstimateCountsAWarmupGivenInRequests() throws Exception {
        var hello = perflab.core.workload.Workloads.named("hello");
        // at a rate, 100,000 warm-up requests are 50 s; each run also has its 60 s window and 5 s to start
        var open = TuneCommand.plan("e.yaml", read("workload: hello\nrate: 2000\nwarmup: 0s\nwarmup-requests: 100000\n"
                + "duration: 60s\nmatrix: {heap: [256m, 512m]}\n"), hello);
        assertEquals("; about 3min 50s left", perflab.experiment.study.ExperimentRunner.timeLeft(open, 2, 0, 0));
        // closed: how long the server takes to answer them is not known before a run, and the estimate says so
        var closed = TuneCommand.plan("e.yaml", read("workload: hello\nwarmup: 0s\nwarmup-requests: 100000\n"
                + "duration: 60s\nmatrix: {heap: [256m, 512m]}\n"), hello);
        assertEquals("; about 2min 10s left, plus each run's 100,000 warm-up requests",
                perflab.experiment.study.ExperimentRunner.timeLeft(closed, 2, 0, 0));
    }

    @Test
    void repeatAutoIsAdaptiveWithItsMaximumAndSurvivesAResume() throws Exception {
        ExperimentSpec spec = read("workload: hello\nrepeat: auto:12\nmatrix: {gc: [parallel, g1]}\n");
        assertEquals(12, spec.repeat());
        assertEquals(true, spec.decision().adaptive());
        Path back = dir.resolve("back.yaml");
        ExperimentFile.write(back, spec);
        assertEquals(true, Files.readString(back).contains("repeat: auto:12"), Files.readString(back));
        assertEquals(spec.decision(), ExperimentFile.read(back).decision());
        assertEquals(10, read("workload: hello\nrepeat: auto\n").repeat());
        assertEquals(false, read("workload: hello\nrepeat: 4\n").decision().adaptive());
    }

    @Test
    void aRateSearchIsReadWithItsDefaultsRunsEachRateOnceAndSurvivesAResume() throws Exception {
        ExperimentSpec spec = read("workload: hello\nhold: 20s\nrate-search: {start: 50, max: 2k, goal-ms: 40}\n");
        assertEquals(ExperimentSpec.Kind.RATE_SEARCH, spec.kind());
        assertEquals(new ExperimentSpec.RateSearch("50", "2k", 5, 40.0, true, 16), spec.rateSearch());
        assertEquals(1, spec.repeat(), "one trial per rate; the capacity's confirmation is the second");
        Path back = dir.resolve("back.yaml");
        ExperimentFile.write(back, spec);
        assertEquals(spec.rateSearch(), ExperimentFile.read(back).rateSearch());
        assertEquals(1, ExperimentFile.read(back).repeat());
        ExperimentSpec.RateSearch other = read("workload: hello\nrate-search: {start: 10, resolution: 2%, confirm: false, "
                + "trials: 8}\n").rateSearch();
        assertEquals(new ExperimentSpec.RateSearch("10", null, 2, null, false, 8), other);
    }

    @Test
    void aBadRateSearchGetsOneLine() {
        assertEquals("e.yaml, rate-search: start: missing; give the first rate, e.g. start: 50",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrate-search: {max: 10}\n")).getMessage());
        assertEquals("e.yaml, rate-search: unknown key 'step'; accepted: confirm, goal-ms, max, resolution, start, trials",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrate-search: {start: 1, step: 2}\n")).getMessage());
        assertEquals("e.yaml, rate-search: max 10 is below start 50",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrate-search: {start: 50, max: 10}\n")).getMessage());
        assertEquals("e.yaml, rate-search: resolution: '80%' must be 0.1-50 % of the rate",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrate-search: {start: 5, resolution: 80%}\n")).getMessage());
        assertEquals("e.yaml: rate: the rate search sets the rate; drop rate: or rate-search:",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrate: 5\nrate-search: {start: 5}\n")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrepeat: 3\nrate-search: {start: 5}\n"))
                .getMessage().startsWith("e.yaml: repeat: a rate search runs each rate once"));
        assertEquals("e.yaml: give one of matrix:, steps:, rate-sweep: or rate-search:, not several",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nmatrix: {heap: [1g, 2g]}\n"
                        + "rate-search: {start: 5}\n")).getMessage());
    }

    @Test
    void badValuesGetOneLine() {
        assertEquals("e.yaml: alpha: 'often' is not a number (e.g. 0.05)",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nalpha: often\n")).getMessage());
        assertEquals("e.yaml: alpha must be within (0, 0.5), got 0.7",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nalpha: 0.7\n")).getMessage());
        assertEquals("e.yaml: repeat: 'auto:1': auto:MAX needs MAX within 3..100 (auto: 10)",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nrepeat: auto:1\n")).getMessage());
        assertEquals("e.yaml: min-effect: 'lots' is not a percentage (e.g. 2%)",
                assertThrows(IllegalArgumentException.class, () -> read("workload: hello\nmin-effect: lots\n")).getMessage());
    }
}
