package perflab.voicemail.sip;

import java.util.List;

/** A received SIP message, read-only and safe to keep: every value was copied out of the datagram when it came. */
public interface SipMessage {
    /** The first value of a header (case-insensitive full name; compact forms were expanded), or null. */
    String header(String name);

    /** Every value of a header, in order; empty when absent. */
    List<String> headers(String name);

    /** The body, never null (empty when none). */
    byte[] body();

    /** The Content-Type, null when there is no body. */
    String contentType();

    String callId();

    /** The From header's tag. */
    String fromTag();

    /** The To header's tag, null when the request is outside any dialog. */
    String toTag();

    long cseq();

    String cseqMethod();

    /** {@link System#nanoTime} when the stack read the datagram that carried it; 0 when unknown. */
    default long receivedNanos() {
        return 0;
    }
}
