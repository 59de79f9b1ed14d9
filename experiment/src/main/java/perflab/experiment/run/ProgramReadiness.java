package perflab.experiment.run;

import perflab.core.server.ServerFile;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/**
 * The probes that tell a program from a server file serves ({@link ServerFile.Ready}), each one try bounded to a
 * second: a server still starting may accept a connection and answer nothing for a while.
 */
final class ProgramReadiness {
    private static final int TRY_MILLIS = 1000;

    private ProgramReadiness() {
    }

    /** Whether {@code ready}'s URL answers a GET with a status in its range now. */
    static boolean answers(ServerFile.Ready ready) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) URI.create(ready.target()).toURL().openConnection();
            c.setConnectTimeout(TRY_MILLIS);
            c.setReadTimeout(TRY_MILLIS);
            c.setInstanceFollowRedirects(false);
            int status = c.getResponseCode();
            InputStream body = status >= 400 ? c.getErrorStream() : c.getInputStream();
            if (body != null) {
                body.close();
            }
            return status >= ready.minStatus() && status <= ready.maxStatus();
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    /** Whether a connection to {@code port} on loopback is accepted now. */
    static boolean accepts(Integer port) {
        if (port == null) {
            return false;
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), TRY_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** What perflab waited for, for a message: "http://127.0.0.1:8080/ answering 200-399". */
    static String describe(ServerFile.Ready ready) {
        return switch (ready.kind()) {
            case HTTP -> ready.target() + " answering " + ready.minStatus() + "-" + ready.maxStatus();
            case LINE -> "a line of its output matching " + ready.target();
            case TCP -> "its port " + ready.target() + " open";
        };
    }
}
