package perflab.cli;

import org.junit.jupiter.api.Test;
import perflab.core.config.ExperimentSpec;
import perflab.core.workload.Workloads;
import perflab.experiment.study.ExperimentPlan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every experiment shipped in experiments/ is valid: each configuration makes a run configuration. */
class ReadyExperimentsTest {
    @Test
    void everyReadyExperimentPlans() throws Exception {
        Path dir = Path.of(System.getProperty("basedir", ".")).resolve("../experiments").normalize();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no experiments in " + dir);
        for (Path file : files) {
            ExperimentSpec spec = ExperimentFile.read(file);
            ExperimentPlan plan = TuneCommand.plan(file.toString(), spec, Workloads.named(spec.workload()));
            assertTrue(plan.configurations().size() >= 1, file + " plans no configuration");
        }
    }
}
