package perflab.soapecho.lean;

import perflab.core.sut.RunningServer;

/** Reads the lean stack's metrics line from the cxf module's interop test (its Running type is package-private). */
public final class LeanMetrics {
    private LeanMetrics() {
    }

    public static String summaryLine(RunningServer server) {
        return ((LeanSoapEchoServer.Running) server).metrics().summaryLine();
    }
}
