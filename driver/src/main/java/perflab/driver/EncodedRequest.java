package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.RequestTemplate.Part;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One request template encoded once into wire bytes: a short list of pieces, each a literal (request line, Host,
 * the template's headers, a fixed Content-Length, the body's text, all neighbouring literals joined) or a slot
 * whose value the request carries. Per request the driver copies the literals into a pooled buffer and writes
 * the values; Content-Length is computed only when a slot of variable length is in the body. Instances belong
 * to one event loop (the digit scratch is not shared between threads).
 *
 * <p>For h2c the header block cannot be pre-encoded (HPACK's table is per connection), so the template's
 * {@link Http2Headers} are built once and reused for every stream when nothing in the head varies (no slot in
 * the path or headers, a fixed body length); otherwise each request gets its own header block (stateful
 * traffic may allocate). The DATA frame is the body's pieces.
 */
final class EncodedRequest {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
    /** Connection-specific HTTP/1.1 headers that HTTP/2 forbids (RFC 9113, 8.2.2), plus what the driver owns. */
    private static final Set<String> NOT_IN_H2 = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "host", "http2-settings", "content-length");
    private static final AsciiString HTTP = AsciiString.cached("http");
    private static final AsciiString H2_CONTENT_LENGTH = AsciiString.cached("content-length");

    static final byte LITERAL = 0;
    static final byte SLOT = 1;
    /** A header whose whole value is a slot: "Name: " + value + CRLF, left out when the value is empty. */
    static final byte OPTIONAL_HEADER = 2;
    /** "Content-Length: " + the body's length for this request + CRLF. */
    static final byte CONTENT_LENGTH_HEADER = 3;

    /** A compiled piece list: parallel arrays, so that writing is a loop over primitives. */
    record Pieces(byte[] kinds, byte[][] literals, int[] slots, int literalBytes) {
    }

    final RequestTemplate template;
    final boolean head;
    /** Index of the template's kind in the loop's per-kind statistics. */
    final int kind;
    /**
     * Its method is idempotent (RFC 9110 9.2.2): a client may send it again by itself when the kept-alive connection
     * it went out on closed without an answer (RFC 9112 9.3.1), as browsers do; never another method, nor a template
     * its traffic marked not {@link RequestTemplate#resendable}.
     */
    final boolean idempotent;
    private static final java.util.Set<String> IDEMPOTENT = java.util.Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    private final Pieces keepAlive;
    private final Pieces close;
    private final Pieces body;
    private final boolean bodyHasContentLength;
    private final String authority;
    private final boolean sharedH2Headers;
    private Http2Headers h2Headers;
    private final byte[] digits = new byte[Request.MAX_DIGITS];

    EncodedRequest(RequestTemplate template, String hostHeader, int kind) {
        this.template = template;
        this.kind = kind;
        this.head = "HEAD".equalsIgnoreCase(template.method());
        this.idempotent = template.resendable() && IDEMPOTENT.contains(template.method().toUpperCase(java.util.Locale.ROOT));
        this.authority = hostHeader;
        this.bodyHasContentLength = !template.body().isEmpty() || !template.method().equals("GET") && !head;
        this.keepAlive = compile(template, hostHeader, false);
        this.close = compile(template, hostHeader, true);
        this.body = pieces(template.body());
        this.sharedH2Headers = !template.slotsInHead() && template.fixedBodyLength();
    }

    private Pieces compile(RequestTemplate t, String hostHeader, boolean close) {
        List<Part> parts = new ArrayList<>();
        List<Byte> kinds = new ArrayList<>();
        addLiteral(parts, kinds, t.method() + " ");
        for (Part p : t.path()) {
            add(parts, kinds, p, SLOT);
        }
        addLiteral(parts, kinds, " HTTP/1.1\r\nHost: " + hostHeader + "\r\n");
        for (RequestTemplate.Header h : t.headers()) {
            if (h.name().equalsIgnoreCase("Content-Length") || h.name().equalsIgnoreCase("Host")) {
                continue; // the driver owns framing and addressing
            }
            int optional = h.optionalSlot();
            if (optional >= 0) {
                parts.add(new Part((h.name() + ": ").getBytes(StandardCharsets.ISO_8859_1), optional));
                kinds.add(OPTIONAL_HEADER);
                continue;
            }
            addLiteral(parts, kinds, h.name() + ": ");
            for (Part p : h.value()) {
                add(parts, kinds, p, SLOT);
            }
            addLiteral(parts, kinds, "\r\n");
        }
        if (bodyHasContentLength) {
            if (t.fixedBodyLength()) {
                addLiteral(parts, kinds, "Content-Length: " + t.bodyLength() + "\r\n");
            } else {
                parts.add(new Part(null, -1));
                kinds.add(CONTENT_LENGTH_HEADER);
            }
        }
        if (close) {
            parts.add(new Part(CONNECTION_CLOSE, -1));
            kinds.add(LITERAL);
        }
        addLiteral(parts, kinds, "\r\n");
        for (Part p : t.body()) {
            add(parts, kinds, p, SLOT);
        }
        return join(parts, kinds);
    }

    private static Pieces pieces(List<Part> parts) {
        List<Byte> kinds = new ArrayList<>();
        for (Part p : parts) {
            kinds.add(p.isSlot() ? SLOT : LITERAL);
        }
        return join(new ArrayList<>(parts), kinds);
    }

    private static void addLiteral(List<Part> parts, List<Byte> kinds, String text) {
        parts.add(new Part(text.getBytes(StandardCharsets.ISO_8859_1), -1));
        kinds.add(LITERAL);
    }

    private static void add(List<Part> parts, List<Byte> kinds, Part p, byte slotKind) {
        parts.add(p);
        kinds.add(p.isSlot() ? slotKind : LITERAL);
    }

    /** Joins neighbouring literals into one array: soap-echo's request is literal, id, literal. */
    private static Pieces join(List<Part> parts, List<Byte> kinds) {
        List<Byte> k = new ArrayList<>();
        List<byte[]> lit = new ArrayList<>();
        List<Integer> slot = new ArrayList<>();
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        int literalBytes = 0;
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            byte kind = kinds.get(i);
            if (kind == LITERAL) {
                pending.writeBytes(p.literal());
                continue;
            }
            if (pending.size() > 0) {
                k.add(LITERAL);
                lit.add(pending.toByteArray());
                slot.add(-1);
                literalBytes += pending.size();
                pending.reset();
            }
            k.add(kind);
            lit.add(p.literal());
            slot.add(p.slot());
            literalBytes += p.literal() == null ? 0 : p.literal().length;
        }
        if (pending.size() > 0) {
            k.add(LITERAL);
            lit.add(pending.toByteArray());
            slot.add(-1);
            literalBytes += pending.size();
        }
        byte[] kindArray = new byte[k.size()];
        int[] slotArray = new int[k.size()];
        for (int i = 0; i < kindArray.length; i++) {
            kindArray[i] = k.get(i);
            slotArray[i] = slot.get(i);
        }
        return new Pieces(kindArray, lit.toArray(new byte[0][]), slotArray, literalBytes);
    }

    /** An upper bound of the bytes {@link #write} produces for this request. */
    int sizeFor(Request request) {
        Pieces p = close;
        int size = p.literalBytes();
        for (int i = 0; i < p.kinds().length; i++) {
            byte kind = p.kinds()[i];
            if (kind == SLOT || kind == OPTIONAL_HEADER) {
                size += request.valueLength(p.slots()[i]) + 2;
            } else if (kind == CONTENT_LENGTH_HEADER) {
                size += CONTENT_LENGTH.length + Request.MAX_DIGITS + 2;
            }
        }
        return size;
    }

    /** Writes the complete HTTP/1.1 request; returns the bytes written. */
    int write(ByteBuf out, Request request, boolean closeConnection) {
        int start = out.writerIndex();
        write(out, request, closeConnection ? close : keepAlive);
        return out.writerIndex() - start;
    }

    private void write(ByteBuf out, Request request, Pieces p) {
        byte[] kinds = p.kinds();
        for (int i = 0; i < kinds.length; i++) {
            switch (kinds[i]) {
                case LITERAL -> out.writeBytes(p.literals()[i]);
                case SLOT -> writeValue(out, request, p.slots()[i]);
                case OPTIONAL_HEADER -> {
                    int slot = p.slots()[i];
                    if (request.valueLength(slot) > 0) {
                        out.writeBytes(p.literals()[i]);
                        writeValue(out, request, slot);
                        out.writeBytes(CRLF);
                    }
                }
                default -> {
                    out.writeBytes(CONTENT_LENGTH);
                    out.writeBytes(digits, 0, Request.writeDecimal(bodyLength(request), 0, digits));
                    out.writeBytes(CRLF);
                }
            }
        }
    }

    private void writeValue(ByteBuf out, Request request, int slot) {
        int n = request.writeValue(slot, digits);
        if (n >= 0) {
            out.writeBytes(digits, 0, n);
        } else {
            out.writeBytes(request.bytes(slot));
        }
    }

    /** Length of the request's body (h2c: the DATA frame's payload; 0 = HEADERS ends the stream). */
    int bodyLength(Request request) {
        Pieces p = body;
        int n = p.literalBytes();
        for (int i = 0; i < p.kinds().length; i++) {
            if (p.kinds()[i] == SLOT) {
                n += request.valueLength(p.slots()[i]);
            }
        }
        return n;
    }

    /** h2c: writes the request's body. */
    void writeBody(ByteBuf out, Request request) {
        write(out, request, body);
    }

    /** h2c: the request's header block; the template's own, shared, unless something in it varies per request. */
    Http2Headers h2Headers(Request request) {
        if (sharedH2Headers) {
            Http2Headers h = h2Headers;
            if (h == null) {
                h = h2HeadersFor(request);
                h2Headers = h;
            }
            return h;
        }
        return h2HeadersFor(request);
    }

    private Http2Headers h2HeadersFor(Request request) {
        Http2Headers h = new DefaultHttp2Headers(true, template.headers().size() + 5)
                .method(AsciiString.of(template.method())).path(text(template.path(), request))
                .scheme(HTTP).authority(AsciiString.of(authority));
        for (RequestTemplate.Header hd : template.headers()) {
            String name = hd.name().toLowerCase(Locale.ROOT);
            int optional = hd.optionalSlot();
            if (optional >= 0 && request.valueLength(optional) == 0) {
                continue;
            }
            AsciiString value = text(hd.value(), request);
            if (!NOT_IN_H2.contains(name) && !(name.equals("te") && !value.toString().equalsIgnoreCase("trailers"))) {
                h.add(AsciiString.of(name), value);
            }
        }
        if (bodyHasContentLength) {
            h.setInt(H2_CONTENT_LENGTH, bodyLength(request));
        }
        return h;
    }

    private static AsciiString text(List<Part> parts, Request request) {
        return new AsciiString(RequestTemplate.render(parts, request), false);
    }

    /**
     * The encoded form of each template a loop has seen, and the index of its kind in the loop's statistics.
     * Traffic normally uses a handful of templates built once; a traffic that builds a template per request would
     * still work (the map is cleared when it grows past a bound), just without the benefit of pre-encoding.
     */
    static final class Cache {
        private static final int MAX_TEMPLATES = 1024;
        private final Map<RequestTemplate, EncodedRequest> byTemplate = new IdentityHashMap<>();
        private final String hostHeader;
        private final RequestKinds kinds;
        private EncodedRequest last;

        Cache(String hostHeader, RequestKinds kinds) {
            this.hostHeader = hostHeader;
            this.kinds = kinds;
        }

        EncodedRequest get(RequestTemplate template) {
            EncodedRequest e = last;
            if (e != null && e.template == template) {
                return e;
            }
            e = byTemplate.get(template);
            if (e == null) {
                if (byTemplate.size() >= MAX_TEMPLATES) {
                    byTemplate.clear();
                }
                e = new EncodedRequest(template, hostHeader, kinds.indexOf(template.kind()));
                byTemplate.put(template, e);
            }
            last = e;
            return e;
        }
    }
}
