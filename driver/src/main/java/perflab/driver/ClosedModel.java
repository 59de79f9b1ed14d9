package perflab.driver;

import perflab.core.traffic.ErrorKind;

/**
 * The closed model: a client sends its next request as soon as its previous response has arrived (after
 * the think time, if any: the previous request's own, else the run's). Latency is service time: measured from
 * the actual send.
 */
final class ClosedModel implements LoadModel {
    private final MeasurementWindow window;
    private final long thinkNanos;

    ClosedModel(MeasurementWindow window, long thinkNanos) {
        this.window = window;
        this.thinkNanos = thinkNanos;
    }

    @Override
    public void clientReady(Client client, long nowNanos) {
        if (!window.sending()) {
            return;
        }
        long think = client.thinkNanos >= 0 ? client.thinkNanos : thinkNanos;
        if (think > 0 && client.lastCompletionNanos != 0) {
            long wait = client.lastCompletionNanos + think - nowNanos;
            if (wait > 0) {
                client.sendAfter(wait);
                return;
            }
        }
        client.send(nowNanos, nowNanos);
    }

    @Override
    public void connectFailed(Client client, long nowNanos, String message) {
        // The request this client was about to send could not be: it fails, timed from the connect attempt.
        client.failUnsent(ErrorKind.CONNECT, client.connectStartNanos(), message);
    }

    @Override
    public long tick(long nowNanos) {
        return Long.MAX_VALUE;
    }

    @Override
    public boolean open() {
        return false;
    }
}
