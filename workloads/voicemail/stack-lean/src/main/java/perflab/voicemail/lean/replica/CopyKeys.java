package perflab.voicemail.lean.replica;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which key of the pair's cache holds a user's copy: the user's id and a salt ({@code u0000042#3}), the salt picked
 * when the user's copy is first written so that the key's primary owner is the member writing it. A replicated cache
 * sends a write through the key's primary owner: written under a key the partner owns, a copy crosses the loopback
 * twice (to the partner, which applies it and sends it back) and is applied on both members by their receiving
 * threads; under a key the writer owns it crosses once. The grid alone spent about a third less CPU a copy so
 * (bench/voicemail-copy-cost.sh: 97-107 µs against 152-195 for keys the partner owns, docs/BENCHMARKS.md).
 * <p>
 * A key once used for a user is kept while a copy of the user is held, whoever writes it: a member taking a user over
 * finds the copy's key ({@link #held}) and writes there, so that one user never has two copies. After a change of
 * the pair (a member lost or back), a kept key may be owned by the other member: its writes then cost what a
 * partner-owned key's do, and are as correct.
 */
final class CopyKeys {
    /**
     * Salts tried for a key this member owns: each is one with even odds (two members, segments split evenly), so
     * 8 all owned by the partner is 1 user in 256, whose copy then goes under the first salt.
     */
    static final int SALTS = 8;

    private final Predicate<String> primaryHere;
    private final Function<String, byte[]> heldHere;
    /** The key each user's copy is written under by this member, while it holds one. */
    private final ConcurrentHashMap<String, String> keys = new ConcurrentHashMap<>();

    /**
     * @param primaryHere whether this member is a key's primary owner now
     * @param heldHere    the value held here under a key, read locally; null: none
     */
    CopyKeys(Predicate<String> primaryHere, Function<String, byte[]> heldHere) {
        this.primaryHere = primaryHere;
        this.heldHere = heldHere;
    }

    /** The key to write {@code user}'s copy under: the one already used for it, or a new one this member owns. */
    String forWrite(String user) {
        return keys.computeIfAbsent(user, u -> {
            String held = find(u);
            return held != null ? held : owned(u);
        });
    }

    /**
     * The key under which a copy of {@code user} is held here now (written by either member), remembered for this
     * member's writes; null when none is.
     */
    String held(String user) {
        String key = find(user);
        if (key != null) {
            keys.put(user, key);
        }
        return key;
    }

    /** The key of {@code user}'s copy, forgotten here: the copy is about to be removed. Null when none is held. */
    String forRemoval(String user) {
        String key = keys.remove(user);
        return key != null ? key : find(user);
    }

    /** The user whose copy {@code key} holds. */
    static String user(String key) {
        int hash = key.lastIndexOf('#');
        return hash < 0 ? key : key.substring(0, hash);
    }

    private String find(String user) {
        for (int salt = 0; salt < SALTS; salt++) {
            String key = key(user, salt);
            if (heldHere.apply(key) != null) {
                return key;
            }
        }
        return null;
    }

    private String owned(String user) {
        for (int salt = 0; salt < SALTS; salt++) {
            String key = key(user, salt);
            if (primaryHere.test(key)) {
                return key;
            }
        }
        return key(user, 0);
    }

    private static String key(String user, int salt) {
        return user + '#' + salt;
    }
}
