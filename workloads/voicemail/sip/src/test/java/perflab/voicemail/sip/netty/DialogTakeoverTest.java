package perflab.voicemail.sip.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.DialogState;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.SerialExecutor;
import perflab.voicemail.sip.ServerTransaction;

/**
 * A dialog made on one stack goes on on another from its snapshot, the way a failed instance's partner takes over
 * its users: the peer's next request in it reaches the second stack (a proxy sends it there), which asks the
 * application before answering 481, adopts the copy, serves the request and sends its own with the next CSeq.
 */
class DialogTakeoverTest {
    @Test
    void theSecondStackServesTheFirstOnesDialogFromItsSnapshot() throws Exception {
        DialogState copy;
        String ourTag;
        String callId;
        try (RawPeer notifier = new RawPeer()) {
            try (StackFixture first = new StackFixture(Set.of("NOTIFY"))) {
                ClientTransaction subscribe = first.stack.send(first.request("SUBSCRIBE", notifier, Header.of(
                        "Event", "message-summary", "Expires", "3600"), Body.NONE), new SerialExecutor(first.pool),
                        first.handler);
                String sub = notifier.expect(m -> m.startsWith("SUBSCRIBE "), 2_000, "SUBSCRIBE");
                ourTag = RawPeer.tag(RawPeer.header(sub, "From"));
                callId = RawPeer.header(sub, "Call-ID");
                notifier.send(RawPeer.response(sub, "200 OK", "nt", "Expires: 3600\r\nContact: <sip:u1@127.0.0.1:"
                        + notifier.port() + ">\r\n", ""), first.port());
                assertEquals(200, subscribe.finalResponse().get(2, TimeUnit.SECONDS).status());
                copy = subscribe.dialog().snapshot();
            } // the first instance is gone, its dialog with it

            assertEquals(callId, copy.callId());
            assertEquals(1, copy.localCSeq());
            try (StackFixture second = new StackFixture(Set.of("NOTIFY", "BYE"))) {
                AtomicReference<String> asked = new AtomicReference<>();
                java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean();
                second.stack.strays(user -> {
                    asked.set(user);
                    // the application's copy, adopted once
                    if (!user.equals("voicemail") || !held.compareAndSet(false, true)) {
                        return false;
                    }
                    second.stack.adopt(copy, new SerialExecutor(second.pool), second.handler);
                    return true;
                });
                // the notifier's NOTIFY in the dialog, retargeted to the second instance
                notifier.send(ServerSideTest.request("NOTIFY", second.port(), "z9hG4bK-t1", callId, "nt", ourTag, 2,
                        "Event: message-summary\r\nSubscription-State: active;expires=3599\r\n", ""), second.port());
                ServerTransaction tx = second.nextRequest(2_000);
                assertNotNull(tx, "the NOTIFY reached the application through the adopted dialog");
                assertEquals("voicemail", asked.get(), "asked with the Request-URI's user");
                assertEquals(ourTag, tx.dialog().localTag());
                tx.respond(200, "OK");
                assertTrue(notifier.expect(m -> m.startsWith("SIP/2.0"), 2_000, "answer").startsWith("SIP/2.0 200"));
                assertEquals(1, second.counter("sip.dialogs.adopted"));
                // the second instance ends the subscription in the same dialog, with the CSeq after the first's
                tx.dialog().send("SUBSCRIBE", Header.of("Event", "message-summary", "Expires", "0"), Body.NONE);
                String unsub = notifier.expect(m -> m.startsWith("SUBSCRIBE ") && m.contains("Expires: 0"), 2_000,
                        "unsubscribe");
                assertEquals("2 SUBSCRIBE", RawPeer.header(unsub, "CSeq"));
                assertEquals(ourTag, RawPeer.tag(RawPeer.header(unsub, "From")));
                assertEquals("nt", RawPeer.tag(RawPeer.header(unsub, "To")));
                assertTrue(unsub.startsWith("SUBSCRIBE sip:u1@127.0.0.1:" + notifier.port()), "to the remote target");
                // the same NOTIFY's CSeq again on a new transaction is out of order: the peer's CSeq came along
                notifier.send(ServerSideTest.request("NOTIFY", second.port(), "z9hG4bK-t2", callId, "nt", ourTag, 2,
                        "Event: message-summary\r\nSubscription-State: active\r\n", ""), second.port());
                assertTrue(notifier.expect(m -> m.startsWith("SIP/2.0 5"), 2_000, "500").startsWith("SIP/2.0 500"));
                // a dialog nobody holds a copy of still gets 481
                notifier.send(ServerSideTest.request("BYE", second.port(), "z9hG4bK-t3", "other@x", "f", "t", 5, "",
                        ""), second.port());
                assertTrue(notifier.expect(m -> m.startsWith("SIP/2.0 4"), 2_000, "481").startsWith("SIP/2.0 481"));
            }
        }
    }

    /**
     * An instance back after a failure, whose partner may still serve a dialog it cannot take: the application says
     * so ({@link perflab.voicemail.sip.StrayDialogs#servedElsewhere}) and the stack answers 503 with the reason phrase
     * the proxy's failure route looks for, not 481, which would end the peer's dialog.
     */
    @Test
    void aDialogServedElsewhereIsAnswered503ForTheProxyToTryTheNext() throws Exception {
        try (RawPeer notifier = new RawPeer(); StackFixture back = new StackFixture(Set.of("NOTIFY", "BYE"))) {
            back.stack.strays(new perflab.voicemail.sip.StrayDialogs() {
                @Override
                public boolean adopt(String user) {
                    return false;
                }

                @Override
                public boolean servedElsewhere(String user) {
                    return user.equals("u0000007");
                }
            });
            notifier.send(ServerSideTest.request("NOTIFY", back.port(), "z9hG4bK-e1", "elsewhere@x", "nt", "ours", 2,
                    "Event: message-summary\r\nSubscription-State: active\r\n", "").replace("NOTIFY sip:voicemail@",
                    "NOTIFY sip:u0000007@"), back.port());
            String answer = notifier.expect(m -> m.startsWith("SIP/2.0"), 2_000, "503");
            assertTrue(answer.startsWith("SIP/2.0 503 Dialog Served Elsewhere"), answer);
            assertEquals(1, back.counter("sip.rejected.served-elsewhere"));
            // another user's stray dialog: 481 as before
            notifier.send(ServerSideTest.request("BYE", back.port(), "z9hG4bK-e2", "other@x", "f", "t", 5, "", ""),
                    back.port());
            assertTrue(notifier.expect(m -> m.startsWith("SIP/2.0"), 2_000, "481").startsWith("SIP/2.0 481"));
        }
    }
}
