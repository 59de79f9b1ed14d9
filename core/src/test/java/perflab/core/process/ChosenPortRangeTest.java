package perflab.core.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class ChosenPortRangeTest {
    @Test
    void linuxsDefaultRangeLeavesTheTwentyThousandsToPerflab() {
        assertArrayEquals(new int[] {20000, 32767}, ChosenPortRange.outside(new int[] {32768, 60999}));
    }

    @Test
    void aRangeStartingLowSendsPerflabAboveIt() {
        assertArrayEquals(new int[] {50001, 65535}, ChosenPortRange.outside(new int[] {10000, 50000}));
    }

    @Test
    void aRangeCoveringNearlyEverythingLeavesNoRoomAndPerflabChoosesAmongAll() {
        assertArrayEquals(new int[] {1024, 65535}, ChosenPortRange.outside(new int[] {1024, 65000}));
    }

    @Test
    void aChosenPortIsOutsideThisMachinesEphemeralRangeAndBindable() throws Exception {
        int[] ephemeral = ChosenPortRange.ephemeral();
        for (int i = 0; i < 20; i++) {
            int port = LocalSockets.freePort();
            assertTrue(port < ephemeral[0] || port > ephemeral[1] || ChosenPortRange.current()[0] <= 1024,
                    port + " is in the ephemeral range " + ephemeral[0] + "-" + ephemeral[1]);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
    }

    @Test
    void aPortHeldForTcpOrForUdpIsNotChosen() throws Exception {
        try (ServerSocket tcp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             java.net.DatagramSocket udp = new java.net.DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            assertTrue(!LocalSockets.bindableForBoth(tcp.getLocalPort()), "held for TCP");
            assertTrue(!LocalSockets.bindableForBoth(udp.getLocalPort()), "held for UDP");
        }
    }
}
