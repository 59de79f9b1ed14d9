package perflab.experiment.run;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Child process of {@link SutInstancesLaunchTest}: a program that says nothing on stdout, as a proxy does, and binds
 * the loopback ports given as arguments (TCP for the first, UDP for the rest) after a short delay, so that readiness
 * must wait for the bind; exits when its stdin closes.
 */
public final class PortHolder {
    /** First argument: then it also listens on a port of its own choosing and announces it as a SUT does. */
    static final String ANNOUNCE = "--announce";

    public static void main(String[] args) throws Exception {
        boolean announce = args[0].equals(ANNOUNCE);
        if (announce) {
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        Thread.sleep(300);
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket tcp = new ServerSocket(); ServerSocket own = new ServerSocket(0, 1, lo)) {
            tcp.bind(new InetSocketAddress(lo, Integer.parseInt(args[0])));
            DatagramSocket[] udp = new DatagramSocket[args.length - 1];
            for (int i = 1; i < args.length; i++) {
                udp[i - 1] = new DatagramSocket(new InetSocketAddress(lo, Integer.parseInt(args[i])));
            }
            if (announce) {
                System.out.println(perflab.core.sut.SutBootstrap.READY + " port=" + own.getLocalPort());
                System.out.flush();
            }
            while (System.in.read() >= 0) {
                // until perflab closes stdin
            }
            for (DatagramSocket s : udp) {
                s.close();
            }
        }
    }
}
