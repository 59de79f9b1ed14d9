package perflab.voicemail.lean;

import perflab.core.sut.RunningServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.PlainErrorHandler;
import perflab.soap.jetty.SutJettyServer;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.web.VoicemailWeb;

import java.util.Map;

/**
 * The voicemail lean stack's SUT main: the web side ({@link VoicemailWeb}) on Jetty 12 and the SIP side
 * ({@link ConvergedCalls}) on UDP in one JVM, announced as the HTTP port and {@code sip=PORT}. Settings:
 * {@link VoicemailSettings}; process protocol: {@link SutBootstrap}.
 */
public final class VoicemailServer implements RunningServer {
    /** An HTTP session nobody uses expires after this long; a call's end ends its session long before. */
    static final int SESSION_TIMEOUT_SECONDS = 30 * 60;

    private final SutJettyServer jetty;
    private final ConvergedCalls calls;
    private final SessionReplicas replicas;
    private final int port;

    private VoicemailServer(SutJettyServer jetty, ConvergedCalls calls, SessionReplicas replicas, int port) {
        this.jetty = jetty;
        this.calls = calls;
        this.replicas = replicas;
        this.port = port;
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, VoicemailSettings.NAMES, VoicemailServer::start);
    }

    public static VoicemailServer start(SutArgs args) throws Exception {
        return start(VoicemailSettings.from(args));
    }

    /** Starts the SIP side, then the web side; also the entry point for in-process tests. */
    public static VoicemailServer start(VoicemailSettings settings) throws Exception {
        SessionReplicas replicas = SipSide.replicas(settings.replication());
        ConvergedCalls calls;
        try {
            calls = SipSide.open(settings, replicas);
        } catch (Exception | Error e) {
            replicas.close();
            throw e;
        }
        try {
            SutJettyServer jetty = SutJettyServer.create(settings.server(), "sut");
            jetty.server().setErrorHandler(new PlainErrorHandler());
            int port = jetty.start(VoicemailWeb.withSessions(calls, replicas, settings.maxSetups(), settings.maxCalls(),
                    SESSION_TIMEOUT_SECONDS));
            return new VoicemailServer(jetty, calls, replicas, port);
        } catch (Exception | Error e) {
            calls.close(); // a server that does not start leaves no SIP socket and no grid member behind
            replicas.close();
            throw e;
        }
    }

    public ConvergedCalls calls() {
        return calls;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Map<String, Integer> otherPorts() {
        return Map.of("sip", calls.sipPort());
    }

    /** The users' sessions as copied to the partner ({@code --replication}), and the partner's held here. */
    public SessionReplicas replicas() {
        return replicas;
    }

    /** The web side first (no new clicks), then the SIP side, then the replication pair. */
    @Override
    public void stop() throws Exception {
        try {
            jetty.stop();
        } finally {
            try {
                calls.close();
            } finally {
                replicas.close();
            }
        }
    }
}
