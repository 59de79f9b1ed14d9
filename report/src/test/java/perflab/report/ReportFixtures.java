package perflab.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The recorded result directories under src/test/resources/perflab/report, copied where a test may write. */
final class ReportFixtures {
    /** A real 10 s soap-echo run (5 s warm-up, 16 clients, lean stack, G1). */
    static final String RUN = "run";
    private static final String[] RUN_FILES = {"run.json", "summary.json", "timeseries.csv", "latency.hlog", "service-time.hlog"};

    private ReportFixtures() {
    }

    static Path copyRun(Path into) throws IOException {
        Files.createDirectories(into);
        for (String f : RUN_FILES) {
            try (InputStream in = ReportFixtures.class.getResourceAsStream(RUN + "/" + f)) {
                Files.copy(in, into.resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return into;
    }
}
