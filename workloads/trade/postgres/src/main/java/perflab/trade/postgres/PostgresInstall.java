package perflab.trade.postgres;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PostgreSQL server programs perflab runs, {@code initdb} and {@code postgres}, taken from one directory so that
 * they are of one version: Debian's {@code /usr/lib/postgresql/<major>/bin} (the newest major that has both), else
 * the directory the PATH's {@code postgres} really lives in (symlinks followed, so a {@code /usr/local/bin/postgres}
 * pointing into Debian's tree resolves there), or a directory given explicitly.
 *
 * @param bin     the directory of both programs
 * @param version the server's version ("15.18")
 * @param major   its major version, which fixes the data directory's format (15)
 */
record PostgresInstall(Path bin, String version, int major) {
    static final String PACKAGE_HINT = "install the Debian package postgresql (apt-get install -y postgresql)";
    static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");
    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\) (\\d+)(\\.\\d+)?");

    Path initdb() {
        return bin.resolve("initdb");
    }

    Path postgres() {
        return bin.resolve("postgres");
    }

    /** The installation in {@code given}, or the one found on this machine; one-line reason when there is none. */
    static PostgresInstall find(Path given) {
        Path bin = given != null ? checked(given) : discover(DEBIAN_ROOT, System.getenv("PATH"));
        String version = version(bin);
        return new PostgresInstall(bin, version, major(version));
    }

    /** Whether Debian's PostgreSQL (or one on the PATH) is there: the tests that start a real one ask first. */
    static boolean isInstalled() {
        try {
            discover(DEBIAN_ROOT, System.getenv("PATH"));
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** A bin directory with both programs: Debian's newest major, else the PATH's postgres's real directory. */
    static Path discover(Path debianRoot, String path) {
        List<Path> majors = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(debianRoot, d -> d.getFileName().toString().matches("\\d+"))) {
            dirs.forEach(majors::add);
        } catch (IOException e) {
            // no Debian layout
        }
        majors.sort(Comparator.comparingInt((Path d) -> Integer.parseInt(d.getFileName().toString())).reversed());
        for (Path major : majors) {
            if (hasBoth(major.resolve("bin"))) {
                return major.resolve("bin");
            }
        }
        for (String dir : (path == null ? "" : path).split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path postgres = Path.of(dir, "postgres");
            if (Files.isExecutable(postgres)) {
                try {
                    Path real = postgres.toRealPath().getParent();
                    if (hasBoth(real)) {
                        return real;
                    }
                } catch (IOException e) {
                    // a dangling link: keep looking
                }
            }
        }
        throw new IllegalStateException("PostgreSQL is not installed: no initdb and postgres in " + debianRoot
                + "/<version>/bin or on the PATH; " + PACKAGE_HINT);
    }

    private static Path checked(Path bin) {
        for (String program : List.of("initdb", "postgres")) {
            if (!Files.isExecutable(bin.resolve(program))) {
                throw new IllegalStateException("no PostgreSQL server in " + bin + ": " + program + " is missing; "
                        + PACKAGE_HINT);
            }
        }
        return bin;
    }

    private static boolean hasBoth(Path bin) {
        return Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("postgres"));
    }

    /** "15.18" from {@code postgres --version} ("postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"). */
    private static String version(Path bin) {
        String out = Commands.run(List.of(bin.resolve("postgres").toString(), "--version"), Duration.ofSeconds(20),
                "postgres --version");
        Matcher m = VERSION.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException(bin.resolve("postgres") + " --version said '" + out.trim()
                    + "', not a PostgreSQL version");
        }
        return m.group(1) + (m.group(2) == null ? "" : m.group(2));
    }

    static int major(String version) {
        return Integer.parseInt(version.split("\\.")[0]);
    }
}
