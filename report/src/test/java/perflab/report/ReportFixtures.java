package perflab.report;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** The recorded result directories under src/test/resources/perflab/report, copied where a test may write. */
final class ReportFixtures {
    /** A real 10 s soap-echo run (5 s warm-up, 16 clients, lean stack, G1). */
    static final String RUN = "run";
    /**
     * A real experiment: soap-echo, heap 128m/512m x parallel/g1, 2 repetitions of 4 s (3 s warm-up); each run's
     * run.json, summary.json and timeseries.csv.
     */
    static final String EXPERIMENT = "experiment";

    private ReportFixtures() {
    }

    static Path copyRun(Path into) throws IOException {
        return copy(RUN, into);
    }

    static Path copyExperiment(Path into) throws IOException {
        return copy(EXPERIMENT, into);
    }

    private static Path copy(String fixture, Path into) throws IOException {
        Path from;
        try {
            from = Path.of(ReportFixtures.class.getResource(fixture).toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = into.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return into;
    }
}
