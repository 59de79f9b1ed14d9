package perflab.experiment.run;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Creates a run's own directory: {@code results/<yyyyMMdd-HHmmss>-<workload>-<operation>[-n]/}, or {@code --out}. */
public final class RunDirectory {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunDirectory() {
    }

    public static Path create(Path resultsRoot, String workload, String operation, LocalDateTime now) throws IOException {
        Files.createDirectories(resultsRoot);
        String base = STAMP.format(now) + "-" + nameOf(workload) + "-" + safe(operation);
        for (int n = 1; n < 10_000; n++) {
            Path dir = resultsRoot.resolve(n == 1 ? base : base + "-" + n);
            try {
                return Files.createDirectory(dir); // atomic: two runs started in the same second get distinct names
            } catch (FileAlreadyExistsException e) {
                // taken: try the next suffix
            }
        }
        throw new IOException("no free run directory name under " + resultsRoot);
    }

    /**
     * A workload or operation as one safe file name: a workload given as a file ({@code scenarios/trade.yaml}) by its
     * name without folders and extension ({@code trade}), anything but letters, digits, '.', '_' and '-' as '_'.
     */
    static String nameOf(String given) {
        String name = given.substring(given.lastIndexOf('/') + 1);
        name = name.substring(name.lastIndexOf('\\') + 1).replaceFirst("\\.(?i)(yaml|yml)$", "");
        return safe(name);
    }

    private static String safe(String name) {
        String s = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.isEmpty() || s.chars().allMatch(c -> c == '.') ? "_" : s;
    }

    /** {@code --out DIR}: used as given; it must be empty or not exist, so that no earlier result is mixed in. */
    public static Path explicit(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--out " + dir + " is not empty; give a new or empty directory");
                }
            }
            return dir;
        }
        if (Files.exists(dir)) {
            throw new IllegalArgumentException("--out " + dir + " is a file, not a directory");
        }
        return Files.createDirectories(dir);
    }
}
