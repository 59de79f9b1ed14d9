package perflab.core.traffic;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One kind of request, encoded once. The body may hold an id slot: {@link #ID_WIDTH} decimal digits, zero
 * padded, that the driver overwrites per request, so the bytes on the wire are built by copying, not by
 * formatting XML. Leading zeros are valid in xs:int and most numeric grammars.
 *
 * @param kind    a short name for statistics and error messages ("echoComplexTypeDoc", "buy")
 * @param method  HTTP method
 * @param path    request target (path and query), e.g. "/services/Perf"
 * @param headers extra request headers as name/value pairs; the driver adds Host, Content-Length and the
 *                connection policy's headers itself
 * @param bodyBeforeId body bytes before the id slot (the whole body if there is no slot)
 * @param bodyAfterId  body bytes after the id slot; null if the body has no id slot
 */
public record RequestTemplate(String kind, String method, String path, List<Header> headers,
                              byte[] bodyBeforeId, byte[] bodyAfterId) {

    /** Width of the id slot: enough for any non-negative int. */
    public static final int ID_WIDTH = 10;

    public record Header(String name, String value) {
        public Header {
            Objects.requireNonNull(name);
            Objects.requireNonNull(value);
        }
    }

    public RequestTemplate {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(method);
        Objects.requireNonNull(path);
        headers = List.copyOf(headers);
        bodyBeforeId = bodyBeforeId == null ? new byte[0] : bodyBeforeId;
    }

    /** A request whose body has an id slot between {@code before} and {@code after}. */
    public static RequestTemplate withIdSlot(String kind, String method, String path, List<Header> headers,
                                             String before, String after) {
        return new RequestTemplate(kind, method, path, headers,
                before.getBytes(StandardCharsets.UTF_8), after.getBytes(StandardCharsets.UTF_8));
    }

    /** A request with a fixed body (or none). */
    public static RequestTemplate fixed(String kind, String method, String path, List<Header> headers, String body) {
        return new RequestTemplate(kind, method, path, headers,
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), null);
    }

    public boolean hasIdSlot() {
        return bodyAfterId != null;
    }

    /** Length of the body as sent (constant for a template, so Content-Length can be pre-encoded). */
    public int bodyLength() {
        return bodyBeforeId.length + (hasIdSlot() ? ID_WIDTH + bodyAfterId.length : 0);
    }

    /** Writes {@code id} zero-padded into {@code target[offset..offset+ID_WIDTH)}. */
    public static void writeId(long id, byte[] target, int offset) {
        if (id < 0 || id > 9_999_999_999L) {
            throw new IllegalArgumentException("id out of range for the id slot: " + id);
        }
        long v = id;
        for (int i = ID_WIDTH - 1; i >= 0; i--) {
            target[offset + i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
    }

    /** The complete body for one id (allocates; the driver uses its own buffers on the hot path). */
    public byte[] body(long id) {
        if (!hasIdSlot()) {
            return bodyBeforeId.clone();
        }
        byte[] body = new byte[bodyLength()];
        System.arraycopy(bodyBeforeId, 0, body, 0, bodyBeforeId.length);
        writeId(id, body, bodyBeforeId.length);
        System.arraycopy(bodyAfterId, 0, body, bodyBeforeId.length + ID_WIDTH, bodyAfterId.length);
        return body;
    }
}
