package perflab.voicemail.lean.replica;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * When a user's session is copied to the partner instance (seed 004's two replication moments, {@code --replication}).
 * The services are the user's page, the click (subscription and both call legs up) and the hang-up; the messages are
 * every SIP request and ACK the instance sends for the user, and each answer that moves the call on.
 */
public enum ReplicationMode {
    /** No copy: a failed instance's users lose their calls. */
    OFF,
    /**
     * A copy when a service is done: the page shown, the call connected; the copy goes when the call is over. A
     * call set up when its instance fails is lost; a call on hold goes on at the partner.
     */
    END_OF_SERVICE,
    /**
     * A copy before every message the instance sends for the user and at every step of the call; messages that leave
     * together, on one event, go after one copy (the first NOTIFY's 200 and the phone's INVITE).
     */
    EVERY_MESSAGE;

    /** {@code off}, {@code end-of-service}, {@code every-message}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static ReplicationMode parse(String value) {
        for (ReplicationMode mode : values()) {
            if (mode.label().equals(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--replication: '" + value + "' is not one of "
                + Arrays.stream(values()).map(ReplicationMode::label).collect(Collectors.joining(", ")));
    }

    /** Whether a copy is written at this moment. */
    public boolean writesAt(Moment moment) {
        return switch (this) {
            case OFF -> false;
            case END_OF_SERVICE -> moment == Moment.SERVICE_END;
            case EVERY_MESSAGE -> true;
        };
    }

    /** When the application offers a copy. */
    public enum Moment {
        /** A message is about to go out, or the call moved on. */
        MESSAGE,
        /** A service is done (the page, the click). */
        SERVICE_END
    }
}
