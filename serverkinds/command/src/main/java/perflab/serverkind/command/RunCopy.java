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
        Path realCopy = copy.toAbsolutePath().getParent().toRealPath().resolve(copy.getFileName());
        if (realCopy.startsWith(from)) {
            // the copy would copy itself, and every run kept there before it
            throw new IOException("the run directory " + copy.getParent() + " is inside the home " + from
                    + "; give --out a directory outside it");
        }
        try {
            // links followed: a directory the home links to (Debian's conf -> /etc/...) is made anew too, so that
            // nothing the run writes goes through a link into the home; a loop of links is refused
            Files.walkFileTree(from, java.util.EnumSet.of(java.nio.file.FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                    new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    Files.createDirectories(copy.resolve(from.relativize(dir).toString()));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Path relative = from.relativize(file);
                    if (!written.contains(Path.of(relative.toString()))) {
                        // to the file itself, wherever links lead: a relative link would not resolve from the copy
                        Files.createSymbolicLink(copy.resolve(relative.toString()), file.toRealPath());
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof java.nio.file.FileSystemLoopException) {
                        throw new IOException("the home links in a loop at " + file);
                    }
                    if (Files.isSymbolicLink(file) && !Files.exists(file)) {
                        return FileVisitResult.CONTINUE; // a link to nothing: there is nothing to read through it
                    }
                    throw e;
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
