package perflab.agents;

import perflab.core.workload.Workload;
import perflab.core.workload.Workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A workload declared in a file (a scenario) travels with the plan: the controller sends the file and the files it
 * reads (its data and body files) by their paths relative to the file's folder, and each agent writes them into a
 * folder of its own and reads the workload from there, so that an agent on another machine needs nothing at the
 * same path. They are text (YAML, CSV, XML bodies), at most {@link #MAX_BYTES} together.
 */
final class ShippedFiles {
    /** Under gRPC's 64 MB message limit with room for JSON's escapes. */
    static final long MAX_BYTES = 40L << 20;

    private ShippedFiles() {
    }

    /** The files of {@code workload} by relative path, or none for a workload written in Java. */
    static Map<String, String> of(String workload) throws IOException {
        if (!Workloads.isFileName(workload)) {
            return Map.of();
        }
        Workload w = Workloads.named(workload);
        Path base = Path.of(workload).toAbsolutePath().normalize().getParent();
        Map<String, String> files = new LinkedHashMap<>();
        long total = 0;
        for (Path f : w.files()) {
            total += Files.size(f);
            if (total > MAX_BYTES) {
                throw new IllegalArgumentException(workload + ": its files are over " + (MAX_BYTES >> 20) + " MB, more "
                        + "than perflab sends its agents; use fewer rows of data");
            }
            files.put(base.relativize(f).toString().replace(java.io.File.separatorChar, '/'),
                    Files.readString(f, StandardCharsets.UTF_8));
        }
        return files;
    }

    /**
     * Writes {@code files} under {@code root} as they lay around the workload's file, and returns the path to give
     * {@link Workloads#named}: a file that reaches up from the workload's folder ({@code ../data/users.csv}) gets a
     * folder above it, within root; a path that would leave root is refused.
     */
    static Path unpack(Map<String, String> files, String workload, Path root) throws IOException {
        int depth = 0;
        for (String rel : files.keySet()) {
            int up = 0;
            for (String part : rel.split("/")) {
                if (!part.equals("..")) {
                    break;
                }
                up++;
            }
            depth = Math.max(depth, up);
        }
        Path dir = root;
        for (int i = 0; i < depth; i++) {
            dir = dir.resolve("up" + i);
        }
        Path normalRoot = root.toAbsolutePath().normalize();
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path target = dir.resolve(e.getKey()).toAbsolutePath().normalize();
            if (!target.startsWith(normalRoot) || target.equals(normalRoot)) {
                throw new IllegalArgumentException("the controller sent a file outside the agent's folder: " + e.getKey());
            }
            Files.createDirectories(target.getParent());
            Files.writeString(target, e.getValue(), StandardCharsets.UTF_8);
        }
        return dir.resolve(Path.of(workload).getFileName().toString());
    }

    /** Removes what {@link #unpack} wrote. */
    static void delete(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is no failure of the run
        }
    }
}
