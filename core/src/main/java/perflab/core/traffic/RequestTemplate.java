package perflab.core.traffic;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One kind of request, encoded once: literal byte parts interleaved with named slots, in the path (and query),
 * header values and body. A {@link Request} carries the slots' values; the driver copies the literal parts and
 * writes only the values per request, so the bytes on the wire are built by copying, not by formatting.
 *
 * <p>Slots are written {@code ${name}} (a value of any length: text, bytes or a decimal number) or
 * {@code ${name:N}} (a number written as exactly N digits, zero padded, so that the length never changes). A
 * literal {@code ${} is written {@code $${}. A header whose whole value is one slot is left out of a request in
 * which that slot is empty (a Cookie header before the first cookie). Content-Length is the driver's: computed
 * once when the body's length is fixed, per request when a slot of variable length is in the body.
 *
 * @param kind    a short name for statistics and error messages ("echoComplexTypeDoc", "login")
 * @param method  HTTP method
 * @param path    request target (path and query) as parts
 * @param headers request headers; the driver adds Host, Content-Length and the connection policy's headers itself
 * @param body    the body as parts (empty: no body)
 * @param slots   the slots, in order of first appearance; a slot's index is its position here
 * @param resendable whether the driver may send the request once more, as a browser does, when its kept-alive
 *                connection closes before any answer and its method is idempotent (true unless the traffic says that
 *                this request, though idempotent by its method, changes something on the server)
 */
public record RequestTemplate(String kind, String method, List<Part> path, List<Header> headers, List<Part> body,
                              List<Slot> slots, boolean resendable) {

    /** Width of the id slot of {@link #withIdSlot}: enough for any non-negative int. */
    public static final int ID_WIDTH = 10;
    /** The name of the slot {@link #withIdSlot} puts in the body, read by {@link Request#id()}. */
    public static final String ID = "id";

    /**
     * A named slot. {@code width} > 0: a number of exactly that many digits; 0: a value of any length.
     */
    public record Slot(String name, int width) {
        public boolean fixedWidth() {
            return width > 0;
        }
    }

    /** A literal part ({@code slot} = -1) or a slot reference (the slot's index, {@code literal} null). */
    public record Part(byte[] literal, int slot) {
        public boolean isSlot() {
            return slot >= 0;
        }
    }

    /** A header: its value as parts. {@link #optionalSlot} is the slot whose emptiness leaves the header out, or -1. */
    public record Header(String name, List<Part> value) {
        public Header {
            Objects.requireNonNull(name);
            value = List.copyOf(value);
        }

        /** A fixed header value (no slots). */
        public Header(String name, String value) {
            this(name, List.of(new Part(value.getBytes(StandardCharsets.ISO_8859_1), -1)));
        }

        /** The slot that is the header's whole value, or -1. */
        public int optionalSlot() {
            return value.size() == 1 && value.get(0).isSlot() ? value.get(0).slot() : -1;
        }

        /** The value when it has no slot (the h2c header block, error messages). */
        public String literalValue() {
            StringBuilder sb = new StringBuilder();
            for (Part p : value) {
                if (p.isSlot()) {
                    throw new IllegalStateException("header " + name + " has a slot");
                }
                sb.append(new String(p.literal(), StandardCharsets.ISO_8859_1));
            }
            return sb.toString();
        }
    }

    /** A template the driver may resend when its method allows. */
    public RequestTemplate(String kind, String method, List<Part> path, List<Header> headers, List<Part> body,
                           List<Slot> slots) {
        this(kind, method, path, headers, body, slots, true);
    }

    public RequestTemplate {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(method);
        path = List.copyOf(path);
        headers = List.copyOf(headers);
        body = List.copyOf(body);
        slots = List.copyOf(slots);
    }

    public static Builder builder(String kind, String method) {
        return new Builder(kind, method);
    }

    /** A request whose body has a {@link #ID_WIDTH}-digit {@code id} slot between {@code before} and {@code after}. */
    public static RequestTemplate withIdSlot(String kind, String method, String path, List<Header> headers,
                                             String before, String after) {
        return builder(kind, method).pathLiteral(path).headers(headers).bodyLiteral(before).bodySlot(ID, ID_WIDTH)
                .bodyLiteral(after).build();
    }

    /** A request with a fixed body (or none); nothing in it is a slot. */
    public static RequestTemplate fixed(String kind, String method, String path, List<Header> headers, String body) {
        return builder(kind, method).pathLiteral(path).headers(headers).bodyLiteral(body == null ? "" : body).build();
    }

    /** The index of a slot, for {@link Request#set}; an unknown name is an IllegalArgumentException. */
    public int slot(String name) {
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("request kind " + kind + " has no slot '" + name + "'; slots: "
                + slots.stream().map(Slot::name).toList());
    }

    /** The index of a slot, or -1. */
    public int slotOrNone(String name) {
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public boolean hasIdSlot() {
        return slotOrNone(ID) >= 0;
    }

    /** Whether the body's length is the same for every request (no variable-length slot in it). */
    public boolean fixedBodyLength() {
        for (Part p : body) {
            if (p.isSlot() && !slots.get(p.slot()).fixedWidth()) {
                return false;
            }
        }
        return true;
    }

    /** The body's length when it is fixed (see {@link #fixedBodyLength}). */
    public int bodyLength() {
        if (!fixedBodyLength()) {
            throw new IllegalStateException("the body of " + kind + " has a slot of variable length");
        }
        int n = 0;
        for (Part p : body) {
            n += p.isSlot() ? slots.get(p.slot()).width() : p.literal().length;
        }
        return n;
    }

    /** Whether the path or a header has a slot (then h2c builds a header block per request). */
    public boolean slotsInHead() {
        return path.stream().anyMatch(Part::isSlot) || headers.stream().anyMatch(h -> h.value().stream().anyMatch(Part::isSlot));
    }

    /** The request's body (allocates; the driver writes into its own buffers on the hot path). */
    public byte[] body(Request request) {
        return render(body, request);
    }

    /** The request's path and query (allocates). */
    public String path(Request request) {
        return new String(render(path, request), StandardCharsets.ISO_8859_1);
    }

    /** Parts with a request's slot values written in (allocates: one-off requests and h2c header values). */
    public static byte[] render(List<Part> parts, Request request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] digits = new byte[Request.MAX_DIGITS];
        for (Part p : parts) {
            if (!p.isSlot()) {
                out.writeBytes(p.literal());
            } else {
                int n = request.writeValue(p.slot(), digits);
                if (n >= 0) {
                    out.write(digits, 0, n);
                } else {
                    out.writeBytes(request.bytes(p.slot()));
                }
            }
        }
        return out.toByteArray();
    }

    /** Builds a template; {@code path}, {@code header} and {@code body} parse {@code ${slot}}s, the *Literal forms do not. */
    public static final class Builder {
        private final String kind;
        private final String method;
        private final List<Part> path = new ArrayList<>();
        private final List<Header> headers = new ArrayList<>();
        private final List<Part> body = new ArrayList<>();
        private final List<Slot> slots = new ArrayList<>();
        private boolean resendable = true;

        private Builder(String kind, String method) {
            if (kind == null || kind.isBlank()) {
                throw new IllegalArgumentException("a request template needs a kind (a short name for statistics)");
            }
            if (method == null || !method.matches("[A-Z]+")) {
                throw new IllegalArgumentException("request kind " + kind + ": method '" + method + "' is not an HTTP method such as GET or POST");
            }
            this.kind = kind;
            this.method = method;
        }

        public Builder path(String pattern) {
            parse(pattern, path, StandardCharsets.ISO_8859_1);
            return this;
        }

        public Builder pathLiteral(String literal) {
            if (literal == null || literal.isEmpty() || literal.indexOf(' ') >= 0) {
                throw new IllegalArgumentException("request kind " + kind + ": path '" + literal + "' must be non-empty and without spaces (URL-encode it)");
            }
            path.add(new Part(literal.getBytes(StandardCharsets.ISO_8859_1), -1));
            return this;
        }

        /** A header; its value may hold slots. */
        public Builder header(String name, String valuePattern) {
            if (name == null || !name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new IllegalArgumentException("request kind " + kind + ": '" + name + "' is not a header name");
            }
            if (valuePattern.indexOf('\r') >= 0 || valuePattern.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("request kind " + kind + ": header " + name + " has a line break in its value");
            }
            List<Part> value = new ArrayList<>();
            parse(valuePattern, value, StandardCharsets.ISO_8859_1);
            headers.add(new Header(name, value));
            return this;
        }

        public Builder headers(List<Header> list) {
            for (Header h : list) {
                for (Part p : h.value()) {
                    if (p.isSlot()) {
                        throw new IllegalArgumentException("request kind " + kind + ": header " + h.name() + " from a list cannot hold a slot; use header(name, pattern)");
                    }
                }
                headers.add(h);
            }
            return this;
        }

        public Builder body(String pattern) {
            parse(pattern, body, StandardCharsets.UTF_8);
            return this;
        }

        public Builder bodyLiteral(String literal) {
            return bodyLiteral(literal.getBytes(StandardCharsets.UTF_8));
        }

        public Builder bodyLiteral(byte[] literal) {
            if (literal.length > 0) {
                body.add(new Part(literal.clone(), -1));
            }
            return this;
        }

        /** A slot in the body: {@code width} digits, or 0 for a value of any length. */
        public Builder bodySlot(String name, int width) {
            body.add(new Part(null, slotIndex(name, width)));
            return this;
        }

        /** False: never sent twice by the driver itself, whatever its method (a GET that changes something). */
        public Builder resendable(boolean may) {
            this.resendable = may;
            return this;
        }

        public RequestTemplate build() {
            if (path.isEmpty()) {
                throw new IllegalArgumentException("request kind " + kind + " has no path");
            }
            return new RequestTemplate(kind, method, merge(path), headers, merge(body), slots, resendable);
        }

        private int slotIndex(String name, int width) {
            if (name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+")) {
                throw new IllegalArgumentException("request kind " + kind + ": slot name '" + name + "' must be letters, digits, _ . or -");
            }
            if (width < 0 || width > Request.MAX_DIGITS - 1) {
                throw new IllegalArgumentException("request kind " + kind + ": slot " + name + " has width " + width + "; give 1-19 digits or none");
            }
            for (int i = 0; i < slots.size(); i++) {
                if (slots.get(i).name().equals(name)) {
                    if (slots.get(i).width() != width) {
                        throw new IllegalArgumentException("request kind " + kind + ": slot " + name + " is used with two widths");
                    }
                    return i;
                }
            }
            slots.add(new Slot(name, width));
            return slots.size() - 1;
        }

        /** Splits a pattern at its {@code ${name}} and {@code ${name:N}} slots. */
        private void parse(String pattern, List<Part> into, java.nio.charset.Charset charset) {
            StringBuilder literal = new StringBuilder();
            int i = 0;
            while (i < pattern.length()) {
                if (pattern.startsWith("$${", i)) {
                    literal.append("${");
                    i += 3;
                } else if (pattern.startsWith("${", i)) {
                    int end = pattern.indexOf('}', i);
                    if (end < 0) {
                        throw new IllegalArgumentException("request kind " + kind + ": unclosed ${ in '" + pattern + "'");
                    }
                    String spec = pattern.substring(i + 2, end);
                    int colon = spec.indexOf(':');
                    int width = 0;
                    if (colon >= 0) {
                        try {
                            width = Integer.parseInt(spec.substring(colon + 1));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("request kind " + kind + ": slot ${" + spec + "} needs a digit count after ':'");
                        }
                        if (width < 1) {
                            throw new IllegalArgumentException("request kind " + kind + ": slot ${" + spec + "} needs 1-19 digits");
                        }
                    }
                    if (!literal.isEmpty()) {
                        into.add(new Part(literal.toString().getBytes(charset), -1));
                        literal.setLength(0);
                    }
                    into.add(new Part(null, slotIndex(colon >= 0 ? spec.substring(0, colon) : spec, width)));
                    i = end + 1;
                } else {
                    literal.append(pattern.charAt(i++));
                }
            }
            if (!literal.isEmpty()) {
                into.add(new Part(literal.toString().getBytes(charset), -1));
            }
        }

        /** Joins neighbouring literals, so that a part list alternates literal and slot. */
        private static List<Part> merge(List<Part> parts) {
            List<Part> merged = new ArrayList<>();
            ByteArrayOutputStream pending = new ByteArrayOutputStream();
            for (Part p : parts) {
                if (p.isSlot()) {
                    if (pending.size() > 0) {
                        merged.add(new Part(pending.toByteArray(), -1));
                        pending.reset();
                    }
                    merged.add(p);
                } else {
                    pending.writeBytes(p.literal());
                }
            }
            if (pending.size() > 0) {
                merged.add(new Part(pending.toByteArray(), -1));
            }
            return merged;
        }
    }
}
