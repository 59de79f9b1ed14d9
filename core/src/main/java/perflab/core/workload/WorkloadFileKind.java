package perflab.core.workload;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A kind of workload a user declares in a file rather than writes in Java (a scenario file: the user's own
 * traffic). Registered through {@link java.util.ServiceLoader} like a workload (one line in
 * META-INF/services/perflab.core.workload.WorkloadFileKind); {@link Workloads#named} asks each kind whether a
 * file given in place of a workload's name is one of its files.
 */
public interface WorkloadFileKind {
    /** The kind's name ("scenario"), also the first key of its files. */
    String name();

    /** Whether {@code text}, a file's whole content, is a file of this kind (cheap: its first key, not a parse). */
    boolean declares(String text);

    /**
     * The workload {@code file} declares, checked from end to end; IllegalArgumentException of one line naming the
     * file, the line, the column and the key of a mistake. Its {@link Workload#name()} is {@code shown}, so that
     * anything that finds a workload by its name (an agent, a repeated run) finds the file again.
     *
     * @param shown the file as the user gave it
     */
    Workload read(Path file, String shown) throws IOException;

    /** The ways it makes its files from other ones (a recording), each a CLI command under the kind's name. */
    default java.util.List<FileConversion> conversions() {
        return java.util.List.of();
    }
}
