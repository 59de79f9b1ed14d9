package perflab.voicemail.lean.replica;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** For the replication tests: a loopback TCP port free now, for a pair grid member to bind. */
public final class FreePorts {
    private FreePorts() {
    }

    public static int loopback() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
