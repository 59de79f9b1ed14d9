package perflab.driver;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.testsupport.Poll;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Reconnector} on a real event loop, against a closed port and a listening one. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReconnectorTest {
    private final NioEventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("test-reconnector", true));
    private final EventLoop eventLoop = (EventLoop) group.next();
    private final DriverLoop loop = new DriverLoop(eventLoop, new MeasurementWindow(0, 0), "localhost",
            TimeUnit.SECONDS.toNanos(1), new RequestKinds(List.of()));

    @AfterEach
    void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Test
    void failedConnectsBackOffDoublingUpToTheCap() throws Exception {
        Connection c = new Connection(closedPort(), ConnectionPolicy.PERSISTENT);
        onLoop(c::connect);
        // attempts at 0, 10, 30, 70, 150, 310, 630, 1130, 1630 ms: each gap at least the backoff before it, up to
        // the cap (a busy machine only stretches the gaps, which the bound below allows)
        Poll.until("9 connect attempts", Duration.ofSeconds(20), c.attempts::size, n -> n >= 9);
        onLoop(c.reconnector::shutdown);
        List<Long> t = List.copyOf(c.attempts);
        long backoff = Reconnector.MIN_BACKOFF_NANOS;
        for (int i = 1; i < t.size(); i++) {
            assertTrue(t.get(i) - t.get(i - 1) >= backoff, "gap " + i + ": " + (t.get(i) - t.get(i - 1)) / 1e6 + " ms");
            backoff = Math.min(2 * backoff, Reconnector.MAX_BACKOFF_NANOS);
        }
        assertTrue(c.failures.size() >= t.size() - 1, c.failures.toString());
        assertTrue(c.failures.stream().allMatch(m -> m.contains("Connect")), c.failures.toString());
        assertEquals(0, c.connects.availablePermits());
    }

    @Test
    void aPassedResponseResetsTheBackoff() throws Exception {
        Connection c = new Connection(closedPort(), ConnectionPolicy.PERSISTENT);
        c.passAfterFailures = 7; // the backoff is at its 500 ms cap by then; a passed response brings it back to 10 ms
        onLoop(c::connect);
        Poll.until("9 connect attempts", Duration.ofSeconds(20), c.attempts::size, n -> n >= 9);
        onLoop(c.reconnector::shutdown);
        List<Long> t = c.attempts;
        assertTrue(t.get(6) - t.get(5) >= 320_000_000, "the backoff doubled: " + (t.get(6) - t.get(5)) / 1e6 + " ms");
        assertTrue(t.get(7) - t.get(6) < 500_000_000, "reset to 10 ms, not 500: " + (t.get(7) - t.get(6)) / 1e6 + " ms");
        assertTrue(t.get(8) - t.get(7) >= 20_000_000, "doubling again: " + (t.get(8) - t.get(7)) / 1e6 + " ms");
    }

    @Test
    void countsAreThePolicysAndStartAgainOnEachChannel() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0)); // the kernel accepts; nothing is read
            Connection c = new Connection(server.getLocalPort(), new ConnectionPolicy(2));
            Reconnector r = c.reconnector;
            onLoop(c::connect);
            assertTrue(c.connects.tryAcquire(5, TimeUnit.SECONDS));
            Channel first = onLoop(r::channel);
            assertNotNull(first);
            assertTrue(onLoop(r::unanswered));
            assertFalse(onLoop(r::startRequest), "the first of 2 requests");
            assertTrue(onLoop(r::startRequest), "the second of 2 requests is the channel's last");
            assertEquals(2, onLoop(r::requests));
            onLoop(() -> r.responded(false));
            assertFalse(onLoop(r::unanswered), "a failed check is still a response");

            onLoop(() -> {
                Channel left = r.leave();
                assertSame(first, left);
                assertNull(r.channel());
                left.close();
                r.reconnect(false); // at once: no backoff
            });
            assertTrue(c.connects.tryAcquire(5, TimeUnit.SECONDS), () -> c.attempts + " " + c.failures);
            assertTrue(onLoop(r::channel) != first);
            assertEquals(0, onLoop(r::requests));
            assertTrue(onLoop(r::unanswered));
            assertTrue(c.failures.isEmpty(), c.failures.toString());

            onLoop(r::shutdown);
            assertNull(onLoop(r::channel));
            onLoop(() -> r.reconnect(false));
            assertEquals(2, c.attempts.size(), "nothing is opened after shutdown");
        }
    }

    /** The owner side as a connection does it: its own state first, then dial. */
    private final class Connection implements Reconnector.Owner {
        final Reconnector reconnector;
        final List<Long> attempts = new CopyOnWriteArrayList<>();
        final List<String> failures = new CopyOnWriteArrayList<>();
        final Semaphore connects = new Semaphore(0);
        int passAfterFailures;

        Connection(int port, ConnectionPolicy policy) {
            reconnector = new Reconnector(loop, policy, this);
            reconnector.bootstrap(new Bootstrap().group(eventLoop).channel(NioSocketChannel.class)
                    .handler(new Ignore()).remoteAddress("127.0.0.1", port));
        }

        @Override
        public void connect() {
            if (reconnector.mayConnect()) {
                attempts.add(System.nanoTime());
                reconnector.dial();
            }
        }

        @Override
        public void connected() {
            connects.release();
        }

        @Override
        public void connectFailed(String message) {
            failures.add(message);
            if (failures.size() == passAfterFailures) {
                reconnector.responded(true);
            }
        }
    }

    /** The channels' only handler: the tests read nothing. */
    @ChannelHandler.Sharable
    private static final class Ignore extends ChannelInboundHandlerAdapter {
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    private void onLoop(Runnable task) throws Exception {
        onLoop(() -> {
            task.run();
            return null;
        });
    }

    private <T> T onLoop(Callable<T> task) throws Exception {
        return eventLoop.submit(task).get(5, TimeUnit.SECONDS);
    }
}
