package perflab.driver;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

import java.util.concurrent.TimeUnit;

/**
 * The channels of one driver connection, one after another; the part of (re)connecting that
 * {@link ClientConnection} (HTTP/1.1) and {@link H2Connection} (h2c) share. Here live: the current channel and
 * the attempt that opens it (the bootstrap's connect timeout bounds an attempt), the connection policy's count of
 * requests on a channel, the count of responses on it, and when the next channel is opened: at once, or after a
 * backoff when a connect failed or a channel died before any response. Nothing is opened after {@link #shutdown}
 * or once the window stops sending. What a channel carries, what counts as connected (h2c: the server's SETTINGS)
 * and when to leave a channel are the owner's. Used on the connection's event loop only.
 */
final class Reconnector implements ChannelFutureListener {
    /** Reconnect backoff after a failed connect or a connection that died before any response: no spinning. */
    static final long MIN_BACKOFF_NANOS = 10_000_000;
    static final long MAX_BACKOFF_NANOS = 500_000_000;

    /** The connection whose channels these are. */
    interface Owner {
        /** Opens a channel: checks {@link #mayConnect}, sets its own state, then {@link #dial}s. */
        void connect();

        /** The attempt connected; {@link #channel} is the new channel, its counts start at 0. */
        void connected();

        /**
         * The attempt failed ({@code message} for the error samples, null when none is wanted) and its channel is
         * forgotten; the next attempt follows after the backoff.
         */
        void connectFailed(String message);
    }

    private final MeasurementWindow window;
    private final DriverLoop loop;
    private final ConnectionPolicy policy;
    private final Owner owner;
    private final Runnable connectTask;
    private Bootstrap bootstrap;

    private Channel channel;
    private boolean closed;
    private long connectStartNanos;
    private long backoffNanos = MIN_BACKOFF_NANOS;
    private int requestsOnChannel;
    private int completedOnChannel;

    Reconnector(DriverLoop loop, ConnectionPolicy policy, Owner owner) {
        this.loop = loop;
        this.window = loop.window;
        this.policy = policy;
        this.owner = owner;
        this.connectTask = owner::connect;
    }

    void bootstrap(Bootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** The current channel: connecting, open, or null between channels. */
    Channel channel() {
        return channel;
    }

    /** When the current connection attempt started. */
    long connectStartNanos() {
        return connectStartNanos;
    }

    /** Not shut down, and the window still sends: a new channel may be opened. */
    boolean mayConnect() {
        return !closed && window.sending();
    }

    /** Starts an attempt; the owner has set its state first, as the attempt may complete at once. */
    void dial() {
        connectStartNanos = System.nanoTime();
        ChannelFuture f = bootstrap.connect();
        channel = f.channel();
        f.addListener(this);
    }

    @Override
    public void operationComplete(ChannelFuture f) {
        if (f.channel() != channel) {
            return; // an attempt we have given up on
        }
        if (f.isSuccess()) {
            requestsOnChannel = 0;
            completedOnChannel = 0;
            owner.connected();
        } else {
            channel = null;
            owner.connectFailed(window.wantsErrorSamples() ? Client.describe(f.cause()) : null);
            reconnect(true);
        }
    }

    /** Forgets the current channel, which the caller closes (its late events are then ignored as stale). */
    Channel leave() {
        Channel ch = channel;
        channel = null;
        return ch;
    }

    /** Opens the next channel: at once, or after the backoff, which doubles with each use up to its cap. */
    void reconnect(boolean backoff) {
        if (!mayConnect()) {
            return;
        }
        if (backoff) {
            loop.eventLoop.schedule(connectTask, backoffNanos, TimeUnit.NANOSECONDS);
            backoffNanos = Math.min(backoffNanos * 2, MAX_BACKOFF_NANOS);
        } else {
            owner.connect();
        }
    }

    /** Counts a request started on the current channel; true when the connection policy makes it the last. */
    boolean startRequest() {
        boolean last = policy.lastOnConnection(requestsOnChannel + 1L);
        requestsOnChannel++;
        return last;
    }

    /** Requests started on the current channel. */
    int requests() {
        return requestsOnChannel;
    }

    /** A response arrived on the current channel; one that passed its check shows the server works: no backoff. */
    void responded(boolean ok) {
        completedOnChannel++;
        if (ok) {
            backoffNanos = MIN_BACKOFF_NANOS;
        }
    }

    /** No response yet on the current channel: if it dies now, the next one waits for the backoff. */
    boolean unanswered() {
        return completedOnChannel == 0;
    }

    /** Closes the current channel for good (end of run); nothing is opened after. */
    void shutdown() {
        closed = true;
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
