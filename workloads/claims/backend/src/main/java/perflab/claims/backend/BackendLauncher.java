package perflab.claims.backend;

import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutBootstrap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the ClaimServices back end a gateway mediates for, as its {@link GatewaySettings} say: in its own JVM
 * ({@link BackendProcess}), in the gateway's JVM, or not at all (an external URL). Prints
 * {@code PERFLAB-BACKEND mode=... pid=... port=...} before the gateway's READY, so the back end can be found
 * and monitored. Every gateway stack starts its back end here, so a lean and a camel run mediate for the same one.
 */
public final class BackendLauncher {
    public static final String BACKEND_LINE = SutBootstrap.BACKEND;

    /** A started back end: its base URL (http://host:port) and how to stop it (a no-op for an external one). */
    public record StartedBackend(String url, AutoCloseable stopper) {
    }

    /** Starts a gateway in front of a started back end; what it starts goes into {@code started}, first to stop first. */
    @FunctionalInterface
    public interface GatewayStarter {
        StartedServer start(GatewaySettings settings, String backendUrl, List<AutoCloseable> started) throws Exception;
    }

    private BackendLauncher() {
    }

    /**
     * The back end, then the gateway in front of it; if the gateway fails to start, whatever was started is
     * stopped again (the back end included) before the failure goes on.
     */
    public static StartedServer startWithGateway(GatewaySettings settings, GatewayStarter gateway) throws Exception {
        List<AutoCloseable> started = new ArrayList<>();
        try {
            StartedBackend backend = start(settings);
            started.add(backend.stopper());
            return gateway.start(settings, backend.url(), started);
        } catch (Exception | Error e) {
            stopAll(started);
            throw e;
        }
    }

    /** Stops everything in order; a failure to stop one is reported and does not keep the others running. */
    public static void stopAll(List<AutoCloseable> started) {
        for (AutoCloseable c : started) {
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("stopping the gateway: " + e);
            }
        }
    }

    public static StartedBackend start(GatewaySettings settings) throws Exception {
        switch (settings.backend()) {
            case EXTERNAL:
                System.out.println(BACKEND_LINE + " mode=external url=" + settings.backendUrl());
                return new StartedBackend(settings.backendUrl(), () -> { });
            case SAME_JVM: {
                ClaimServicesBackend backend = ClaimServicesBackend.start(new ServerSettings("127.0.0.1", 0, 200,
                        ServerSettings.DEFAULT_MAX_REQUEST_BYTES, 0, false, "access.log", false, ServerSettings.Http.HTTP1));
                System.out.println(BACKEND_LINE + " mode=same-jvm pid=" + ProcessHandle.current().pid() + " port=" + backend.port());
                return new StartedBackend("http://127.0.0.1:" + backend.port(), backend::stop);
            }
            default: {
                BackendProcess backend = BackendProcess.start(classpath(settings), settings.backendJvm(), List.of());
                System.out.println(BACKEND_LINE + " mode=separate-jvm pid=" + backend.pid() + " port=" + backend.port());
                return new StartedBackend("http://127.0.0.1:" + backend.port(), backend);
            }
        }
    }

    /**
     * The back end's own runtime classpath (workloads/claims/backend/target/stack/, built by the sut-stack
     * profile) found from where this class was loaded (a gateway stack's target/stack/ or target/classes);
     * failing that, the gateway's classpath, which holds the back end too.
     */
    static String classpath(GatewaySettings settings) {
        if (settings.backendClasspath() != null) {
            return settings.backendClasspath();
        }
        try {
            Path here = Path.of(BackendLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path dir = here; dir != null; dir = dir.getParent()) {
                Path stack = dir.resolve("backend/target/stack");
                if (Files.isDirectory(stack)) {
                    return stack.toString();
                }
                if (dir.getFileName() != null && dir.getFileName().toString().equals("workloads")) {
                    break;
                }
            }
        } catch (Exception ignored) {
            // fall back below
        }
        return System.getProperty("java.class.path");
    }
}
