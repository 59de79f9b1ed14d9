package perflab.experiment.run;

/**
 * A run could not go on: the message is the one line the user sees (what went wrong, what to do); the
 * detail (a log tail) is printed below it.
 */
public class RunFailure extends Exception {
    private final String detail;

    public RunFailure(String message, String detail) {
        super(message);
        this.detail = detail;
    }

    public RunFailure(String message) {
        this(message, null);
    }

    public String detail() {
        return detail;
    }
}
