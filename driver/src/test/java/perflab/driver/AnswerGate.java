package perflab.driver;

import io.netty.channel.EventLoopGroup;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds a test server's first answers until a given number wait: a test that needs every client's request in
 * flight at once (all connections open, all streams of a connection used) gets it by construction, whatever the
 * machine's speed, instead of by a stall that is long enough only on a quiet machine. Its state lives on the
 * server's one event loop; the test's calls are handed to that loop.
 */
final class AnswerGate {
    private final EventLoopGroup serverLoop;
    private int holdUntilWaiting;
    private final List<Runnable> held = new ArrayList<>();

    /** {@code serverLoop}: the server's group, of one event loop. */
    AnswerGate(EventLoopGroup serverLoop) {
        this.serverLoop = serverLoop;
    }

    /** The first answers wait until {@code requests} of them are waiting, then all go at once. */
    void holdFirst(int requests) {
        serverLoop.submit(() -> holdUntilWaiting = requests).syncUninterruptibly();
    }

    /** On the server's loop: answers now, or later if the gate holds it. */
    void answer(Runnable respond) {
        if (holdUntilWaiting > 0) {
            held.add(respond);
            if (held.size() >= holdUntilWaiting) {
                holdUntilWaiting = 0;
                release();
            }
        } else {
            respond.run();
        }
    }

    private void release() {
        List<Runnable> all = new ArrayList<>(held);
        held.clear();
        all.forEach(Runnable::run);
    }
}
