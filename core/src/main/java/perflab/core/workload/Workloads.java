package perflab.core.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import perflab.core.plugin.Plugins;

import java.util.List;

/** The workloads on the classpath, found through ServiceLoader. */
public final class Workloads {
    private Workloads() {
    }

    public static List<Workload> all() {
        return Plugins.all(Workload.class, Workload::name);
    }

    /**
     * The workload of that name, or the one a file declares when {@code name} is a path ending in .yaml or .yml (a
     * scenario file); IllegalArgumentException of one line otherwise.
     */
    public static Workload named(String name) {
        if (isFileName(name)) {
            return fromFile(name);
        }
        return Plugins.named(Workload.class, Workload::name, name, (unknown, known) -> "unknown workload '" + unknown
                + "'; known workloads: " + String.join(", ", known) + ", or a scenario file (FILE.yaml)");
    }

    /** Whether {@code file} is a workload file (a scenario file) rather than, say, a server file. */
    public static boolean isWorkloadFile(Path file) {
        try {
            return Files.isRegularFile(file) && Files.size(file) <= MAX_FILE_BYTES && kindOf(read(file)) != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** A workload's name never ends in .yaml: such a name is a file's. */
    public static boolean isFileName(String name) {
        return name != null && name.matches(".*\\.ya?ml");
    }

    private static Workload fromFile(String shown) {
        Path file = Path.of(shown);
        try {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("no such scenario file: " + shown);
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(shown + ": over " + MAX_FILE_BYTES / 1024 / 1024
                        + " MB; a scenario file is YAML a person writes (data goes in a CSV file beside it)");
            }
            WorkloadFileKind kind = kindOf(read(file));
            if (kind == null) {
                throw new IllegalArgumentException(shown + " declares no workload: a scenario file begins with "
                        + "scenario: NAME (see docs/scenarios.md); a server file is given with --server");
            }
            return kind.read(file, shown);
        } catch (IOException e) {
            throw new IllegalArgumentException(shown + ": cannot read it: " + e.getMessage());
        }
    }

    private static final long MAX_FILE_BYTES = 4L * 1024 * 1024;

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static WorkloadFileKind kindOf(String text) {
        for (WorkloadFileKind kind : Plugins.all(WorkloadFileKind.class, WorkloadFileKind::name)) {
            if (kind.declares(text)) {
                return kind;
            }
        }
        return null;
    }
}
