package perflab.voicemail.lean.sip;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.RequestHandler;
import perflab.voicemail.sip.ServerTransaction;
import perflab.voicemail.sip.SipRequest;
import perflab.voicemail.sip.SipStackConfig;
import perflab.voicemail.sip.TransactionTimers;
import perflab.voicemail.sip.netty.NettySipStack;

/**
 * The three SIPp peers of docs/workloads/voicemail.md played by Java UAS on perflab's own stack, on loopback, with
 * what they saw kept for the tests: the phone (answers 180 and 200 with an offer; hangs up itself {@link #phoneHold}
 * after the ACK for users in {@link #phoneHangsUp}, once per add, and keeps its BYEs' answers in
 * {@link #phoneByeAnswers}), the voice-mail line (200 with an answer), the notifier (200 and NOTIFY, NOTIFY first
 * when {@link #notifyFirst}).
 */
public final class TestPeers implements AutoCloseable {
    static final long T1 = 50;
    static final String OFFER = "v=0\r\no=phone 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
            + "m=audio 6000 RTP/AVP 0\r\n";
    static final String ANSWER = "v=0\r\no=line 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
            + "m=audio 7000 RTP/AVP 0\r\n";
    static final String SUMMARY = "Messages-Waiting: yes\r\nMessage-Account: sip:u@127.0.0.1\r\n"
            + "Voice-Message: 4/0 (0/0)\r\n";

    final ExecutorService pool = Executors.newFixedThreadPool(2);
    final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    public final NettySipStack phone;
    public final NettySipStack line;
    public final NettySipStack notifier;
    public final Set<String> phoneHangsUp = ConcurrentHashMap.newKeySet();
    /** How long the phone holds a call before its BYE: short for tests of one call, the hold for load tests. */
    public volatile Duration phoneHold = Duration.ofMillis(100);
    /** The final status of each BYE the phone sent, -1 when it got none: in-dialog requests are never refused. */
    public final ConcurrentLinkedQueue<Integer> phoneByeAnswers = new ConcurrentLinkedQueue<>();
    /**
     * Users whose next INVITE the phone leaves unanswered (once each), holding the set-up at that step: as if the
     * phone's answers went to an instance that died, which a test then stops.
     */
    public final Set<String> phoneSilentOnce = ConcurrentHashMap.newKeySet();
    /** The same for the voice-mail line's INVITE (its Request-URI's user, {@code voicemail}): the phone leg is up, not ACKed. */
    public final Set<String> lineSilentOnce = ConcurrentHashMap.newKeySet();
    volatile boolean notifyFirst;
    volatile int lineStatus = 200;
    final ConcurrentLinkedQueue<String> phoneAcks = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> lineOffers = new ConcurrentLinkedQueue<>();
    public final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();

    public TestPeers() {
        TransactionTimers timers = TransactionTimers.scaled(Duration.ofMillis(T1));
        phone = open(Set.of("INVITE", "ACK", "BYE"), new Phone(), timers);
        line = open(Set.of("INVITE", "ACK", "BYE"), new Line(), timers);
        notifier = open(Set.of("SUBSCRIBE", "NOTIFY"), new Notifier(), timers);
    }

    private NettySipStack open(Set<String> allowed, RequestHandler handler, TransactionTimers timers) {
        return NettySipStack.open(SipStackConfig.of("127.0.0.1", 0, allowed, pool, handler).withTimers(timers));
    }

    public String address(NettySipStack stack) {
        return "127.0.0.1:" + stack.localAddress().getPort();
    }

    private static String user(SipRequest request) {
        String uri = request.requestUri();
        return uri.substring(uri.indexOf(':') + 1, uri.indexOf('@'));
    }

    private final class Phone implements RequestHandler {
        @Override
        public void onRequest(ServerTransaction tx) {
            String method = tx.request().method();
            seen.add("phone " + method);
            if (method.equals("INVITE")) {
                if (phoneSilentOnce.remove(user(tx.request()))) {
                    return;
                }
                tx.respond(180, "Ringing");
                tx.respond(200, "OK", Header.of("Contact", "<sip:" + user(tx.request()) + "@"
                        + address(phone) + ">"), Body.of("application/sdp", OFFER));
            } else {
                tx.respond(200, "OK");
            }
        }

        @Override
        public void onAck(Dialog dialog, SipRequest ack) {
            phoneAcks.add(new String(ack.body()));
            // removed, not just read: an ACK re-sent for our retransmitted 200 must not send a second BYE
            if (phoneHangsUp.remove(user(ack))) {
                later.schedule(() -> dialog.send("BYE", List.of(), Body.NONE).finalResponse().whenComplete(
                        (answer, failure) -> phoneByeAnswers.add(failure == null ? answer.status() : -1)),
                        phoneHold.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    private final class Line implements RequestHandler {
        @Override
        public void onRequest(ServerTransaction tx) {
            String method = tx.request().method();
            seen.add("line " + method);
            if (method.equals("INVITE")) {
                if (lineSilentOnce.remove(user(tx.request()))) {
                    return;
                }
                lineOffers.add(new String(tx.request().body()) + "|" + tx.request().contentType());
                if (lineStatus != 200) {
                    tx.respond(lineStatus, "Busy Here");
                    return;
                }
                tx.respond(200, "OK", List.of(), Body.of("application/sdp", ANSWER));
            } else {
                tx.respond(200, "OK");
            }
        }
    }

    private final class Notifier implements RequestHandler {
        @Override
        public void onRequest(ServerTransaction tx) {
            SipRequest request = tx.request();
            seen.add("notifier " + request.method() + " Expires: " + request.header("Expires"));
            if (!request.method().equals("SUBSCRIBE")) {
                tx.respond(200, "OK");
                return;
            }
            if (!"message-summary".equals(request.header("Event"))
                    || !"application/simple-message-summary".equals(request.header("Accept"))) {
                tx.respond(489, "Bad Event");
                return;
            }
            Header contact = new Header("Contact", "<sip:" + user(request) + "@" + address(notifier) + ">");
            List<Header> ok = List.of(new Header("Expires", request.header("Expires")), contact);
            if ("0".equals(request.header("Expires"))) {
                tx.respond(200, "OK", ok, Body.NONE);
                notify(tx.dialog(), "terminated;reason=timeout", contact);
            } else if (notifyFirst) {
                Dialog dialog = tx.acceptDialog();
                notify(dialog, "active;expires=3600", contact).finalResponse()
                        .whenComplete((r, e) -> tx.respond(200, "OK", ok, Body.NONE));
            } else {
                tx.respond(200, "OK", ok, Body.NONE);
                notify(tx.dialog(), "active;expires=3600", contact);
            }
        }

        private perflab.voicemail.sip.ClientTransaction notify(Dialog dialog, String state, Header contact) {
            return dialog.send("NOTIFY", List.of(new Header("Event", "message-summary"),
                    new Header("Subscription-State", state), contact),
                    Body.of("application/simple-message-summary", SUMMARY));
        }
    }

    @Override
    public void close() {
        phone.close();
        line.close();
        notifier.close();
        later.shutdownNow();
        pool.shutdownNow();
    }
}
