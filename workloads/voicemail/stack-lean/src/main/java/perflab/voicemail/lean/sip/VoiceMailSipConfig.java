package perflab.voicemail.lean.sip;

import java.net.InetSocketAddress;
import java.util.Objects;
import perflab.voicemail.sip.TransactionTimers;

/**
 * The SIP side's settings: where the SUT listens and the three SIPp peers' addresses (the SUT's {@code --phone},
 * {@code --line}, {@code --notifier}), the RFC timers, and the pool that runs the users' work.
 */
public record VoiceMailSipConfig(String host, int port, InetSocketAddress phone, InetSocketAddress line,
                                 InetSocketAddress notifier, TransactionTimers timers, int workers) {
    public VoiceMailSipConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(phone, "phone");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(notifier, "notifier");
        Objects.requireNonNull(timers, "timers");
        if (workers < 1) {
            throw new IllegalArgumentException("workers " + workers);
        }
    }

    /** The RFC's timers and a worker per CPU. */
    public static VoiceMailSipConfig of(String host, int port, String phone, String line, String notifier) {
        return new VoiceMailSipConfig(host, port, peer(phone), peer(line), peer(notifier), TransactionTimers.RFC3261,
                Runtime.getRuntime().availableProcessors());
    }

    public VoiceMailSipConfig withTimers(TransactionTimers newTimers) {
        return new VoiceMailSipConfig(host, port, phone, line, notifier, newTimers, workers);
    }

    /** {@code host:port} as the SUT's settings give it (a numeric address: no DNS). */
    public static InetSocketAddress peer(String hostPort) {
        int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("a peer is host:port, not " + hostPort);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a peer is host:port, not " + hostPort);
        }
        return new InetSocketAddress(hostPort.substring(0, colon), port);
    }
}
