package perflab.example.ring;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The ring example's one outgoing call: to the phone it was told of ({@code --phone 127.0.0.1:P}, a SIPp that only
 * answers, which perflab starts before the SUT), placed once as the SUT starts: INVITE, its 200, ACK, BYE, its 200.
 * Just enough UAC for SIPp's built-in uas scenario (the requests are resent every 500 ms until answered); not a SIP
 * stack.
 */
final class PhoneCall {
    private static final Duration RESEND = Duration.ofMillis(500);

    private PhoneCall() {
    }

    /** Places the call; throws IOException with a one-line reason when the phone does not answer within {@code max}. */
    static void place(String host, InetSocketAddress phone, Duration max) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(host, 0))) {
            socket.setSoTimeout((int) RESEND.toMillis());
            String local = host + ":" + socket.getLocalPort();
            String remote = phone.getHostString() + ":" + phone.getPort();
            String callId = "ring-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + "@" + host;
            String from = "<sip:ring@" + local + ">;tag=ring" + socket.getLocalPort();
            String to = "<sip:phone@" + remote + ">";
            long deadline = System.nanoTime() + max.toNanos();
            String ok = exchange(socket, phone, request("INVITE", remote, local, "1", from, to, callId), "INVITE", deadline);
            String answeredTo = header(ok, "To");
            send(socket, phone, request("ACK", remote, local, "1", from, answeredTo, callId));
            exchange(socket, phone, request("BYE", remote, local, "2", from, answeredTo, callId), "BYE", deadline);
        }
    }

    private static String request(String method, String remote, String local, String cseq, String from, String to,
                                  String callId) {
        return method + " sip:phone@" + remote + " SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP " + local + ";branch=z9hG4bK-ring-" + method.toLowerCase(java.util.Locale.ROOT) + "-"
                + Long.toHexString(System.nanoTime()) + "\r\n"
                + "Max-Forwards: 70\r\nFrom: " + from + "\r\nTo: " + to + "\r\nCall-ID: " + callId + "\r\n"
                + "CSeq: " + cseq + " " + method + "\r\nContact: <sip:ring@" + local + ">\r\nContent-Length: 0\r\n\r\n";
    }

    /** Sends {@code message} until a final response to {@code method} comes; returns it if it is a 200. */
    private static String exchange(DatagramSocket socket, InetSocketAddress phone, String message, String method,
                                   long deadline) throws IOException {
        byte[] buffer = new byte[65_536];
        while (System.nanoTime() < deadline) {
            send(socket, phone, message);
            long resendAt = System.nanoTime() + RESEND.toNanos();
            while (System.nanoTime() < resendAt) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                } catch (SocketTimeoutException e) {
                    break;
                }
                String response = new String(buffer, 0, packet.getLength(), StandardCharsets.ISO_8859_1);
                String[] start = response.split("\r\n", 2)[0].split(" ");
                if (start.length < 2 || !start[0].equals("SIP/2.0") || !header(response, "CSeq").endsWith(" " + method)
                        || start[1].startsWith("1")) {
                    continue; // a provisional response, or one to an earlier request
                }
                if (!start[1].equals("200")) {
                    throw new IOException("the phone at " + phone.getHostString() + ":" + phone.getPort() + " answered the " + method + " with " + start[1]);
                }
                return response;
            }
        }
        throw new IOException("the phone at " + phone.getHostString() + ":" + phone.getPort() + " did not answer the " + method + " (is it listening?)");
    }

    private static void send(DatagramSocket socket, InetSocketAddress phone, String message) throws IOException {
        byte[] bytes = message.getBytes(StandardCharsets.ISO_8859_1);
        socket.send(new DatagramPacket(bytes, bytes.length, phone));
    }

    private static String header(String message, String name) {
        for (String line : message.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return "";
    }
}
