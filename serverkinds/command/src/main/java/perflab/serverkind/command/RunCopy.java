package perflab.serverkind.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * A run's own copy of a server's home: its directories made anew (what the server writes there, logs, work files,
 * deployments, lands in the run, never in the home), each of its files a symbolic link to the home's (a
 * distribution of hundreds of megabytes costs a run milliseconds), except the files the run fills in, which the run
 * writes whole. The home itself is only read.
 */
final class RunCopy {
    private RunCopy() {
    }

    /**
     * Lays {@code home} out in {@code copy} (which must not exist), leaving out {@code written}, the relative paths
     * the run writes itself.
     */
    static void make(Path home, Path copy, Set<Path> written) throws IOException {
        if (Files.exists(copy)) {
            throw new IOException(copy + " exists already: a run's copy of a home is made once");
        }
        Path from = home.toRealPath();
        try {
            Files.walkFileTree(from, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    Files.createDirectories(copy.resolve(from.relativize(dir).toString()));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Path relative = from.relativize(file);
                    if (!written.contains(Path.of(relative.toString()))) {
                        Path target = attrs.isSymbolicLink() ? Files.readSymbolicLink(file) : file;
                        Files.createSymbolicLink(copy.resolve(relative.toString()), target);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
