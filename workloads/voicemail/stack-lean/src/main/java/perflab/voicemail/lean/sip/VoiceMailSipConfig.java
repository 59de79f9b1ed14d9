package perflab.voicemail.lean.sip;

import java.net.InetSocketAddress;
import java.util.Objects;
import perflab.voicemail.sip.TransactionTimers;

/**
 * The SIP side's settings: where the SUT listens and the three SIPp peers' addresses (the SUT's {@code --phone},
 * {@code --line}, {@code --notifier}), the RFC timers, the pool that runs the users' work, and the outbound proxy
 * every request outside a dialog goes through (null: none, each goes to its peer).
 */
public record VoiceMailSipConfig(String host, int port, InetSocketAddress phone, InetSocketAddress line,
                                 InetSocketAddress notifier, TransactionTimers timers, int workers,
                                 InetSocketAddress outboundProxy) {
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

    public VoiceMailSipConfig withTimers(TransactionTimers newTimers) {
        return new VoiceMailSipConfig(host, port, phone, line, notifier, newTimers, workers, outboundProxy);
    }

    /** The SIP side straight to its peers, no outbound proxy. */
    public VoiceMailSipConfig(String host, int port, InetSocketAddress phone, InetSocketAddress line,
                              InetSocketAddress notifier, TransactionTimers timers, int workers) {
        this(host, port, phone, line, notifier, timers, workers, null);
    }

    /** Where a request outside a dialog for {@code peer} is sent: the outbound proxy, or the peer itself. */
    public InetSocketAddress nextHop(InetSocketAddress peer) {
        return outboundProxy != null ? outboundProxy : peer;
    }
}
