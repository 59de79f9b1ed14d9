package perflab.loadsource.sipp;

/** What a SIPp 3.6 exit status means, in one line (`sipp -h`, "Exit codes", and what this version does). */
public final class SippExit {
    private SippExit() {
    }

    public static String explain(int status) {
        return switch (status) {
            case 0 -> "all calls succeeded";
            case 1 -> "at least one call failed (or SIPp could not load its scenario: see its .err file)";
            case 97 -> "SIPp exited on an internal command, or reached its -timeout before any call succeeded";
            case 99 -> "SIPp exited normally without processing a call";
            case 254 -> "SIPp could not bind its socket: the local port is in use or the address is not this machine's";
            case 255 -> "SIPp stopped on a fatal error (see its .err file)";
            default -> status > 128 && status < 160
                    ? "SIPp was killed by signal " + (status - 128) + (status == 137 ? " (SIGKILL)" : "")
                    : "SIPp exited with an unexpected status " + status;
        };
    }

}
