package perflab.voicemail.sip.netty;

import java.util.Locale;

/**
 * The few pieces of header values the stack reads (tags, branch, URIs, tokens), by scanning characters: no regular
 * expressions on the hot path. Every method copes with any string (hostile input arrives here) and answers null
 * when the piece is not there.
 */
final class HeaderValues {
    private HeaderValues() {
    }

    /** The full name for a compact form (RFC 3261 section 7.3.3 and RFC 6665's o, u), lower case. */
    static String canonicalName(String name) {
        if (name.length() == 1) {
            switch (Character.toLowerCase(name.charAt(0))) {
                case 'i': return "call-id";
                case 'm': return "contact";
                case 'e': return "content-encoding";
                case 'l': return "content-length";
                case 'c': return "content-type";
                case 'f': return "from";
                case 's': return "subject";
                case 'k': return "supported";
                case 't': return "to";
                case 'v': return "via";
                case 'o': return "event";
                case 'u': return "allow-events";
                default: break;
            }
        }
        return name.toLowerCase(Locale.ROOT);
    }

    /** The URI of a name-addr ({@code "Bob" <sip:b@h>;tag=1}) or addr-spec ({@code sip:b@h;tag=1}). */
    static String uri(String value) {
        if (value == null) {
            return null;
        }
        int open = value.indexOf('<');
        if (open >= 0) {
            int close = value.indexOf('>', open + 1);
            return close < 0 ? null : value.substring(open + 1, close).trim();
        }
        int semi = value.indexOf(';');
        String uri = (semi < 0 ? value : value.substring(0, semi)).trim();
        return uri.isEmpty() ? null : uri;
    }

    /** The name-addr without its header parameters, in angle brackets: what a dialog keeps of From and To. */
    static String address(String value) {
        String uri = uri(value);
        if (uri == null) {
            return null;
        }
        int open = value.indexOf('<');
        return open >= 0 ? value.substring(0, value.indexOf('>', open) + 1).trim() : "<" + uri + ">";
    }

    /**
     * A header parameter ({@code ;name=value} after the URI): its value, "" for a flag, null when absent. For a
     * name-addr the search starts after '>', so URI parameters are not mistaken for header ones.
     */
    static String param(String value, String name) {
        if (value == null) {
            return null;
        }
        int from = value.indexOf('>');
        int i = value.indexOf(';', Math.max(from, 0));
        while (i >= 0) {
            int end = value.indexOf(';', i + 1);
            int stop = end < 0 ? value.length() : end;
            int eq = value.indexOf('=', i + 1);
            int nameEnd = eq < 0 || eq > stop ? stop : eq;
            if (value.substring(i + 1, nameEnd).trim().equalsIgnoreCase(name)) {
                return nameEnd == stop ? "" : value.substring(eq + 1, stop).trim();
            }
            i = end;
        }
        return null;
    }

    /** The value before any parameter: {@code message-summary} of {@code message-summary;id=1}. */
    static String token(String value) {
        if (value == null) {
            return null;
        }
        int semi = value.indexOf(';');
        return (semi < 0 ? value : value.substring(0, semi)).trim();
    }

    /** The user part of a SIP URI ({@code u0000042} of {@code sip:u0000042@host:port}); null when it has none. */
    static String user(String uri) {
        if (uri == null) {
            return null;
        }
        int colon = uri.indexOf(':');
        int at = uri.indexOf('@');
        return colon < 0 || at <= colon + 1 ? null : uri.substring(colon + 1, at);
    }

    /** A non-negative decimal number, or -1 when {@code text} is not one (or overflows). */
    static long number(String text) {
        if (text == null || text.isEmpty() || text.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /** Host and port of a SIP URI ({@code sip:user@host:port;params}); port -1 when not given; null when unusable. */
    static String[] hostPort(String uri) {
        if (uri == null) {
            return null;
        }
        int start = uri.regionMatches(true, 0, "sips:", 0, 5) ? 5 : uri.regionMatches(true, 0, "sip:", 0, 4) ? 4 : -1;
        if (start < 0) {
            return null;
        }
        int end = uri.length();
        for (int i = start; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == ';' || c == '?' || c == '>') {
                end = i;
                break;
            }
        }
        int at = uri.lastIndexOf('@', end - 1);
        String hostPort = uri.substring(at >= start ? at + 1 : start, end);
        return splitHostPort(hostPort);
    }

    /** {@code host[:port]} or {@code [v6][:port]} into host and port (-1 when absent); null when malformed. */
    static String[] splitHostPort(String hostPort) {
        String host;
        String port = null;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = hostPort.substring(1, close);
            if (close + 1 < hostPort.length()) {
                if (hostPort.charAt(close + 1) != ':') {
                    return null;
                }
                port = hostPort.substring(close + 2);
            }
        } else {
            int colon = hostPort.indexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            port = colon < 0 ? null : hostPort.substring(colon + 1);
        }
        if (host.isEmpty()) {
            return null;
        }
        long p = port == null ? -1 : number(port);
        if (port != null && (p <= 0 || p > 65535)) {
            return null;
        }
        return new String[] {host, Long.toString(p)};
    }
}
