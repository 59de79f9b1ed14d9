package perflab.cli;

import perflab.core.result.ExperimentResult;
import perflab.core.stats.Statistics;
import perflab.report.CompareReport;
import perflab.report.ExperimentReport;
import perflab.report.ReportRun;
import perflab.report.RunReportCharts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare two results: throughput, latency p50/p99, errors, SUT CPU per request, GC overhead and "
                + "total pause of A and B, the change in %%, and its significance. Two runs: significance is not judged "
                + "(one run each); two experiments (perflab tune, with repeats): Welch's t-test on the per-run values of "
                + "the configurations they share.",
                "Example: perflab compare results/<run-a> results/<run-b> --html compare.html"})
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR_A", description = "A run or experiment directory (the reference).")
    Path a;

    @Parameters(index = "1", paramLabel = "DIR_B", description = "A run or experiment directory (compared with A).")
    Path b;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the comparison as a self-contained HTML page (charts of both).")
    Path html;

    @Override
    public Integer call() throws IOException {
        boolean expA = isExperiment(a);
        boolean expB = isExperiment(b);
        if (expA != expB) {
            throw new IllegalArgumentException((expA ? a : b) + " is an experiment and " + (expA ? b : a)
                    + " is not; compare two runs or two experiments");
        }
        CompareReport report;
        List<RunReportCharts.Labeled> runs;
        if (expA) {
            report = CompareReport.ofExperiments(a.toString(), experiment(a), b.toString(), experiment(b), (x, y) -> {
                Statistics.Welch w = Statistics.welch(x, y);
                return w == null ? null : w.p();
            });
            runs = List.of();
        } else {
            ReportRun ra = ReportRun.load(a);
            ReportRun rb = ReportRun.load(b);
            report = CompareReport.ofRuns(ra, rb);
            runs = List.of(new RunReportCharts.Labeled("A", ra), new RunReportCharts.Labeled("B", rb));
        }
        System.out.print(report.text());
        if (html != null) {
            if (Files.isDirectory(html)) {
                throw new IllegalArgumentException("--html " + html + " is a directory; give a file name such as compare.html");
            }
            report.page(runs).write(html.toAbsolutePath());
            System.out.println("perflab: comparison page " + html);
        }
        return 0;
    }

    private static boolean isExperiment(Path dir) {
        return ExperimentReport.isExperiment(dir);
    }

    private static ExperimentResult experiment(Path dir) throws IOException {
        return ExperimentReport.read(dir);
    }
}
