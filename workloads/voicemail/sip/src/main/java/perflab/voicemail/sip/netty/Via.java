package perflab.voicemail.sip.netty;

/**
 * The topmost Via of a received message: enough to match a server transaction (branch, sent-by) and to route its
 * responses back (RFC 3261 section 18.2.2 with RFC 3581's rport).
 *
 * @param raw    the header value as received (the top one of a comma list)
 * @param host   sent-by host
 * @param port   sent-by port, -1 when not given
 * @param branch the branch parameter, null when absent
 * @param rport  whether the sender asked for rport
 */
record Via(String raw, String host, int port, String branch, boolean rport) {
    static final String MAGIC_COOKIE = "z9hG4bK";

    /** Parses {@code SIP/2.0/UDP host:port;branch=...}; null when it is not a usable Via. */
    static Via parse(String value) {
        if (value == null) {
            return null;
        }
        int comma = value.indexOf(',');
        String top = (comma < 0 ? value : value.substring(0, comma)).trim();
        if (!top.regionMatches(true, 0, "SIP/2.0/", 0, 8)) {
            return null;
        }
        int space = top.indexOf(' ', 8);
        int tab = top.indexOf('\t', 8);
        int sentByStart = space < 0 ? tab : (tab < 0 ? space : Math.min(space, tab));
        if (sentByStart < 0) {
            return null;
        }
        int semi = top.indexOf(';', sentByStart);
        String sentBy = (semi < 0 ? top.substring(sentByStart) : top.substring(sentByStart, semi)).trim();
        String[] hostPort = HeaderValues.splitHostPort(sentBy);
        if (hostPort == null) {
            return null;
        }
        String params = semi < 0 ? "" : top.substring(semi);
        String branch = HeaderValues.param(params, "branch");
        return new Via(top, hostPort[0], Integer.parseInt(hostPort[1]), branch == null || branch.isEmpty()
                ? null : branch, HeaderValues.param(params, "rport") != null);
    }

    String sentBy() {
        return port < 0 ? host : host + ":" + port;
    }

    /**
     * The Via for our response: {@code received} with the source address, and rport's value filled when the sender
     * asked for it (RFC 3581 section 4), so that a peer behind NAT and a tester reading the Via both see where the
     * request came from.
     */
    String answered(String sourceHost, int sourcePort) {
        StringBuilder out = new StringBuilder(raw.length() + 40);
        int semi = raw.indexOf(';');
        out.append(raw, 0, semi < 0 ? raw.length() : semi);
        if (semi >= 0) {
            // copy the parameters but a bare rport and an old received
            int i = semi;
            while (i >= 0 && i < raw.length()) {
                int end = raw.indexOf(';', i + 1);
                String param = raw.substring(i + 1, end < 0 ? raw.length() : end).trim();
                if (!param.equalsIgnoreCase("rport") && !param.regionMatches(true, 0, "received=", 0, 9)
                        && !param.regionMatches(true, 0, "rport=", 0, 6)) {
                    out.append(';').append(param);
                }
                i = end;
            }
        }
        out.append(";received=").append(sourceHost);
        if (rport) {
            out.append(";rport=").append(sourcePort);
        }
        return out.toString();
    }
}
