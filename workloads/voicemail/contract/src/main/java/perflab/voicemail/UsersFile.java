package perflab.voicemail;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;

/**
 * The population both load sources share: user {@code i}'s id, how the call ends and how long it is held. perflab's
 * HTTP driver plays the users' browsers from it and the SIPp phone reads it (SIPp's {@code -inf}, indexed on the id),
 * so the two sides agree on every user without talking. Users are taken in order and the population wraps around:
 * it must be larger than the users alive at once (the driver checks it: {@code UserRange}).
 *
 * <p>The file is SIPp's injection format: {@code SEQUENTIAL}, then one line per user, {@code id;hangup;holdMs},
 * for example {@code u0000042;web;60000}. It is a pure function of (size, web share, hold, seed), so the driver
 * computes the same users the file holds ({@link #user}) instead of reading it back.
 */
public final class UsersFile {
    /** The name of the file in the run directory, where SIPp runs. */
    public static final String NAME = "users.csv";
    /** The phone hangs up after the hold (it sends BYE). */
    public static final String PHONE = "phone";
    /** The user's page hangs up after the hold (HTTP GET .../hangup, the application sends BYE to the phone). */
    public static final String WEB = "web";

    /** One user. */
    public record User(int index, String id, boolean webHangup, long holdMs) {
        public String hangup() {
            return webHangup ? WEB : PHONE;
        }

        /** The user's line in the file. */
        public String line() {
            return id + ';' + hangup() + ';' + holdMs;
        }
    }

    private final int size;
    private final double webShare;
    private final long holdMs;
    private final long seed;

    /**
     * @param size     how many users (at least 1)
     * @param webShare the share of users whose call the page ends (0..1), the others' the phone ends
     * @param holdMs   how long each call is held, in milliseconds
     * @param seed     the run's seed: which users end their call from the page
     */
    public UsersFile(int size, double webShare, long holdMs, long seed) {
        if (size < 1) {
            throw new IllegalArgumentException("the users file needs at least one user, got " + size);
        }
        if (!(webShare >= 0 && webShare <= 1)) {
            throw new IllegalArgumentException("the web hang-up share is between 0 and 1, got " + webShare);
        }
        if (holdMs < 0) {
            throw new IllegalArgumentException("the hold is 0 ms or more, got " + holdMs);
        }
        this.size = size;
        this.webShare = webShare;
        this.holdMs = holdMs;
        this.seed = seed;
    }

    public int size() {
        return size;
    }

    public long holdMs() {
        return holdMs;
    }

    /** The user id of index {@code i}: fixed width, so every page and SIP message of a user has the same length. */
    public static String id(int i) {
        return String.format("u%07d", i);
    }

    /** User {@code i mod size}: the {@code i}-th arrival. */
    public User user(long arrival) {
        int i = (int) Math.floorMod(arrival, (long) size);
        // a hash of (seed, i), not a shared random stream: any user can be computed alone, in any order
        boolean web = new SplittableRandom(seed ^ (i * 0x9E3779B97F4A7C15L)).nextDouble() < webShare;
        return new User(i, id(i), web, holdMs);
    }

    /** Writes the file atomically (a temporary file, then a rename). */
    public void write(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII)) {
            w.write("SEQUENTIAL\n");
            for (int i = 0; i < size; i++) {
                w.write(user(i).line());
                w.write('\n');
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
