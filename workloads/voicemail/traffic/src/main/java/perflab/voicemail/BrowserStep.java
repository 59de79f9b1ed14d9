package perflab.voicemail;

/** One request a user's browser is due to send: the page, the click, the web hang-up. */
record BrowserStep(long dueNanos, Kind kind, Visit visit) implements Comparable<BrowserStep> {
    enum Kind { PAGE, CHECK, HANGUP }

    @Override
    public int compareTo(BrowserStep o) {
        return Long.compare(dueNanos, o.dueNanos);
    }
}
