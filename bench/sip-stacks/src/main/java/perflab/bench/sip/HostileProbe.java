package perflab.bench.sip;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends a UAS the broken and hostile datagrams of HostileInputTest's first test (workloads/voicemail/sip), plus a few
 * about Via, one at a time, and prints what comes back within 700 ms (the status lines) for each: to compare how
 * perflab's stack and JAIN-SIP RI answer them. Every request is an OPTIONS (which both UAS answer 200) unless the case
 * is about the method. The Via names the probe's real port, so that rport handling does not hide the answers; one
 * case asks for rport with a wrong sent-by port.
 *
 * <p>Usage: HostileProbe PORT
 */
public final class HostileProbe {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        InetSocketAddress uas = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            int me = socket.getLocalPort();
            Map<String, byte[]> cases = new LinkedHashMap<>();
            String good = options("OPTIONS", port, me, "z9hG4bK-good", "good@x");
            cases.put("well-formed OPTIONS", bytes(good));
            cases.put("truncated (first half)", bytes(good.substring(0, good.length() / 2)));
            cases.put("4000 bytes of 'x'", bytes("x".repeat(4000)));
            cases.put("bad start line (no URI)", bytes("OPTIONS  SIP/2.0\r\nVia: SIP/2.0/UDP h\r\n\r\n"));
            cases.put("binary noise", new byte[] {0, 1, 2, 3, (byte) 0xff, 13, 10, 13, 10});
            cases.put("CRLF keep-alive", bytes("\r\n\r\n"));
            cases.put("no Call-ID", bytes(o(port, me, "1").replace("Call-ID: c1@x\r\n", "")));
            cases.put("no From tag", bytes(o(port, me, "2").replace(";tag=f", "")));
            cases.put("two CSeq", bytes(o(port, me, "3").replace("CSeq: 1 OPTIONS\r\n",
                    "CSeq: 1 OPTIONS\r\nCSeq: 2 OPTIONS\r\n")));
            cases.put("Content-Length 50, no body", bytes(o(port, me, "4").replace("Content-Length: 0",
                    "Content-Length: 50")));
            cases.put("CSeq 'one'", bytes(o(port, me, "5").replace("CSeq: 1 OPTIONS", "CSeq: one OPTIONS")));
            cases.put("header line without colon", bytes(o(port, me, "6").replace("Max-Forwards: 70\r\n",
                    "Max-Forwards 70\r\n")));
            cases.put("unknown method FROBNICATE", bytes(options("FROBNICATE", port, me, "z9hG4bK-7", "c7@x")));
            cases.put("REGISTER (not served)", bytes(options("REGISTER", port, me, "z9hG4bK-8", "c8@x")));
            cases.put("a second Via that is garbage", bytes(o(port, me, "9").replace("Max-Forwards: 70\r\n",
                    "Via: garbage\r\nMax-Forwards: 70\r\n")));
            cases.put("top Via garbage", bytes(o(port, me, "10").replaceFirst("Via: [^\r]*", "Via: garbage")));
            cases.put("Via sent-by port 9 with rport", bytes(o(port, me, "11").replace("127.0.0.1:" + me + ";",
                    "127.0.0.1:9;")));
            cases.put("stray 200 OK (no transaction)", bytes("SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 127.0.0.1:" + me
                    + ";branch=z9hG4bK-stray\r\nFrom: <sip:u1@127.0.0.1>;tag=f\r\nTo: <sip:voicemail@127.0.0.1>;tag=t"
                    + "\r\nCall-ID: stray@x\r\nCSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n"));
            cases.put("well-formed OPTIONS again", bytes(options("OPTIONS", port, me, "z9hG4bK-good2", "good2@x")));
            socket.setSoTimeout(700);
            for (Map.Entry<String, byte[]> c : cases.entrySet()) {
                socket.send(new DatagramPacket(c.getValue(), c.getValue().length, uas));
                List<String> answers = new ArrayList<>();
                byte[] buffer = new byte[65536];
                while (true) {
                    DatagramPacket in = new DatagramPacket(buffer, buffer.length);
                    try {
                        socket.receive(in);
                    } catch (SocketTimeoutException e) {
                        break;
                    }
                    String text = new String(in.getData(), 0, in.getLength(), StandardCharsets.UTF_8);
                    answers.add(text.substring(0, Math.max(0, text.indexOf("\r\n"))));
                }
                System.out.printf("%-32s %s%n", c.getKey(), answers.isEmpty() ? "(no answer)" : String.join(", ", answers));
            }
        }
    }

    private static String o(int port, int me, String n) {
        return options("OPTIONS", port, me, "z9hG4bK-h" + n, "c" + n + "@x");
    }

    private static String options(String method, int port, int me, String branch, String callId) {
        return method + " sip:voicemail@127.0.0.1:" + port + " SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:" + me + ";branch=" + branch + ";rport\r\n"
                + "Max-Forwards: 70\r\n"
                + "From: <sip:u1@127.0.0.1>;tag=f\r\n"
                + "To: <sip:voicemail@127.0.0.1>\r\n"
                + "Call-ID: " + callId + "\r\n"
                + "CSeq: 1 " + method + "\r\n"
                + "Content-Length: 0\r\n\r\n";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
