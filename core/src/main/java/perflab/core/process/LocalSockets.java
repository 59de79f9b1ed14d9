package perflab.core.process;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a process holds a socket bound to a local port, from /proc: the socket inodes among its open files,
 * looked up in the kernel's UDP and TCP tables. Tells a SIPp that is listening from one that failed to bind.
 */
public final class LocalSockets {
    private static final List<String> TABLES = List.of("/proc/net/udp", "/proc/net/udp6", "/proc/net/tcp", "/proc/net/tcp6");

    private LocalSockets() {
    }

    /**
     * A loopback UDP port free a moment ago, for a SIPp to bind next (a clash shows as its exit before it started).
     * Chosen as {@link #freePort} chooses.
     */
    public static int freeUdpPort() throws IOException {
        return freePort();
    }

    /**
     * A loopback port free a moment ago for both TCP and UDP, for a program perflab starts on a port it chose (a
     * proxy that listens for SIP over UDP and HTTP over TCP, a pair of grid members that name each other's port);
     * a clash shows as the program's exit before it is ready.
     * <p>
     * Chosen at random among the ports the kernel never hands out by itself: below its ephemeral range
     * ({@code ip_local_port_range}). A port taken with a bind to port 0 and released is back in that range, and
     * before the program binds it the kernel may give it to anybody's bind to port 0 or outgoing connection,
     * even one of the program's own (a CI run lost a grid member's port so). A port below the range can only be
     * taken by a program that names it.
     */
    public static int freePort() throws IOException {
        int[] range = ChosenPortRange.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = range[0] + java.util.concurrent.ThreadLocalRandom.current().nextInt(range[1] - range[0] + 1);
            if (bindableForBoth(port)) {
                return port;
            }
        }
        throw new IOException("no loopback port free for both TCP and UDP in 200 tries between " + range[0] + " and "
                + range[1]);
    }

    /** {@code count} different ports as {@link #freePort} chooses them: for programs that name each other's. */
    public static int[] freePorts(int count) throws IOException {
        java.util.Set<Integer> chosen = new java.util.LinkedHashSet<>();
        while (chosen.size() < count) {
            chosen.add(freePort());
        }
        return chosen.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Whether the loopback's {@code port} can be bound now for TCP and for UDP: what {@link #freePort} skips on. */
    static boolean bindableForBoth(int port) {
        try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
             java.net.ServerSocket tcp = new java.net.ServerSocket()) {
            tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** Whether TCP port {@code port} of the loopback can be bound now (no server, on the loopback or every address, holds it). */
    public static boolean tcpFree(int port) {
        try (java.net.ServerSocket tcp = new java.net.ServerSocket()) {
            tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** Whether process {@code pid} holds a socket bound to local port {@code port} (TCP or UDP, IPv4 or IPv6). */
    public static boolean bound(long pid, int port) {
        Set<String> inodes = socketInodes(pid);
        if (inodes.isEmpty()) {
            return false;
        }
        String hexPort = String.format(":%04X", port);
        for (String table : TABLES) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                    if (f.length > 9 && f[1].endsWith(hexPort) && inodes.contains(f[9])) {
                        return true;
                    }
                }
            } catch (IOException e) {
                // a table this kernel lacks (no IPv6): look in the others
            }
        }
        return false;
    }

    private static Set<String> socketInodes(long pid) {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        return inodes;
    }
}
