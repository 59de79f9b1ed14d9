package perflab.core.traffic;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A whole response held in memory, as a {@link ResponseView}: an answer recorded once and checked again (a workload's
 * tests feed its session's check with right, spoiled and canned answers), where the driver's views are over its
 * receive buffer. Header names are matched without regard to case.
 */
public record HeldResponse(int status, Map<String, List<String>> headerMap, byte[] body) implements ResponseView {
    public HeldResponse {
        Map<String, List<String>> lower = new LinkedHashMap<>();
        headerMap.forEach((name, values) -> lower.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new java.util.ArrayList<>())
                .addAll(values));
        lower.replaceAll((name, values) -> List.copyOf(values));
        headerMap = java.util.Collections.unmodifiableMap(lower);
    }

    /** A response with a body and no headers. */
    public static HeldResponse of(int status, byte[] body) {
        return new HeldResponse(status, Map.of(), body);
    }

    /** A response with a UTF-8 body and no headers. */
    public static HeldResponse of(int status, String body) {
        return of(status, body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String header(String name) {
        List<String> all = headers(name);
        return all.isEmpty() ? null : all.get(0);
    }

    @Override
    public List<String> headers(String name) {
        return headerMap.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
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
