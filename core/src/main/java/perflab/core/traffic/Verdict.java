package perflab.core.traffic;

/** The outcome of checking one response. {@link #OK} is shared so that the success path allocates nothing. */
public final class Verdict {
    public static final Verdict OK = new Verdict(null, null);

    private final ErrorKind kind;
    private final String message;

    private Verdict(ErrorKind kind, String message) {
        this.kind = kind;
        this.message = message;
    }

    public static Verdict fail(ErrorKind kind, String message) {
        if (kind == null) {
            throw new IllegalArgumentException("a failed verdict needs an error kind");
        }
        return new Verdict(kind, message);
    }

    public boolean ok() {
        return kind == null;
    }

    /** Null when ok. */
    public ErrorKind kind() {
        return kind;
    }

    public String message() {
        return message;
    }

    @Override
    public String toString() {
        return ok() ? "OK" : kind.jsonName() + ": " + message;
    }
}
