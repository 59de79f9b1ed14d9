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
                + "'; known workloads: " + String.join(", ", known) + fileKindsHint());
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
                throw new IllegalArgumentException("no such workload file: " + shown);
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(shown + ": over " + MAX_FILE_BYTES / 1024 / 1024
                        + " MB; a workload file is YAML a person writes (data goes in a file beside it)");
            }
            WorkloadFileKind kind = kindOf(read(file));
            if (kind == null) {
                throw new IllegalArgumentException(shown + " declares no workload: "
                        + fileKinds().stream().map(k -> "a " + k.name() + " file begins with " + k.name() + ": NAME")
                        .reduce((a, b) -> a + ", " + b).orElse("no kind of workload file is installed")
                        + "; a server file is given with --server");
            }
            return kind.read(file, shown);
        } catch (IOException e) {
            throw new IllegalArgumentException(shown + ": cannot read it: " + e.getMessage());
        }
    }

    /** ", or a scenario file (FILE.yaml)": the kinds of workload files installed. */
    private static String fileKindsHint() {
        List<String> kinds = fileKinds().stream().map(WorkloadFileKind::name).toList();
        return kinds.isEmpty() ? "" : ", or a " + String.join(" or ", kinds) + " file (FILE.yaml)";
    }

    private static final long MAX_FILE_BYTES = 4L * 1024 * 1024;

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** The kinds of workload files registered (scenario files, ...), by name. */
    public static List<WorkloadFileKind> fileKinds() {
        return Plugins.all(WorkloadFileKind.class, WorkloadFileKind::name);
    }

    private static WorkloadFileKind kindOf(String text) {
        for (WorkloadFileKind kind : fileKinds()) {
            if (kind.declares(text)) {
                return kind;
            }
        }
        return null;
    }
}
