package perflab.trade.lean.data;

import perflab.trade.lean.TradeInput;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Function;

/**
 * Passwords as stored in accountprofile.passwd: a salted PBKDF2WithHmacSHA256 hash, never the password (DayTrader
 * stored it in clear). Stored as {@code pbkdf2-sha256:<iterations>:<salt>:<hash>}, Base64, so that a later change
 * of the iteration count still verifies old rows.
 */
public final class Passwords {
    private Passwords() {
    }

    /**
     * A benchmark's trade-off: a login costs about 0.2 ms of CPU at this count, small beside a page, where a
     * production system would use 600,000 (OWASP 2023) and make every login cost the SUT more than its pages.
     */
    static final int ITERATIONS = 1_000;
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final String PREFIX = "pbkdf2-sha256";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom SALTS = new SecureRandom();
    /** Verified against when the user does not exist, so that a wrong user id costs as long as a wrong password. */
    private static final String DECOY = hash("decoy");

    public static String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        SALTS.nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder();
        return PREFIX + ":" + ITERATIONS + ":" + b64.encodeToString(salt) + ":"
                + b64.encodeToString(derive(password, salt, ITERATIONS));
    }

    /** Whether {@code password} matches the stored hash, compared in constant time; false for a malformed hash. */
    public static boolean matches(String password, String stored) {
        String[] parts = stored == null ? new String[0] : stored.split(":");
        if (parts.length != 4 || !parts[0].equals(PREFIX)) {
            matchNothing(password);
            return false;
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] expected = Base64.getDecoder().decode(parts[3]);
            if (iterations < 1 || salt.length == 0 || expected.length == 0) {
                return false;
            }
            return MessageDigest.isEqual(expected, derive(password, salt, iterations));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A login's password check, the same in every data access mode: a user id or password too long for its column,
     * an unknown user (checked against a decoy, so that it takes a known user's time) or a wrong password is false.
     * {@code storedHash} reads the user's hash in a transaction of its own, so that the hashing, a login's CPU time,
     * does not hold a pooled connection.
     */
    public static boolean verify(String userId, String password, Function<String, Optional<String>> storedHash) {
        if (!TradeInput.isUserId(userId) || password == null || password.length() > TradeInput.MAX_TEXT) {
            return false; // no user has such an id: the database is not asked (a NUL would fail PostgreSQL's query)
        }
        Optional<String> hash = storedHash.apply(userId);
        if (hash.isEmpty()) {
            matchNothing(password);
            return false;
        }
        return matches(password, hash.get());
    }

    /** Spends the time of a check for a user that does not exist. */
    public static void matchNothing(String password) {
        matches(password, DECOY);
    }

    private static byte[] derive(String password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JDK", e);
        } finally {
            spec.clearPassword();
        }
    }
}
