package perflab.voicemail.sip.netty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A SIP peer made of a bare UDP socket on loopback: it sends exactly the bytes a test writes, broken or not. */
final class RawPeer implements AutoCloseable {
    private final DatagramSocket socket;

    RawPeer() {
        try {
            socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return socket.getLocalPort();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port());
    }

    void send(String message, int port) {
        send(message.getBytes(StandardCharsets.UTF_8), port);
    }

    void send(byte[] bytes, int port) {
        try {
            socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next datagram, or null after {@code millis}. */
    String receive(long millis) {
        byte[] buffer = new byte[65536];
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        try {
            socket.setSoTimeout((int) Math.max(1, millis));
            socket.receive(packet);
            return new String(buffer, 0, packet.getLength(), StandardCharsets.UTF_8);
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first datagram that matches within {@code millis}, skipping others; fails when none comes. */
    String expect(Predicate<String> match, long millis, String what) {
        long end = System.nanoTime() + millis * 1_000_000;
        for (int i = 0; i < 10_000; i++) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            String message = receive(left);
            if (message != null && match.test(message)) {
                return message;
            }
        }
        throw new AssertionError("no " + what + " within " + millis + " ms");
    }

    /** Every datagram that comes within {@code millis}. */
    List<String> collect(long millis) {
        List<String> all = new ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000;
        for (int i = 0; i < 10_000; i++) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            String message = receive(left);
            if (message != null) {
                all.add(message);
            }
        }
        return all;
    }

    static String header(String message, String name) {
        for (String line : message.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    static String tag(String headerValue) {
        int i = headerValue.indexOf(";tag=");
        if (i < 0) {
            return null;
        }
        int end = headerValue.indexOf(';', i + 5);
        return headerValue.substring(i + 5, end < 0 ? headerValue.length() : end);
    }

    static String startLine(String message) {
        return message.substring(0, message.indexOf("\r\n"));
    }

    static String body(String message) {
        return message.substring(message.indexOf("\r\n\r\n") + 4);
    }

    /** A response to {@code request} as a peer writes it: Via, From, Call-ID, CSeq copied, To with {@code toTag}. */
    static String response(String request, String status, String toTag, String extra, String body) {
        String to = header(request, "To");
        if (toTag != null && tag(to) == null) {
            to = to + ";tag=" + toTag;
        }
        return "SIP/2.0 " + status + "\r\n"
                + "Via: " + header(request, "Via") + "\r\n"
                + "From: " + header(request, "From") + "\r\n"
                + "To: " + to + "\r\n"
                + "Call-ID: " + header(request, "Call-ID") + "\r\n"
                + "CSeq: " + header(request, "CSeq") + "\r\n"
                + extra
                + (body.isEmpty() ? "" : "Content-Type: application/sdp\r\n")
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    @Override
    public void close() {
        socket.close();
    }
}
