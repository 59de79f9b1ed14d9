package perflab.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetworkCountersTest {
    private static final int TEN_MB = 10 * 1024 * 1024;

    @Test
    void loopbackCountsAKnownTransferOnBothSides() throws Exception {
        assertEquals("lo", NetworkCounters.interfaceFor("127.0.0.1"));
        assertEquals("lo", NetworkCounters.interfaceFor("localhost"));
        RunMonitor monitor = new RunMonitor(-1, "lo");
        long start = System.currentTimeMillis();
        NetworkCounters.Sample before = NetworkCounters.read("lo");
        assertNotNull(before);
        monitor.sample();
        transfer(TEN_MB);
        NetworkCounters.Sample after = NetworkCounters.read("lo");
        Thread.sleep(5);
        monitor.sample();
        long end = System.currentTimeMillis();
        // other processes use loopback too: at least the transfer, never less
        assertTrue(after.bytesIn() - before.bytesIn() >= TEN_MB, "in " + (after.bytesIn() - before.bytesIn()));
        assertTrue(after.bytesOut() - before.bytesOut() >= TEN_MB, "out " + (after.bytesOut() - before.bytesOut()));
        assertTrue(after.packetsIn() > before.packetsIn());

        RunMonitor.Window w = monitor.window(start, end);
        assertEquals("lo", w.network().iface());
        double seconds = (end - start) / 1000.0;
        assertTrue(w.network().bytesInPerSec() * seconds >= TEN_MB * 0.99, w.toString());
        assertTrue(w.network().bytesOutPerSec() * seconds >= TEN_MB * 0.99, w.toString());
        assertTrue(w.network().packetsOutPerSec() > 0, w.toString());
        assertNull(w.sut());
    }

    @Test
    void parsesProcNetDev() {
        List<String> lines = List.of(
                "Inter-|   Receive                                                |  Transmit",
                " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed",
                "    lo: 25492922407 30691742    0    0    0     0          0         0 25492922407 30691742    0    0    0     0       0          0",
                "  eth0:1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0");
        NetworkCounters.Sample lo = NetworkCounters.parse(lines, "lo");
        assertEquals(25492922407L, lo.bytesIn());
        assertEquals(30691742L, lo.packetsOut());
        NetworkCounters.Sample eth = NetworkCounters.parse(lines, "eth0");
        assertEquals(new NetworkCounters.Sample("eth0", 1000, 10, 2000, 20), eth);
        assertNull(NetworkCounters.parse(lines, "wlan0"));
        assertNull(NetworkCounters.read("no-such-interface"));
    }

    private static void transfer(int bytes) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                    byte[] buf = new byte[64 * 1024];
                    long n = 0;
                    for (int r = in.read(buf); r >= 0; r = in.read(buf)) {
                        n += r;
                    }
                    return n;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                 OutputStream out = s.getOutputStream()) {
                byte[] chunk = new byte[64 * 1024];
                for (int sent = 0; sent < bytes; sent += chunk.length) {
                    out.write(chunk);
                }
            }
            assertEquals(bytes, received.get(30, TimeUnit.SECONDS));
        }
    }
}
