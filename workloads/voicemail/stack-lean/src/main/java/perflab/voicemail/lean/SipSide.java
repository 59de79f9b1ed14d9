package perflab.voicemail.lean;

import perflab.voicemail.lean.replica.PairGrid;
import perflab.voicemail.lean.replica.ReplicationMode;
import perflab.voicemail.lean.replica.SessionReplicas;
import perflab.voicemail.lean.sip.VoiceMailCalls;
import perflab.voicemail.lean.sip.VoiceMailSipConfig;
import perflab.voicemail.sip.TransactionTimers;

/**
 * Opens the SIP side of the application on the SIP stack this stack runs (perflab's own, on Netty UDP), and the
 * replication pair its users' sessions are copied through.
 */
final class SipSide {
    private SipSide() {
    }

    static ConvergedCalls open(VoicemailSettings settings, SessionReplicas replicas) throws Exception {
        return new VoiceMailCalls(new VoiceMailSipConfig(settings.server().host(), settings.sipPort(), settings.phone(),
                settings.line(), settings.notifier(), TransactionTimers.RFC3261, Runtime.getRuntime().availableProcessors(),
                settings.outboundProxy()), replicas);
    }

    /**
     * The instance's half of its replication pair, joined before anything else starts (so that the partner holds
     * the users' copies from their first write); off: none.
     */
    static SessionReplicas replicas(VoicemailSettings.Replication replication) {
        if (replication.mode() == ReplicationMode.OFF) {
            return SessionReplicas.off();
        }
        PairGrid grid = PairGrid.join(replication.pair(), "m" + replication.port(), replication.port(),
                replication.partnerPort());
        return SessionReplicas.through(replication.mode(), grid);
    }
}
