package perflab.bench.sip;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.RequestHandler;
import perflab.voicemail.sip.ServerTransaction;
import perflab.voicemail.sip.SipRequest;
import perflab.voicemail.sip.SipStackConfig;
import perflab.voicemail.sip.netty.NettySipStack;

/**
 * A stateful UAS on perflab's NettySipStack, for SIPp's built-in uac: INVITE gets 180 then 200 with an SDP answer
 * (the stack itself sends 100 Trying at once), the ACK is absorbed, BYE gets 200, OPTIONS 200. Callbacks run on a
 * fixed pool of WORKERS threads, each Call-ID serialised on it, as the voicemail server runs them.
 *
 * <p>Usage: NettyUas PORT [WORKERS]
 */
public final class NettyUas {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "uas-worker");
            t.setDaemon(true);
            return t;
        });
        Body answer = Body.of("application/sdp", Uas.SDP);
        RequestHandler handler = new RequestHandler() {
            @Override
            public void onRequest(ServerTransaction tx) {
                switch (tx.request().method()) {
                    case "INVITE" -> {
                        Uas.count("INVITE");
                        tx.respond(180, "Ringing");
                        tx.respond(200, "OK", List.of(), answer);
                    }
                    case "BYE" -> {
                        Uas.count("BYE");
                        tx.respond(200, "OK");
                    }
                    case "OPTIONS" -> tx.respond(200, "OK");
                    default -> tx.respond(405, "Method Not Allowed");
                }
            }

            @Override
            public void onAck(Dialog dialog, SipRequest ack) {
                Uas.count("ACK");
            }
        };
        NettySipStack stack = NettySipStack.open(SipStackConfig.of("127.0.0.1", port,
                Set.of("INVITE", "ACK", "BYE", "OPTIONS"), pool, handler));
        Uas.serve("netty", stack.localAddress().getPort(), () -> {
            System.out.println("netty stack counters " + stack.counters());
            stack.close();
        });
    }
}
