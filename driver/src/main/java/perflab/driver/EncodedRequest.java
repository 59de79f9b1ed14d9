package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;

import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One request template encoded once into wire bytes: request line, Host, the template's headers and
 * Content-Length in {@link #head}; the body in a scratch copy whose id slot is overwritten per request. Per
 * request the driver only copies these arrays into a pooled buffer, writes the id digits and any per-client
 * headers. Instances belong to one event loop (the scratch body is not shared between threads).
 *
 * <p>For h2c the header block cannot be pre-encoded (HPACK's table is per connection), so the template's
 * {@link Http2Headers} are built once, on first use, and reused for every stream that has no per-client
 * headers; the DATA frame is the same body bytes with the id written in.
 */
final class EncodedRequest {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] COLON_SPACE = {':', ' '};
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Connection-specific HTTP/1.1 headers that HTTP/2 forbids (RFC 9113, 8.2.2), plus what the driver owns. */
    private static final Set<String> NOT_IN_H2 = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "host", "http2-settings", "content-length");
    private static final AsciiString HTTP = AsciiString.cached("http");

    final RequestTemplate template;
    final boolean head;
    private final byte[] headBytes;
    private final byte[] body;
    private final int idOffset;
    private final String authority;
    private Http2Headers h2Headers;
    /** Successes of this template by phase (warm-up, window), on this loop: per-kind statistics of the window. */
    final long[] successes = new long[2];

    EncodedRequest(RequestTemplate template, String hostHeader) {
        this.template = template;
        this.head = "HEAD".equalsIgnoreCase(template.method());
        StringBuilder sb = new StringBuilder(256);
        sb.append(template.method()).append(' ').append(template.path()).append(" HTTP/1.1\r\n");
        sb.append("Host: ").append(hostHeader).append("\r\n");
        for (RequestTemplate.Header h : template.headers()) {
            if (h.name().equalsIgnoreCase("Content-Length") || h.name().equalsIgnoreCase("Host")) {
                continue; // the driver owns framing and addressing
            }
            sb.append(h.name()).append(": ").append(h.value()).append("\r\n");
        }
        if (template.bodyLength() > 0 || !template.method().equalsIgnoreCase("GET") && !head) {
            sb.append("Content-Length: ").append(template.bodyLength()).append("\r\n");
        }
        this.headBytes = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        this.body = template.body(0);
        this.idOffset = template.hasIdSlot() ? template.bodyBeforeId().length : -1;
        this.authority = hostHeader;
    }

    /** h2c: the request's header block; the template's own, shared, unless the request has per-client headers. */
    Http2Headers h2Headers(Request request) {
        Http2Headers h = h2Headers;
        if (h == null) {
            h = new DefaultHttp2Headers(true, template.headers().size() + 5)
                    .method(AsciiString.of(template.method())).path(AsciiString.of(template.path()))
                    .scheme(HTTP).authority(AsciiString.of(authority));
            addH2(h, template.headers());
            if (template.bodyLength() > 0 || !template.method().equalsIgnoreCase("GET") && !head) {
                h.setInt(AsciiString.cached("content-length"), template.bodyLength());
            }
            h2Headers = h;
        }
        List<RequestTemplate.Header> extra = request.extraHeaders();
        if (extra.isEmpty()) {
            return h;
        }
        Http2Headers copy = new DefaultHttp2Headers(false, h.size() + extra.size());
        copy.add(h);
        addH2(copy, extra);
        return copy;
    }

    private static void addH2(Http2Headers target, List<RequestTemplate.Header> headers) {
        for (int i = 0; i < headers.size(); i++) {
            RequestTemplate.Header hd = headers.get(i);
            String name = hd.name().toLowerCase(Locale.ROOT);
            if (!NOT_IN_H2.contains(name) && !(name.equals("te") && !hd.value().equalsIgnoreCase("trailers"))) {
                target.add(AsciiString.of(name), AsciiString.of(hd.value()));
            }
        }
    }

    /** Length of the body (h2c: the DATA frame's payload; 0 = HEADERS ends the stream). */
    int bodyLength() {
        return body.length;
    }

    /** h2c: writes the body with the request's id in its slot. */
    void writeBody(ByteBuf out, Request request) {
        if (idOffset >= 0) {
            RequestTemplate.writeId(request.id(), body, idOffset);
        }
        out.writeBytes(body);
    }

    /** An upper bound of the bytes {@link #write} produces for this request. */
    int sizeFor(Request request) {
        int size = headBytes.length + CONNECTION_CLOSE.length + CRLF.length + body.length;
        List<RequestTemplate.Header> extra = request.extraHeaders();
        for (int i = 0; i < extra.size(); i++) {
            RequestTemplate.Header h = extra.get(i);
            size += h.name().length() + h.value().length() + 4;
        }
        return size;
    }

    /** Writes the complete request; returns the bytes written. */
    int write(ByteBuf out, Request request, boolean close) {
        int start = out.writerIndex();
        out.writeBytes(headBytes);
        List<RequestTemplate.Header> extra = request.extraHeaders();
        for (int i = 0; i < extra.size(); i++) {
            RequestTemplate.Header h = extra.get(i);
            ByteBufUtil.writeAscii(out, h.name());
            out.writeBytes(COLON_SPACE);
            ByteBufUtil.writeAscii(out, h.value());
            out.writeBytes(CRLF);
        }
        if (close) {
            out.writeBytes(CONNECTION_CLOSE);
        }
        out.writeBytes(CRLF);
        if (idOffset >= 0) {
            RequestTemplate.writeId(request.id(), body, idOffset);
        }
        out.writeBytes(body);
        return out.writerIndex() - start;
    }

    /**
     * The encoded form of each template a loop has seen. Traffic normally uses a handful of templates built
     * once; a traffic that builds a template per request would still work (the map is cleared when it grows
     * past a bound), just without the benefit of pre-encoding.
     */
    static final class Cache {
        private static final int MAX_TEMPLATES = 1024;
        private final Map<RequestTemplate, EncodedRequest> byTemplate = new IdentityHashMap<>();
        private final Map<String, Long> retiredSuccessesByKind = new java.util.HashMap<>();
        private final String hostHeader;
        private EncodedRequest last;

        Cache(String hostHeader) {
            this.hostHeader = hostHeader;
        }

        EncodedRequest get(RequestTemplate template) {
            EncodedRequest e = last;
            if (e != null && e.template == template) {
                return e;
            }
            e = byTemplate.get(template);
            if (e == null) {
                if (byTemplate.size() >= MAX_TEMPLATES) {
                    for (EncodedRequest old : byTemplate.values()) {
                        retiredSuccessesByKind.merge(old.template.kind(), old.successes[MeasurementWindow.MEASURE], Long::sum);
                    }
                    byTemplate.clear();
                }
                e = new EncodedRequest(template, hostHeader);
                byTemplate.put(template, e);
            }
            last = e;
            return e;
        }

        /** Measured successes by request kind on this loop. Call on the loop's thread. */
        Map<String, Long> successesByKind() {
            Map<String, Long> result = new java.util.TreeMap<>(retiredSuccessesByKind);
            for (EncodedRequest e : byTemplate.values()) {
                result.merge(e.template.kind(), e.successes[MeasurementWindow.MEASURE], Long::sum);
            }
            return result;
        }
    }
}
