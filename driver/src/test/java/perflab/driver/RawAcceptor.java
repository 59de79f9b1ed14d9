package perflab.driver;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;

/** A test server's accept loop on a bound socket: each connection served on a daemon thread of its own, until closed. */
final class RawAcceptor {
    private RawAcceptor() {
    }

    static void serve(ServerSocket socket, Consumer<Socket> connection) {
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    Thread t = new Thread(() -> connection.accept(s));
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }
}
