package perflab.core.traffic;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** A response over a byte array, for the session helpers' tests. */
record BytesView(int status, Map<String, List<String>> headerMap, byte[] body) implements ResponseView {
    static BytesView of(String body, String... setCookies) {
        return new BytesView(200, Map.of("set-cookie", List.of(setCookies)), body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String header(String name) {
        List<String> all = headers(name);
        return all.isEmpty() ? null : all.get(0);
    }

    @Override
    public List<String> headers(String name) {
        return headerMap.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of());
    }

    @Override
    public int bodyLength() {
        return body.length;
    }

    @Override
    public byte bodyByte(int index) {
        return body[index];
    }
}
