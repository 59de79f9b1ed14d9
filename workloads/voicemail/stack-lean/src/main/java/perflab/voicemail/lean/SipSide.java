package perflab.voicemail.lean;

/** Opens the SIP side of the application on the SIP stack this stack runs. */
final class SipSide {
    private SipSide() {
    }

    static ConvergedCalls open(VoicemailSettings settings) throws Exception {
        throw new UnsupportedOperationException("the SIP side lands with perflab.voicemail.lean.sip");
    }
}
