package perflab.core.traffic;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One request to send: a template and its slots' values. A client has at most one request outstanding, so a
 * session may keep one Request per template and set its values again for every request: stateless traffic then
 * allocates nothing per request. Values are sent as given (already URL- or form-encoded where the slot needs it,
 * see {@link UrlEncoding}); a number is written as decimal digits, into a fixed-width slot zero padded.
 */
public final class Request {
    /** Digits of the largest long, plus one for a sign. */
    public static final int MAX_DIGITS = 20;
    private static final byte[] EMPTY = new byte[0];
    /** {@link #thinkNanos()} when the request leaves the pause to the run's --think-time. */
    public static final long RUN_THINK_TIME = -1;

    private final RequestTemplate template;
    private final long[] numbers;
    /** A slot's bytes; null when the slot holds a number. */
    private final byte[][] bytes;
    private final int idSlot;
    private long thinkNanos = RUN_THINK_TIME;

    public Request(RequestTemplate template) {
        this.template = template;
        int n = template.slots().size();
        this.numbers = new long[n];
        this.bytes = new byte[n][];
        for (int i = 0; i < n; i++) {
            bytes[i] = template.slots().get(i).fixedWidth() ? null : EMPTY;
        }
        this.idSlot = template.slotOrNone(RequestTemplate.ID);
    }

    /** A request with its {@code id} slot set (one-off requests: tests, {@code perflab request}). */
    public static Request of(RequestTemplate template, long id) {
        Request r = new Request(template);
        if (r.idSlot >= 0) {
            r.set(r.idSlot, id);
        }
        return r;
    }

    public RequestTemplate template() {
        return template;
    }

    /** Sets a slot to a number (no allocation). A fixed-width slot takes 0 up to 10^width - 1. */
    public Request set(int slot, long value) {
        int width = template.slots().get(slot).width();
        if (width > 0 && (value < 0 || width < 19 && value >= POWERS[width])) {
            throw new IllegalArgumentException("slot " + template.slots().get(slot).name() + " of " + template.kind()
                    + " holds " + width + " digits; " + value + " does not fit");
        }
        numbers[slot] = value;
        bytes[slot] = null;
        return this;
    }

    /** Sets a slot of variable length to bytes as sent (not copied: do not change them while the request is out). */
    public Request set(int slot, byte[] value) {
        if (template.slots().get(slot).fixedWidth()) {
            throw new IllegalArgumentException("slot " + template.slots().get(slot).name() + " of " + template.kind()
                    + " is a fixed-width number; set it to a number");
        }
        bytes[slot] = value == null ? EMPTY : value;
        return this;
    }

    /** Sets a slot of variable length to text, sent as UTF-8 (allocates). */
    public Request set(int slot, String value) {
        return set(slot, value == null ? EMPTY : value.getBytes(StandardCharsets.UTF_8));
    }

    public Request set(String slot, long value) {
        return set(template.slot(slot), value);
    }

    public Request set(String slot, byte[] value) {
        return set(template.slot(slot), value);
    }

    public Request set(String slot, String value) {
        return set(template.slot(slot), value);
    }

    /** The number in a slot (0 if it holds bytes). */
    public long number(int slot) {
        return bytes[slot] == null ? numbers[slot] : 0;
    }

    /** The bytes in a slot; null when it holds a number. */
    public byte[] bytes(int slot) {
        return bytes[slot];
    }

    /** The value of the {@code id} slot ({@link RequestTemplate#withIdSlot}); 0 if there is none. */
    public long id() {
        return idSlot >= 0 ? number(idSlot) : 0;
    }

    /**
     * Closed model: how long the client pauses after this request's response before it sends its next request,
     * instead of the run's --think-time (a user reading a page). The open model's schedule ignores it.
     */
    public Request thinkTime(Duration pause) {
        if (pause.isNegative()) {
            throw new IllegalArgumentException("think time must not be negative, got " + pause);
        }
        thinkNanos = pause.toNanos();
        return this;
    }

    /** Like {@link #thinkTime(Duration)}, in nanoseconds, without allocating; {@link #RUN_THINK_TIME} for the run's. */
    public Request thinkNanos(long nanos) {
        thinkNanos = nanos < 0 ? RUN_THINK_TIME : nanos;
        return this;
    }

    public long thinkNanos() {
        return thinkNanos;
    }

    /** Length of a slot's value as written. */
    public int valueLength(int slot) {
        byte[] b = bytes[slot];
        if (b != null) {
            return b.length;
        }
        int width = template.slots().get(slot).width();
        return width > 0 ? width : decimalLength(numbers[slot]);
    }

    /**
     * Writes a slot's number as digits into {@code target} from 0 and returns how many; -1 when the slot holds
     * bytes (then write {@link #bytes}).
     */
    public int writeValue(int slot, byte[] target) {
        if (bytes[slot] != null) {
            return -1;
        }
        return writeDecimal(numbers[slot], template.slots().get(slot).width(), target);
    }

    /**
     * Writes {@code value} as decimal digits into {@code target} from 0, zero padded to {@code width} when it is
     * above 0; returns how many bytes.
     */
    public static int writeDecimal(long value, int width, byte[] target) {
        long v = value;
        int n = width > 0 ? width : decimalLength(v);
        int start = 0;
        if (v < 0) {
            target[0] = '-';
            start = 1;
        }
        for (int i = n - 1; i >= start; i--) {
            target[i] = (byte) ('0' + Math.abs(v % 10));
            v /= 10;
        }
        return n;
    }

    private static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    static int decimalLength(long v) {
        int n = v < 0 ? 2 : 1;
        long a = Math.abs(v / 10);
        while (a > 0) {
            n++;
            a /= 10;
        }
        return n;
    }

    /** "kind slot=value ...", for error messages. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(template.kind());
        for (int i = 0; i < numbers.length; i++) {
            sb.append(' ').append(template.slots().get(i).name()).append('=');
            String v = bytes[i] == null ? Long.toString(numbers[i]) : new String(bytes[i], StandardCharsets.UTF_8);
            sb.append(v.length() > 40 ? v.substring(0, 40) + "..." : v);
        }
        return sb.toString();
    }
}
