package perflab.experiment.run;

import perflab.core.result.gc.GcAnalysis;
import perflab.driver.DriverResult;
import perflab.monitor.gc.GcLogAnalyzer;
import perflab.monitor.gc.UnknownGcLogFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/** The SUT's GC over a run's measured window, from each SUT process's GC log. */
final class SutGcFigures {
    private SutGcFigures() {
    }

    /**
     * The SUT's GC in the measured window, its instances' combined ({@link GcAnalysis#combine}); null when perflab
     * did not start the SUT or no instance's log could be read (each such log gets a one-line warning).
     */
    static GcAnalysis analyze(List<ManagedProcess> instances, Function<String, Path> gcLogOf, DriverResult r) {
        List<GcAnalysis> each = new java.util.ArrayList<>();
        for (ManagedProcess p : instances) {
            Path log = gcLogOf.apply(p.name());
            GcAnalysis a = log == null ? null : analyzeGc(log, r, p.alive());
            if (a != null) {
                each.add(a);
            }
        }
        return each.isEmpty() ? null : GcAnalysis.combine(each).withRequests(r.successes());
    }

    /**
     * One SUT process's GC in the measured window. Never fails the run: a missing or unreadable log gives null and
     * a one-line warning.
     */
    private static GcAnalysis analyzeGc(Path gcLog, DriverResult r, boolean sutAlive) {
        String problem;
        try {
            if (!Files.exists(gcLog)) {
                problem = gcLog + " is missing";
            } else if (r.measureEndEpochMs() <= r.measureStartEpochMs()) {
                return null; // no measured window
            } else {
                // A live SUT's log is current up to now: a window ending without GC keeps its full length.
                long now = System.currentTimeMillis();
                GcLogAnalyzer analyzer = new GcLogAnalyzer();
                GcAnalysis a = sutAlive
                        ? analyzer.analyzeLive(gcLog, r.measureStartEpochMs(), r.measureEndEpochMs(),
                                GcAnalysis.DEFAULT_CASCADE_THRESHOLD, now)
                        : analyzer.analyze(gcLog, r.measureStartEpochMs(), r.measureEndEpochMs(),
                                GcAnalysis.DEFAULT_CASCADE_THRESHOLD);
                return a.withRequests(r.successes());
            }
        } catch (UnknownGcLogFormatException e) {
            problem = e.getMessage();
        } catch (IOException | RuntimeException e) {
            problem = gcLog + ": " + e;
        }
        System.err.println("perflab: warning: no GC figures in summary.json: " + problem);
        return null;
    }
}
