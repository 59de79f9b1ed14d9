package perflab.voicemail.sip.netty;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import perflab.testsupport.Poll;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.NewRequest;
import perflab.voicemail.sip.RequestHandler;
import perflab.voicemail.sip.ServerTransaction;
import perflab.voicemail.sip.SipRequest;
import perflab.voicemail.sip.SipStackConfig;
import perflab.voicemail.sip.TransactionTimers;

/**
 * A stack on loopback with T1 = 50 ms (so Timer B/F/J are 3.2 s) and a handler that queues what the application
 * receives, for tests to answer and count.
 */
final class StackFixture implements AutoCloseable {
    static final long T1 = 50;
    static final long TIMEOUT = 64 * T1;
    final ExecutorService pool = Executors.newFixedThreadPool(2);
    final BlockingQueue<ServerTransaction> requests = new LinkedBlockingQueue<>();
    final BlockingQueue<SipRequest> acks = new LinkedBlockingQueue<>();
    final NettySipStack stack;
    final RequestHandler handler = new RequestHandler() {
        @Override
        public void onRequest(ServerTransaction transaction) {
            requests.add(transaction);
        }

        @Override
        public void onAck(Dialog dialog, SipRequest ack) {
            acks.add(ack);
        }
    };

    StackFixture(Set<String> allowed) {
        this(allowed, 16 * 1024);
    }

    StackFixture(Set<String> allowed, int maxDatagram) {
        stack = NettySipStack.open(SipStackConfig.of("127.0.0.1", 0, allowed, pool, handler)
                .withTimers(TransactionTimers.scaled(Duration.ofMillis(T1))).withMaxDatagram(maxDatagram));
    }

    int port() {
        return stack.localAddress().getPort();
    }

    ServerTransaction nextRequest(long millis) throws InterruptedException {
        return requests.poll(millis, TimeUnit.MILLISECONDS);
    }

    NewRequest request(String method, RawPeer peer, List<Header> headers, Body body) {
        InetSocketAddress to = peer.address();
        return new NewRequest(method, "sip:u1@127.0.0.1:" + to.getPort(), "sip:voicemail@127.0.0.1:" + port(),
                "sip:u1@127.0.0.1:" + to.getPort(), to, headers, body);
    }

    long counter(String name) {
        return stack.counters().getOrDefault(name, 0L);
    }

    Map<String, Long> counters() {
        return stack.counters();
    }

    /**
     * Waits until every transaction, dialog and pending subscription has left the tables, failing after
     * {@code millis}. The callers' bounds are the SIP timers' (Timer J, K...) plus a margin, so they stay what they
     * were: a wider one would let a transaction that outlives its timer pass.
     *
     * @param by what should have emptied them ("Timer J"), for the failure message
     */
    void awaitEmptyTables(long millis, String by) throws InterruptedException {
        Poll.until("the tables to empty (" + by + ")", Duration.ofMillis(millis),
                () -> new Tables(stack.tableSizes(), stack.counters()), t -> t.sizes().equals(List.of(0, 0, 0, 0)));
    }

    /** Client and server transactions, dialogs and pending subscriptions; the counters to read a failure by. */
    private record Tables(List<Integer> sizes, Map<String, Long> counters) {
    }

    @Override
    public void close() {
        stack.close();
        pool.shutdownNow();
    }
}
