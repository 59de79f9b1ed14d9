package perflab.example.ring;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ring example's SIP side: a stateless user agent server on UDP that answers every INVITE with 200 OK (the
 * same To tag for a retransmitted INVITE, so the caller sees one dialog), absorbs the ACK, answers BYE and
 * OPTIONS with 200 and any other request with 501. Enough for SIPp's built-in uac scenario; not a SIP stack (no
 * transactions, no timers: the voicemail workload has those). A datagram that is not a SIP request with Via,
 * From, To, Call-ID and CSeq is dropped and counted.
 */
final class SipResponder implements AutoCloseable {
    /** The largest UDP payload; anything longer was cut by the kernel and is malformed. */
    private static final int MAX_DATAGRAM = 65_507;
    private static final Set<String> REQUIRED = Set.of("via", "from", "to", "call-id", "cseq");

    private final DatagramSocket socket;
    private final Thread loop;
    private final Set<String> openCalls = ConcurrentHashMap.newKeySet();
    final AtomicLong invites = new AtomicLong();
    final AtomicLong byes = new AtomicLong();
    final AtomicLong acks = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();

    SipResponder(String host) throws SocketException {
        this.socket = new DatagramSocket(new InetSocketAddress(host, 0));
        this.loop = new Thread(this::serve, "sip-responder");
        loop.setDaemon(true);
        loop.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    int openCalls() {
        return openCalls.size();
    }

    private void serve() {
        byte[] buffer = new byte[MAX_DATAGRAM + 1];
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        while (!socket.isClosed()) {
            try {
                packet.setLength(buffer.length);
                socket.receive(packet);
                byte[] answer = answer(new String(buffer, 0, packet.getLength(), StandardCharsets.ISO_8859_1));
                if (answer != null) {
                    socket.send(new DatagramPacket(answer, answer.length, packet.getSocketAddress()));
                }
            } catch (IOException e) {
                if (!socket.isClosed()) {
                    dropped.incrementAndGet(); // a send to a peer that went away: the next datagram is served as usual
                }
            }
        }
    }

    /** The response to one datagram, or null when nothing is sent back (an ACK, a response, something malformed). */
    byte[] answer(String message) {
        int end = message.indexOf("\r\n\r\n");
        String[] lines = (end < 0 ? message : message.substring(0, end)).split("\r\n");
        String[] start = lines[0].split(" ");
        if (start.length != 3 || !start[2].equals("SIP/2.0") || !start[0].matches("[A-Z]{2,16}")) {
            dropped.incrementAndGet(); // a response, or not SIP: a stateless server answers neither
            return null;
        }
        List<String> vias = new ArrayList<>();
        String from = null;
        String to = null;
        String callId = null;
        String cseq = null;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = canonical(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT));
            String value = lines[i].substring(colon + 1).trim();
            switch (name) {
                case "via" -> vias.add(value);
                case "from" -> from = value;
                case "to" -> to = value;
                case "call-id" -> callId = value;
                case "cseq" -> cseq = value;
                default -> { }
            }
        }
        if (vias.isEmpty() || from == null || to == null || callId == null || cseq == null) {
            dropped.incrementAndGet();
            return null;
        }
        String method = start[0];
        int status = 200;
        switch (method) {
            case "INVITE" -> {
                if (openCalls.add(callId)) {
                    invites.incrementAndGet();
                }
            }
            case "ACK" -> {
                acks.incrementAndGet();
                return null;
            }
            case "BYE" -> {
                if (openCalls.remove(callId)) {
                    byes.incrementAndGet();
                }
            }
            case "OPTIONS" -> { }
            default -> status = 501;
        }
        StringBuilder r = new StringBuilder("SIP/2.0 ").append(status).append(status == 200 ? " OK" : " Not Implemented")
                .append("\r\n");
        vias.forEach(v -> r.append("Via: ").append(v).append("\r\n"));
        r.append("From: ").append(from).append("\r\n");
        // the tag comes from the Call-ID: a retransmitted INVITE gets the same dialog
        r.append("To: ").append(to).append(to.contains(";tag=") ? "" : ";tag=r" + Integer.toHexString(callId.hashCode()))
                .append("\r\n");
        r.append("Call-ID: ").append(callId).append("\r\nCSeq: ").append(cseq).append("\r\n");
        if (method.equals("INVITE")) {
            r.append("Contact: <sip:ring@").append(socket.getLocalAddress().getHostAddress()).append(':').append(port())
                    .append(">\r\n");
        }
        r.append("Content-Length: 0\r\n\r\n");
        return r.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** RFC 3261's compact header names, in full. */
    private static String canonical(String name) {
        return switch (name) {
            case "v" -> "via";
            case "f" -> "from";
            case "t" -> "to";
            case "i" -> "call-id";
            default -> REQUIRED.contains(name) ? name : "";
        };
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        loop.join(5000);
    }
}
