package perflab.monitor;

import perflab.core.os.ProcWords;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One network interface's cumulative counters from /proc/net/dev (the kernel's own, since boot: every process
 * on the machine). On loopback every packet is both sent and received by the same interface, so it counts
 * once "out" and once "in": in = out = the traffic of both directions.
 */
public final class NetworkCounters {
    private static final Path NET_DEV = Path.of("/proc/net/dev");

    private NetworkCounters() {
    }

    /** Counters of one interface at one moment. */
    public record Sample(String iface, long bytesIn, long packetsIn, long bytesOut, long packetsOut) {
    }

    /** The interface's counters now, or null when it (or /proc/net/dev) is not there. */
    public static Sample read(String iface) {
        List<String> lines;
        try {
            lines = Files.readAllLines(NET_DEV);
        } catch (IOException e) {
            return null;
        }
        return parse(lines, iface);
    }

    static Sample parse(List<String> lines, String iface) {
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0 || !line.substring(0, colon).trim().equals(iface)) {
                continue;
            }
            String[] f = ProcWords.of(line.substring(colon + 1));
            try {
                // receive: bytes packets errs drop fifo frame compressed multicast; then transmit: bytes packets ...
                return new Sample(iface, Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[8]),
                        Long.parseLong(f[9]));
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * The interface that carries traffic to {@code host} from this machine: the loopback interface for any of
     * the machine's own addresses, otherwise the one the routing table picks (a connected UDP socket sends nothing). Null
     * when it cannot be told.
     */
    public static String interfaceFor(String host) {
        try {
            InetAddress address = InetAddress.getByName(host);
            InetAddress local;
            if (address.isLoopbackAddress() || address.isAnyLocalAddress()
                    || NetworkInterface.getByInetAddress(address) != null) {
                // Linux routes traffic to any of the machine's own addresses over loopback.
                local = InetAddress.getLoopbackAddress();
            } else {
                try (DatagramSocket probe = new DatagramSocket()) {
                    probe.connect(new InetSocketAddress(address, 9));
                    local = probe.getLocalAddress();
                }
            }
            NetworkInterface ni = NetworkInterface.getByInetAddress(local);
            if (ni == null && local.isLoopbackAddress()) {
                return read("lo") != null ? "lo" : null;
            }
            return ni == null ? null : ni.getName();
        } catch (UnknownHostException | SocketException e) {
            return null;
        }
    }
}
