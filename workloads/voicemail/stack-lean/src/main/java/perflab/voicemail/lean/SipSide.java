package perflab.voicemail.lean;

import perflab.voicemail.lean.sip.VoiceMailCalls;
import perflab.voicemail.lean.sip.VoiceMailSipConfig;
import perflab.voicemail.sip.TransactionTimers;

/** Opens the SIP side of the application on the SIP stack this stack runs (perflab's own, on Netty UDP). */
final class SipSide {
    private SipSide() {
    }

    static ConvergedCalls open(VoicemailSettings settings) throws Exception {
        return new VoiceMailCalls(new VoiceMailSipConfig(settings.server().host(), settings.sipPort(), settings.phone(),
                settings.line(), settings.notifier(), TransactionTimers.RFC3261, Runtime.getRuntime().availableProcessors(),
                settings.outboundProxy()));
    }
}
