package perflab.cli;

import perflab.report.ExperimentReport;
import perflab.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write report.html into a result directory: a self-contained page (charts inlined, works offline) "
                + "of a run's configuration, figures, throughput over time with the warm-up, latency distribution, GC pauses, "
                + "SUT CPU and memory; for an experiment (perflab tune) the configurations' table, throughput, p99 and GC per "
                + "configuration with 95%% intervals, the cumulative gain of steps, every run over time. Prints the page's path.",
                "Example: perflab report results/20250601-120000-WORKLOAD-OPERATION"})
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A run directory (written by perflab run or drive) or an experiment directory (perflab tune).")
    Path dir;

    @Override
    public Integer call() throws IOException {
        Path file = ExperimentReport.isExperiment(dir) ? ExperimentReport.write(dir) : RunReport.write(dir);
        System.out.println(file);
        return 0;
    }
}
