package perflab.voicemail.lean.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which key a user's copy goes under; the pair itself is in {@link PairGridKillTest}. */
class CopyKeysTest {
    private final Map<String, byte[]> held = new HashMap<>();

    private CopyKeys keysOwning(Set<String> owned) {
        return new CopyKeys(owned::contains, held::get);
    }

    @Test
    void aNewUsersCopyGoesUnderTheFirstKeyTheWriterOwns() {
        CopyKeys keys = keysOwning(Set.of("u1#3", "u1#5"));
        assertEquals("u1#3", keys.forWrite("u1"));
        assertEquals("u1#3", keys.forWrite("u1"), "the same key for the user's next copies");
    }

    @Test
    void aCopyHeldAlreadyKeepsItsKeyWhoeverOwnsIt() {
        held.put("u1#6", new byte[] {1}); // written by the partner, which owns #6
        CopyKeys keys = keysOwning(Set.of("u1#0"));
        assertEquals("u1#6", keys.forWrite("u1"), "one copy a user: the partner's key is kept");
        assertEquals("u1#6", keys.held("u1"));
    }

    @Test
    void aUserWhoseKeysAreAllThePartnersGoesUnderTheFirstSalt() {
        assertEquals("u1#0", keysOwning(Set.of()).forWrite("u1"));
    }

    @Test
    void aRemovalForgetsTheKeySoTheNextCallPicksAgain() {
        Set<String> owned = new java.util.HashSet<>(Set.of("u1#1"));
        CopyKeys keys = new CopyKeys(owned::contains, held::get);
        assertEquals("u1#1", keys.forWrite("u1"));
        assertEquals("u1#1", keys.forRemoval("u1"));
        owned.add("u1#0"); // the pair changed: the writer owns #0 now
        assertEquals("u1#0", keys.forWrite("u1"));
    }

    @Test
    void aRemovalOfACopyThisMemberNeverWroteFindsItsKey() {
        held.put("u1#4", new byte[] {1});
        assertEquals("u1#4", keysOwning(Set.of()).forRemoval("u1"));
        assertNull(keysOwning(Set.of()).forRemoval("u2"), "no copy, nothing to remove");
    }

    @Test
    void theUserIsTheKeyLessItsSalt() {
        assertEquals("u0000042", CopyKeys.user("u0000042#3"));
        assertEquals("a#b", CopyKeys.user("a#b#0"));
    }
}
