package perflab.voicemail.lean;

import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;
import perflab.voicemail.lean.replica.ReplicationMode;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;

/**
 * The voicemail server's settings as perflab passes them ({@code --name value}): perflab's common server settings,
 * where the SIPp peers listen, and the admission limits that keep an overloaded server's admitted calls fast.
 *
 * @param sipPort    the UDP port for SIP, 0 for any (announced as {@code sip=PORT})
 * @param maxSetups  clicks being set up at once; more are refused with 503 (0: no limit)
 * @param maxCalls   users in a call at once; more are refused with 503 (0: no limit)
 * @param outboundProxy where every request outside a dialog goes ({@code --outbound-proxy host:port}, a proxy in
 *                   front of several instances, RFC 3261 section 8.1.2), its Request-URI still the peer's; null:
 *                   straight to the peer
 * @param replication when and to whom the users' sessions are copied ({@link Replication})
 */
public record VoicemailSettings(ServerSettings server, int sipPort, InetSocketAddress phone, InetSocketAddress line,
                                InetSocketAddress notifier, int maxSetups, int maxCalls, InetSocketAddress outboundProxy,
                                Replication replication) {
    /**
     * The users' sessions copied to a partner instance ({@code --replication MODE --replica-pair NAME --replica-port P
     * --partner-replica-port Q}): the pair's grid listens on loopback port {@code port}, the partner's on
     * {@code partnerPort}.
     */
    public record Replication(ReplicationMode mode, String pair, int port, int partnerPort) {
        public static final Replication OFF = new Replication(ReplicationMode.OFF, null, 0, 0);

        static Replication from(SutArgs args) {
            ReplicationMode mode = ReplicationMode.parse(args.get("replication", ReplicationMode.OFF.label()));
            if (mode == ReplicationMode.OFF) {
                return OFF;
            }
            String pair = args.get("replica-pair", null);
            int port = args.getInt("replica-port", 0);
            int partner = args.getInt("partner-replica-port", 0);
            if (pair == null || port == 0 || partner == 0) {
                throw new IllegalArgumentException("--replication " + mode.label() + " needs --replica-pair, "
                        + "--replica-port and --partner-replica-port: the pair this instance belongs to and where the "
                        + "two members' grids listen");
            }
            return new Replication(mode, pair, port, partner);
        }
    }

    public static final Set<String> NAMES;
    /** Clicks in set-up at once by default: far above what a healthy server has open (a few ms each). */
    static final int DEFAULT_MAX_SETUPS = 500;

    static {
        Set<String> names = new HashSet<>(ServerSettings.NAMES);
        names.addAll(Set.of("sip-port", "phone", "line", "notifier", "max-setups", "max-calls", "outbound-proxy",
                "replication", "replica-pair", "replica-port", "partner-replica-port"));
        NAMES = Set.copyOf(names);
    }

    public VoicemailSettings {
        if (sipPort < 0 || sipPort > 65535) {
            throw new IllegalArgumentException("--sip-port is 0..65535, got " + sipPort);
        }
        if (maxSetups < 0 || maxCalls < 0) {
            throw new IllegalArgumentException("--max-setups and --max-calls are 0 (no limit) or more");
        }
    }

    public static VoicemailSettings from(SutArgs args) {
        return new VoicemailSettings(ServerSettings.from(args), args.getInt("sip-port", 0), peer(args, "phone"),
                peer(args, "line"), peer(args, "notifier"), args.getInt("max-setups", DEFAULT_MAX_SETUPS),
                args.getInt("max-calls", 0), args.get("outbound-proxy", null) == null ? null : peer(args, "outbound-proxy"),
                Replication.from(args));
    }

    /** A peer's {@code host:port}: an IP literal on loopback or the test network, as perflab's SIPp loads are. */
    static InetSocketAddress peer(SutArgs args, String name) {
        String value = args.get(name, null);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " host:port is needed: where the SIP " + name + " listens");
        }
        int colon = value.lastIndexOf(':');
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(value.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        String host = colon > 0 ? value.substring(0, colon) : "";
        if (port < 1 || port > 65535 || !host.matches("[0-9.]+|\\[[0-9a-fA-F:]+]")) {
            throw new IllegalArgumentException("--" + name + ": '" + value + "' is not ip:port");
        }
        return new InetSocketAddress(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port);
    }
}
