package perflab.claims.backend;

import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A claims gateway's own settings, beside the {@link ServerSettings} every stack takes; every gateway stack
 * (lean, camel) reads them the same way, so one flag means one thing whichever stack runs.
 *
 * @param backend            where the ClaimServices back end runs: its own JVM, the gateway's, or an external URL
 * @param backendUrl         external back end's base URL (http://host:port), or null
 * @param backendTimeoutMs   a back-end call that takes longer is answered with a Server fault
 * @param backendConnections most pooled, persistent connections to the back end
 * @param backendClasspath   the back end JVM's classpath (separate-jvm), or null to find it beside the gateway
 * @param backendJvm         the back end JVM's flags (separate-jvm)
 */
public record GatewaySettings(ServerSettings server, Backend backend, String backendUrl, int backendTimeoutMs,
                       int backendConnections, String backendClasspath, List<String> backendJvm) {

    public enum Backend { SEPARATE_JVM, SAME_JVM, EXTERNAL }

    public static final Set<String> NAMES;

    /** The back end's JVM flags unless told otherwise: why, in {@link ClaimsContract#DEFAULT_BACKEND_JVM}. */
    public static final String DEFAULT_BACKEND_JVM = ClaimsContract.DEFAULT_BACKEND_JVM;

    static {
        Set<String> names = new HashSet<>(ServerSettings.NAMES);
        names.addAll(List.of("backend", "backend-url", "backend-timeout", "backend-connections", "backend-classpath",
                "backend-jvm"));
        NAMES = Set.copyOf(names);
    }

    public static GatewaySettings from(SutArgs args) {
        ServerSettings server = ServerSettings.from(args);
        String url = args.get("backend-url", null);
        Backend backend = switch (args.get("backend", url != null ? "external" : "separate-jvm").trim().toLowerCase(Locale.ROOT)) {
            case "separate-jvm" -> Backend.SEPARATE_JVM;
            case "same-jvm" -> Backend.SAME_JVM;
            case "external" -> Backend.EXTERNAL;
            default -> throw new IllegalArgumentException("--backend must be separate-jvm or same-jvm, got '"
                    + args.get("backend", "") + "'");
        };
        if (backend == Backend.EXTERNAL && url == null) {
            throw new IllegalArgumentException("--backend external needs --backend-url http://host:port");
        }
        if (backend != Backend.EXTERNAL && url != null) {
            throw new IllegalArgumentException("--backend-url names an external back end; drop --backend " + args.get("backend", ""));
        }
        int timeout = millis(args.get("backend-timeout", "10s"));
        int connections = args.getInt("backend-connections", 256);
        if (connections < 1) {
            throw new IllegalArgumentException("--backend-connections must be at least 1, got " + connections);
        }
        String jvm = args.get("backend-jvm", DEFAULT_BACKEND_JVM);
        return new GatewaySettings(server, backend, url == null ? null : url.replaceAll("/+$", ""), timeout, connections,
                args.get("backend-classpath", null), jvm.isBlank() ? List.of() : List.of(jvm.trim().split("\\s+")));
    }

    /** 500ms, 10s or a plain number of milliseconds. */
    static int millis(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long value;
        try {
            if (t.endsWith("ms")) {
                value = Long.parseLong(t.substring(0, t.length() - 2).trim());
            } else if (t.endsWith("s")) {
                value = Long.parseLong(t.substring(0, t.length() - 1).trim()) * 1000;
            } else {
                value = Long.parseLong(t);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--backend-timeout: '" + text + "' is not a time; use e.g. 500ms, 10s");
        }
        if (value < 1 || value > 600_000) {
            throw new IllegalArgumentException("--backend-timeout must be within 1ms..600s, got '" + text + "'");
        }
        return (int) value;
    }
}
