package perflab.serverkind.command;

import perflab.core.server.ServerFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where a server's files are: a directory the user names, or a distribution from Maven's local repository (a
 * product's zip, {@code org.apache.tomcat:tomcat:11.0.24:zip}) unpacked once into perflab's cache. perflab never
 * downloads at run time: a distribution not in the local repository is named with the command that fetches it.
 */
final class ServerHome {
    /** The Maven local repository: {@code PERFLAB_MAVEN_REPO}, else Maven's default. */
    static Path mavenRepository() {
        String given = System.getenv("PERFLAB_MAVEN_REPO");
        return given != null && !given.isBlank() ? Path.of(given)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** Where unpacked distributions are kept: {@code $XDG_CACHE_HOME/perflab}, else ~/.cache/perflab. */
    static Path cache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg, "perflab")
                : Path.of(System.getProperty("user.home"), ".cache", "perflab");
    }

    private ServerHome() {
    }

    /** The home's directory; IllegalArgumentException in one line naming the server file when there is none. */
    static Path resolve(ServerFile file, Path repository, Path cache) {
        ServerFile.Home home = file.home();
        if (home.directory() != null) {
            Path dir = Path.of(home.directory());
            if (!dir.isAbsolute() && file.source() != null && Path.of(file.source()).getParent() != null) {
                dir = Path.of(file.source()).getParent().resolve(dir); // relative to the server file, as a user reads it
            }
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException(file.source() + ": home: no such directory: " + dir);
            }
            return dir.toAbsolutePath().normalize();
        }
        return unpacked(file.source(), home.maven(), repository, cache);
    }

    /** The distribution {@code coordinate} unpacked in {@code cache}, unpacking it the first time. */
    static Path unpacked(String source, String coordinate, Path repository, Path cache) {
        String[] c = coordinate.split(":");
        String type = c.length > 3 ? c[3] : "zip";
        if (c.length < 3 || c.length > 4 || !type.equals("zip")
                || !java.util.Arrays.stream(c).allMatch(part -> part.matches("[A-Za-z0-9_][A-Za-z0-9_.-]*"))
                || c[0].contains("..")) {
            // each part a name, so that none leads out of the repository or the cache
            throw new IllegalArgumentException(source + ": home: maven: '" + coordinate + "' is not GROUP:ARTIFACT:VERSION[:zip]");
        }
        Path zip = repository.resolve(c[0].replace('.', '/')).resolve(c[1]).resolve(c[2])
                .resolve(c[1] + "-" + c[2] + ".zip");
        if (!Files.isRegularFile(zip)) {
            throw new IllegalArgumentException(source + ": home: " + coordinate + " is not in Maven's local repository ("
                    + zip + "); perflab downloads nothing while it runs: fetch it once with mvn "
                    + "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get -Dartifact=" + c[0] + ":" + c[1] + ":"
                    + c[2] + ":zip");
        }
        Path target = cache.resolve("homes").resolve(c[0]).resolve(c[1]).resolve(c[2]);
        try {
            if (!Files.isDirectory(target)) {
                // once per distribution, and long for a large one (Liberty's 350 MB): said, so a pause is not a hang
                System.out.printf("perflab: unpacking %s (%d MB) into %s, once%n", coordinate,
                        Files.size(zip) / (1024 * 1024), target);
                unzip(zip, target);
            }
            return single(target);
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": home: cannot unpack " + zip + " into " + target + ": " + e.getMessage());
        }
    }

    /** A distribution's one top directory ({@code apache-tomcat-11.0.24/}) is its home; else the whole. */
    private static Path single(Path dir) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            s.forEach(entries::add);
        }
        return entries.size() == 1 && Files.isDirectory(entries.get(0)) ? entries.get(0) : dir;
    }

    /**
     * Unpacks into a directory beside {@code target}, then renames it: two perflabs unpacking at once, or one killed
     * half-way, never leave a half home where the next run would take it for whole.
     */
    private static void unzip(Path zip, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        Path partial = Files.createTempDirectory(target.getParent(), target.getFileName() + ".partial-");
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (ZipEntry e : java.util.Collections.list(z.entries())) {
                Path out = partial.resolve(e.getName()).normalize();
                if (!out.startsWith(partial)) {
                    throw new IOException("entry " + e.getName() + " would leave the directory"); // a "zip slip"
                }
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                    continue;
                }
                Files.createDirectories(out.getParent());
                try (InputStream in = z.getInputStream(e)) {
                    Files.copy(in, out);
                }
                if (executable(e, out)) {
                    Set<PosixFilePermission> p = EnumSet.copyOf(Files.getPosixFilePermissions(out));
                    p.addAll(EnumSet.of(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE,
                            PosixFilePermission.OTHERS_EXECUTE));
                    Files.setPosixFilePermissions(out, p);
                }
            }
        } catch (IOException | RuntimeException e) {
            deleteTree(partial); // nothing half-unpacked left in the cache
            throw e;
        }
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
            deleteTree(partial); // another perflab got there first: its copy is as good
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot rename " + partial + " into place: " + e.getMessage());
        }
    }

    /**
     * Whether an entry is a program: its Unix mode when the zip kept one (the upper half of its external
     * attributes, which java.util.zip does not expose, so read as a script's name), a {@code .sh} or a {@code bin/}
     * file without a Windows extension.
     */
    private static boolean executable(ZipEntry e, Path out) {
        String name = e.getName();
        String file = out.getFileName().toString();
        return name.endsWith(".sh") || (name.contains("/bin/") || name.startsWith("bin/")) && !file.contains(".")
                || file.endsWith(".sh");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
