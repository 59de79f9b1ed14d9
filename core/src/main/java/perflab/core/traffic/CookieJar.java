package perflab.core.traffic;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One client's cookies, as far as a benchmark against one host needs (RFC 6265, host-only): Set-Cookie in
 * (name=value, Path, Max-Age, Expires; Domain, Secure and HttpOnly are ignored), the Cookie header out for a
 * path. The header is cached until a cookie changes or expires, so a session sends the same bytes without
 * rebuilding them. One session's, not thread-safe.
 */
public final class CookieJar {
    private static final byte[] EMPTY = new byte[0];

    private record Cookie(String name, String value, String path, long expiresAtMillis) {
    }

    private final LongSupplier clockMillis;
    private final List<Cookie> cookies = new ArrayList<>();
    private long nextExpiryMillis = Long.MAX_VALUE;
    private String cachedPath;
    private byte[] cachedHeader;

    public CookieJar() {
        this(System::currentTimeMillis);
    }

    /** With a clock in epoch milliseconds (tests). */
    public CookieJar(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    /** Takes every Set-Cookie of a response to a request for {@code requestPath}. */
    public void receive(ResponseView response, String requestPath) {
        List<String> all = response.headers("Set-Cookie");
        for (int i = 0; i < all.size(); i++) {
            receive(all.get(i), requestPath);
        }
    }

    /** Takes one Set-Cookie header value; one the RFC says to ignore (no name=value) is ignored. */
    public void receive(String setCookie, String requestPath) {
        String[] parts = setCookie.split(";");
        int eq = parts[0].indexOf('=');
        if (eq < 0) {
            return;
        }
        String name = parts[0].substring(0, eq).trim();
        if (name.isEmpty()) {
            return;
        }
        String value = parts[0].substring(eq + 1).trim();
        String path = null;
        long now = clockMillis.getAsLong();
        long expires = Long.MAX_VALUE;
        boolean maxAgeSeen = false;
        for (int i = 1; i < parts.length; i++) {
            String attribute = parts[i].trim();
            int aeq = attribute.indexOf('=');
            String key = (aeq < 0 ? attribute : attribute.substring(0, aeq)).trim().toLowerCase(Locale.ROOT);
            String av = aeq < 0 ? "" : attribute.substring(aeq + 1).trim();
            switch (key) {
                case "path" -> path = av.startsWith("/") ? av : null;
                case "max-age" -> {
                    try {
                        long seconds = Long.parseLong(av);
                        expires = seconds <= 0 ? Long.MIN_VALUE : now + Math.min(seconds, Long.MAX_VALUE / 2000) * 1000;
                        maxAgeSeen = true;
                    } catch (NumberFormatException e) {
                        // an unparseable attribute is ignored, as a browser does
                    }
                }
                case "expires" -> {
                    if (!maxAgeSeen) {
                        try {
                            expires = ZonedDateTime.parse(av, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
                        } catch (DateTimeParseException e) {
                            // likewise
                        }
                    }
                }
                default -> {
                }
            }
        }
        if (path == null) {
            path = defaultPath(requestPath);
        }
        for (int i = 0; i < cookies.size(); i++) {
            Cookie c = cookies.get(i);
            if (c.name.equals(name) && c.path.equals(path)) {
                cookies.remove(i);
                break;
            }
        }
        if (expires > now) {
            cookies.add(new Cookie(name, value, path, expires));
            nextExpiryMillis = Math.min(nextExpiryMillis, expires);
        }
        cachedPath = null;
    }

    /**
     * The Cookie header's value for a request to {@code path} ("a=1; b=2"; empty when no cookie applies), longer
     * paths first. The same array is returned while nothing changed: do not modify it.
     */
    public byte[] header(String path) {
        long now = clockMillis.getAsLong();
        if (now >= nextExpiryMillis) {
            expire(now);
        }
        if (cachedPath != null && cachedPath.equals(path)) {
            return cachedHeader;
        }
        String p = withoutQuery(path);
        List<Cookie> matching = new ArrayList<>();
        for (Cookie c : cookies) {
            if (pathMatches(p, c.path)) {
                matching.add(c);
            }
        }
        matching.sort((a, b) -> b.path.length() - a.path.length()); // stable: equal paths keep their order
        StringBuilder sb = new StringBuilder();
        for (Cookie c : matching) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(c.name).append('=').append(c.value);
        }
        cachedPath = path;
        cachedHeader = sb.isEmpty() ? EMPTY : sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        return cachedHeader;
    }

    /** The value of a cookie (any path), or null. */
    public String value(String name) {
        expire(clockMillis.getAsLong());
        for (Cookie c : cookies) {
            if (c.name.equals(name)) {
                return c.value;
            }
        }
        return null;
    }

    public int size() {
        expire(clockMillis.getAsLong());
        return cookies.size();
    }

    /** Forgets every cookie (a new user's session). */
    public void clear() {
        cookies.clear();
        nextExpiryMillis = Long.MAX_VALUE;
        cachedPath = null;
    }

    private void expire(long now) {
        if (now < nextExpiryMillis) {
            return;
        }
        cookies.removeIf(c -> c.expiresAtMillis <= now);
        nextExpiryMillis = Long.MAX_VALUE;
        for (Cookie c : cookies) {
            nextExpiryMillis = Math.min(nextExpiryMillis, c.expiresAtMillis);
        }
        cachedPath = null;
    }

    private static String withoutQuery(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    /** RFC 6265 5.1.4: the request path up to its last '/', or "/". */
    static String defaultPath(String requestPath) {
        String p = withoutQuery(requestPath);
        int last = p.lastIndexOf('/');
        return !p.startsWith("/") || last <= 0 ? "/" : p.substring(0, last);
    }

    /** RFC 6265 5.1.4: the cookie's path is the request path or a prefix of it ending at a '/'. */
    static boolean pathMatches(String requestPath, String cookiePath) {
        return requestPath.equals(cookiePath) || requestPath.startsWith(cookiePath)
                && (cookiePath.endsWith("/") || requestPath.charAt(cookiePath.length()) == '/');
    }
}
