package perflab.voicemail.sip;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * How a {@link SipStack} listens and behaves.
 *
 * @param host           the address bound and written in Via and Contact (a numeric address: no DNS on the hot path)
 * @param port           UDP port, 0 for any
 * @param timers         RFC 3261's T1, T2, T4 and what follows from them
 * @param maxDatagram    the read buffer: a longer datagram is dropped as {@code oversized}, never half-read
 * @param allowedMethods requests this user agent serves; a known other method gets 405 with Allow, an unknown 501
 * @param callbacks      pool for requests outside any dialog (each Call-ID serialised on it) and for dialogs the
 *                       peer created
 * @param handler        requests outside any dialog, and in-dialog requests of dialogs with no handler of their own
 * @param userAgent      the User-Agent and Server header value, null for none
 */
public record SipStackConfig(String host, int port, TransactionTimers timers, int maxDatagram,
                             Set<String> allowedMethods, Executor callbacks, RequestHandler handler, String userAgent) {
    public SipStackConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(timers, "timers");
        Objects.requireNonNull(callbacks, "callbacks");
        Objects.requireNonNull(handler, "handler");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port);
        }
        if (maxDatagram < 1024 || maxDatagram > 65507) {
            throw new IllegalArgumentException("maxDatagram " + maxDatagram + " is not in 1024..65507");
        }
        allowedMethods = Set.copyOf(allowedMethods);
    }

    /** The defaults (RFC timers, 16 KiB datagrams) for a user agent on {@code host:port}. */
    public static SipStackConfig of(String host, int port, Set<String> allowedMethods, Executor callbacks,
                                    RequestHandler handler) {
        return new SipStackConfig(host, port, TransactionTimers.RFC3261, 16 * 1024, allowedMethods, callbacks,
                handler, "perflab-voicemail");
    }

    public SipStackConfig withTimers(TransactionTimers newTimers) {
        return new SipStackConfig(host, port, newTimers, maxDatagram, allowedMethods, callbacks, handler, userAgent);
    }

    public SipStackConfig withMaxDatagram(int bytes) {
        return new SipStackConfig(host, port, timers, bytes, allowedMethods, callbacks, handler, userAgent);
    }
}
