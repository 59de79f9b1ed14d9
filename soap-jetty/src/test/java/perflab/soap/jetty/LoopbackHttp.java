package perflab.soap.jetty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** One persistent HTTP/1.1 connection spoken by hand, so a test sees each answer's headers and the close. */
final class LoopbackHttp implements AutoCloseable {
    record Answer(int status, String head, String body) {
        boolean closes() {
            return head.toLowerCase(Locale.ROOT).contains("\r\nconnection: close");
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    LoopbackHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    Answer send(String method, String path, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\nContent-Length: "
                + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(bytes);
        out.write(request.toByteArray()); // one write: the head and body arrive together
        out.flush();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before an answer: " + head);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return new Answer(Integer.parseInt(text.substring(9, 12)), text,
                new String(in.readNBytes(length), StandardCharsets.UTF_8));
    }

    /** Whether the server closed the connection (end of input within the socket timeout). */
    boolean closedByServer() throws IOException {
        return in.read() < 0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
