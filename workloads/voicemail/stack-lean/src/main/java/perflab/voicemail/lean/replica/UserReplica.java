package perflab.voicemail.lean.replica;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import perflab.voicemail.sip.DialogState;

/**
 * One user's converged application session as the partner instance keeps it: the web half (the HTTP session the
 * user's browser holds) and the SIP half (where the call stands and its three dialogs: the subscription at the
 * notifier, the phone leg, the voice-mail-line leg). Written as bytes of its own small format (a version byte first),
 * so that the grid carries a {@code byte[]} and needs no schema.
 *
 * @param webSession the HTTP session id the user's browser sends; null: none (a call not started from the web)
 * @param state      where the call stands: {@code PAGE} before the click, else the SIP side's state name
 * @param flags      the SIP side's progress bits (subscription accepted, notified, final NOTIFY seen)
 * @param dialogs    the subscription, phone and line dialogs in that order, null where not (yet) made
 * @param generation how many times the call has moved between the pair's members (0: where it started): a member
 *                   that takes a call over from its copy writes it again one higher at once, and the member that
 *                   served it before, seeing a higher generation than its own, lets it go (a hand-back). A stale write
 *                   from the member that let go carries the lower one and moves nothing.
 */
public record UserReplica(String user, String webSession, String state, int flags, List<DialogState> dialogs,
                          int generation) {
    private static final byte FORMAT = 2;
    /** The state of a user on the page, before any call. */
    public static final String PAGE = "PAGE";
    /** The dialogs a replica has room for: subscription, phone, line. */
    public static final int DIALOGS = 3;

    public UserReplica {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(state, "state");
        if (dialogs.size() != DIALOGS) {
            throw new IllegalArgumentException("a replica has " + DIALOGS + " dialog slots, got " + dialogs.size());
        }
        dialogs = java.util.Collections.unmodifiableList(new ArrayList<>(dialogs));
    }

    /** A call where it started (generation 0). */
    public UserReplica(String user, String webSession, String state, int flags, List<DialogState> dialogs) {
        this(user, webSession, state, flags, dialogs, 0);
    }

    /** The user on the page, no call yet. */
    public static UserReplica page(String user, String webSession) {
        return new UserReplica(user, webSession, PAGE, 0, java.util.Arrays.asList(new DialogState[DIALOGS]));
    }

    /** This copy one generation on: what the member that takes the call over writes at once. */
    public UserReplica movedOn() {
        return new UserReplica(user, webSession, state, flags, dialogs, generation + 1);
    }

    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(user);
            writeNullable(out, webSession);
            out.writeUTF(state);
            out.writeInt(flags);
            out.writeInt(generation);
            for (DialogState d : dialogs) {
                out.writeBoolean(d != null);
                if (d != null) {
                    write(out, d);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("a byte array cannot fail to be written", e);
        }
        return bytes.toByteArray();
    }

    /** Reads what {@link #toBytes()} wrote; a replica from another format or cut short is refused in one line. */
    public static UserReplica fromBytes(byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("a replica in format " + format + ", not " + FORMAT);
            }
            String user = in.readUTF();
            String webSession = readNullable(in);
            String state = in.readUTF();
            int flags = in.readInt();
            int generation = in.readInt();
            List<DialogState> dialogs = new ArrayList<>(DIALOGS);
            for (int i = 0; i < DIALOGS; i++) {
                dialogs.add(in.readBoolean() ? read(in) : null);
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("a replica with " + in.available() + " bytes after its end");
            }
            return new UserReplica(user, webSession, state, flags, dialogs, generation);
        } catch (IOException e) {
            throw new IllegalArgumentException("a replica cut short: " + e.getMessage());
        }
    }

    private static void write(DataOutputStream out, DialogState d) throws IOException {
        out.writeUTF(d.callId());
        out.writeUTF(d.localTag());
        out.writeUTF(d.remoteTag());
        out.writeUTF(d.localAddress());
        out.writeUTF(d.remoteAddress());
        out.writeUTF(d.remoteTarget());
        out.writeShort(d.routes().size());
        for (String route : d.routes()) {
            out.writeUTF(route);
        }
        out.writeLong(d.localCSeq());
        out.writeLong(d.inviteCSeq());
        out.writeLong(d.remoteCSeq());
        out.writeBoolean(d.acked());
    }

    private static DialogState read(DataInputStream in) throws IOException {
        String callId = in.readUTF();
        String localTag = in.readUTF();
        String remoteTag = in.readUTF();
        String localAddress = in.readUTF();
        String remoteAddress = in.readUTF();
        String remoteTarget = in.readUTF();
        int routeCount = in.readUnsignedShort();
        List<String> routes = new ArrayList<>(routeCount);
        for (int i = 0; i < routeCount; i++) {
            routes.add(in.readUTF());
        }
        return new DialogState(callId, localTag, remoteTag, localAddress, remoteAddress, remoteTarget, routes,
                in.readLong(), in.readLong(), in.readLong(), in.readBoolean());
    }

    private static void writeNullable(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
