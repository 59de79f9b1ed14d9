package perflab.core.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * A way a {@link WorkloadFileKind} makes one of its files from something else (a browser's recording made a scenario
 * file). The CLI offers each as {@code perflab KIND NAME INPUT [-o FILE] [--name NAME] [--SWITCH ...]}, without naming
 * the kind or the conversion itself.
 */
public interface FileConversion {
    /** The command's name under its kind's ("from-har"). */
    String name();

    /** What it does, for --help: the first line a summary, the others details and an example. */
    String[] description();

    /** The input's label in the usage ("FILE.har"). */
    String inputLabel();

    /** The on-off switches it takes, by name without the dashes ("no-think"), each with its help. */
    Map<String, String> switches();

    /**
     * The file made from {@code input}, as text; IllegalArgumentException of one line for an input it cannot read.
     *
     * @param name     the made file's own name (its first key's value): {@code --name}, or the input's file name
     * @param switches the switches given
     */
    String convert(Path input, String name, Set<String> switches) throws IOException;
}
