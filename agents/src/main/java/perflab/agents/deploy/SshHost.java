package perflab.agents.deploy;

import java.util.ArrayList;
import java.util.List;

/** One {@code user@host[:port]} of {@code --agents ssh:...}; an IPv6 address goes in brackets ({@code root@[::1]:22}). */
public record SshHost(String user, String host, int port) {
    public static List<SshHost> parseAll(String list) {
        List<SshHost> hosts = new ArrayList<>();
        for (String part : list.split(",")) {
            hosts.add(parse(part.trim()));
        }
        return hosts;
    }

    static SshHost parse(String text) {
        int at = text.indexOf('@');
        if (at < 1 || at == text.length() - 1) {
            throw new IllegalArgumentException("--agents ssh: '" + text + "' is not user@host[:port]");
        }
        String user = text.substring(0, at);
        String rest = text.substring(at + 1);
        String host;
        String port = null;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("--agents ssh: '" + text + "' has an unclosed [");
            }
            host = rest.substring(1, close);
            port = rest.length() > close + 1 && rest.charAt(close + 1) == ':' ? rest.substring(close + 2) : null;
        } else {
            int colon = rest.lastIndexOf(':');
            host = colon < 0 ? rest : rest.substring(0, colon);
            port = colon < 0 ? null : rest.substring(colon + 1);
        }
        int p;
        try {
            p = port == null ? 22 : Integer.parseInt(port);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 1 || p > 65535 || host.isBlank()) {
            throw new IllegalArgumentException("--agents ssh: '" + text + "' is not user@host[:port]");
        }
        return new SshHost(user, host, p);
    }

    /** The agent's name: its host, and its port when not 22 (as a file name: agent-NAME.log). */
    public String agentName() {
        return (host + (port == 22 ? "" : "_" + port)).replace(':', '_');
    }

    @Override
    public String toString() {
        return user + "@" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
