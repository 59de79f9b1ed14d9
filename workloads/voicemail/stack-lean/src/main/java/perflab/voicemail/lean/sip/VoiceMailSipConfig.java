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

    public VoiceMailSipConfig withTimers(TransactionTimers newTimers) {
        return new VoiceMailSipConfig(host, port, phone, line, notifier, newTimers, workers);
    }
}
