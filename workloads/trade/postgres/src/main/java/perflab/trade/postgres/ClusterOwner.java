package perflab.trade.postgres;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The user the cluster's files and programs belong to. PostgreSQL refuses to run as root, so when perflab runs as
 * root the cluster is the {@code postgres} user's (Debian's package creates it) and its programs run through
 * {@code setpriv}, which changes user and exec's without staying in between (no PAM session, no extra process):
 * {@code postgres} is then this JVM's direct child. Otherwise everything is this user's.
 *
 * <p>The server is also started with {@code setpriv --pdeathsig SIGINT}: if this companion dies without stopping
 * it (SIGKILL), the kernel sends the postmaster SIGINT, PostgreSQL's fast shutdown, so no orphan keeps running.
 * The signal is tied to the thread that started the process, so the server is started from the companion's main
 * thread, which lives until the JVM ends.
 */
final class ClusterOwner {
    static final String POSTGRES_USER = "postgres";
    private static final String SETPRIV = "/usr/bin/setpriv";

    private final String user;
    private final boolean switchUser;

    private ClusterOwner(String user, boolean switchUser) {
        this.user = user;
        this.switchUser = switchUser;
    }

    /** The postgres user when this process is root, else this user; one-line reason when that cannot work. */
    static ClusterOwner detect() {
        if (!Files.isExecutable(Path.of(SETPRIV))) {
            throw new IllegalStateException(SETPRIV + " is missing (Debian package util-linux): perflab needs it to "
                    + "tie PostgreSQL's life to its own");
        }
        if (!isRoot()) {
            return new ClusterOwner(System.getProperty("user.name"), false);
        }
        try {
            lookup().lookupPrincipalByName(POSTGRES_USER);
        } catch (UserPrincipalNotFoundException e) {
            throw new IllegalStateException("perflab runs as root, and PostgreSQL refuses root: it needs the user "
                    + POSTGRES_USER + ", which does not exist; " + PostgresInstall.PACKAGE_HINT + " (it creates the user), "
                    + "or run perflab as another user");
        } catch (IOException e) {
            throw new IllegalStateException("cannot look up the user " + POSTGRES_USER + ": " + e.getMessage());
        }
        return new ClusterOwner(POSTGRES_USER, true);
    }

    /** Whether this process runs as root: /proc/self belongs to the process's effective user. */
    static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    String user() {
        return user;
    }

    boolean switchesUser() {
        return switchUser;
    }

    /** {@code command} as the owner runs it. */
    List<String> run(List<String> command) {
        List<String> full = new ArrayList<>();
        if (switchUser) {
            full.addAll(List.of(SETPRIV, "--reuid=" + user, "--regid=" + user, "--init-groups", "--"));
        }
        full.addAll(command);
        return full;
    }

    /** {@code command} as the owner runs it, sent SIGINT by the kernel if the thread starting it ends first. */
    List<String> runTiedToThisThread(List<String> command) {
        List<String> full = new ArrayList<>(List.of(SETPRIV));
        if (switchUser) {
            // one setpriv: it sets the parent-death signal after changing user (a change of user clears it)
            full.addAll(List.of("--reuid=" + user, "--regid=" + user, "--init-groups"));
        }
        full.addAll(List.of("--pdeathsig", "SIGINT", "--"));
        full.addAll(command);
        return full;
    }

    /** Gives {@code path} (a directory this process created) to the owner. */
    void own(Path path) throws IOException {
        if (!switchUser) {
            return;
        }
        UserPrincipalLookupService users = lookup();
        UserPrincipal owner = users.lookupPrincipalByName(user);
        GroupPrincipal group = users.lookupPrincipalByGroupName(user);
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        view.setOwner(owner);
        view.setGroup(group);
    }

    /**
     * Fails in one line unless the owner may create files in {@code dir}: as root the postgres user must be able to
     * pass through every directory above it (root's home, mode 0700, is not such a place).
     */
    void checkCanWriteIn(Path dir, String hint) {
        if (!switchUser) {
            return;
        }
        try {
            Commands.run(run(List.of("test", "-w", dir.toString(), "-a", "-x", dir.toString())), Duration.ofSeconds(10),
                    "test");
        } catch (IllegalStateException e) {
            throw new IllegalStateException("the user " + user + " cannot write in " + dir + " (a directory above it is "
                    + "closed to other users?): " + hint);
        }
    }

    private static UserPrincipalLookupService lookup() {
        return FileSystems.getDefault().getUserPrincipalLookupService();
    }
}
