package perflab.voicemail;

/**
 * The web side's paths and the markers its pages carry, shared by the SUT and the traffic so that a page is
 * checked for exactly what the server promises. A user's pages sit under {@code /voicemail/users/{id}}.
 */
public final class VoicemailPages {
    /** The service path: where a browser starts. */
    public static final String BASE = "/voicemail";
    public static final String USERS = BASE + "/users/";
    /** The click "check voice mail": subscribes and connects the phone to the voice-mail line. */
    public static final String CHECK = "/check";
    /** The web hang-up. */
    public static final String HANGUP = "/hangup";
    /** The SUT's counters as JSON. */
    public static final String STATS = BASE + "/stats";
    /** The HTTP session's cookie. */
    public static final String SESSION_COOKIE = "VMSESSION";

    /** On the user's page: {@code data-user="u0000042"}. */
    public static final String USER_MARKER = "data-user=\"";
    /** On the click's answer when both legs are up. */
    public static final String CALL_UP = "data-call=\"up\"";
    /** On the hang-up's answer when both legs are down. */
    public static final String CALL_DOWN = "data-call=\"down\"";
    /** How many seconds a refused click is told to wait (503's Retry-After). */
    public static final int RETRY_AFTER_SECONDS = 5;

    private VoicemailPages() {
    }

    public static String page(String user) {
        return USERS + user;
    }
}
