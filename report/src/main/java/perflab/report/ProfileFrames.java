package perflab.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The hottest frames of a profile in collapsed-stacks form (async-profiler's {@code collapsed} output: one line per
 * stack, frames from the root joined by ';', then a space and the sample count): each frame's self share, the
 * samples in which it was the leaf. What the report and the console show beside the flame graph.
 */
public final class ProfileFrames {
    /** A frame and the share of all samples that ended in it, %. */
    public record Frame(String name, double selfPercent) {
    }

    private ProfileFrames() {
    }

    /** The collapsed stacks of --profile in a run directory ({@code profile-NAME.collapsed}), by process name. */
    public static List<Path> collapsedFiles(Path runDir) {
        if (!Files.isDirectory(runDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(runDir)) {
            return files.filter(f -> f.getFileName().toString().matches("profile-[a-z0-9-]+\\.collapsed")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** "backend" for profile-backend.collapsed. */
    public static String processOf(Path collapsed) {
        String file = collapsed.getFileName().toString();
        return file.substring("profile-".length(), file.lastIndexOf('.'));
    }

    /** The {@code n} frames with most self samples, most first; empty for a file without samples. */
    public static List<Frame> top(Path collapsed, int n) throws IOException {
        Map<String, Long> self = new HashMap<>();
        long total = 0;
        try (Stream<String> lines = Files.lines(collapsed, StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                int space = line.lastIndexOf(' ');
                if (space <= 0) {
                    continue;
                }
                long count;
                try {
                    count = Long.parseLong(line.substring(space + 1).trim());
                } catch (NumberFormatException e) {
                    continue;
                }
                String stack = line.substring(0, space);
                String leaf = stack.substring(stack.lastIndexOf(';') + 1);
                self.merge(leaf, count, Long::sum);
                total += count;
            }
        }
        List<Frame> frames = new ArrayList<>();
        if (total == 0) {
            return frames;
        }
        long all = total;
        self.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n)
                .forEach(e -> frames.add(new Frame(e.getKey(), Math.round(1000.0 * e.getValue() / all) / 10.0)));
        return frames;
    }
}
