package perflab.voicemail.lean.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import perflab.voicemail.sip.DialogState;

class UserReplicaTest {
    private static final DialogState PHONE = new DialogState("c1@127.0.0.1", "a1", "b1",
            "<sip:voicemail@127.0.0.1:5070>", "<sip:u0000042@127.0.0.1:5080>", "sip:u0000042@127.0.0.1:5080",
            List.of("<sip:127.0.0.1:5060;lr;vmh=1>"), 2, 1, 1, true);

    @Test
    void aCallComesBackAsItWasWritten() {
        UserReplica call = new UserReplica("u0000042", "node0abc", "CONNECTED", 3, Arrays.asList(null, PHONE, null));
        UserReplica back = UserReplica.fromBytes(call.toBytes());
        assertEquals(call, back);
        assertEquals(PHONE, back.dialogs().get(1));
        assertNull(back.dialogs().get(0));
    }

    @Test
    void aCallTakenOverIsOneGenerationOnAndKeepsItInItsBytes() {
        UserReplica call = new UserReplica("u0000042", "node0abc", "CONNECTED", 3, Arrays.asList(null, PHONE, null));
        assertEquals(0, call.generation(), "where it started");
        UserReplica moved = call.movedOn().movedOn();
        assertEquals(2, moved.generation());
        assertEquals(moved, UserReplica.fromBytes(moved.toBytes()));
        assertEquals(call.dialogs(), moved.dialogs());
    }

    @Test
    void aPageHasNoDialogs() {
        UserReplica page = UserReplica.fromBytes(UserReplica.page("u0000001", "node0x").toBytes());
        assertEquals(UserReplica.PAGE, page.state());
        assertEquals("node0x", page.webSession());
        assertTrue(page.dialogs().stream().allMatch(d -> d == null));
    }

    @Test
    void bytesOfAnotherFormatOrCutShortAreRefused() {
        byte[] good = new UserReplica("u1", null, "CONNECTED", 0, Arrays.asList(PHONE, PHONE, PHONE)).toBytes();
        byte[] otherFormat = good.clone();
        otherFormat[0] = 9;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> UserReplica.fromBytes(otherFormat)).getMessage()
                .contains("format 9"));
        byte[] cut = Arrays.copyOf(good, good.length - 5);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> UserReplica.fromBytes(cut)).getMessage()
                .contains("cut short"));
        byte[] longer = Arrays.copyOf(good, good.length + 2);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> UserReplica.fromBytes(longer)).getMessage()
                .contains("after its end"));
    }

    @Test
    void modesWriteAtTheirMoments() {
        assertTrue(ReplicationMode.EVERY_MESSAGE.writesAt(ReplicationMode.Moment.MESSAGE));
        assertTrue(ReplicationMode.EVERY_MESSAGE.writesAt(ReplicationMode.Moment.SERVICE_END));
        assertTrue(!ReplicationMode.END_OF_SERVICE.writesAt(ReplicationMode.Moment.MESSAGE));
        assertTrue(ReplicationMode.END_OF_SERVICE.writesAt(ReplicationMode.Moment.SERVICE_END));
        assertTrue(!ReplicationMode.OFF.writesAt(ReplicationMode.Moment.SERVICE_END));
        assertEquals(ReplicationMode.END_OF_SERVICE, ReplicationMode.parse("end-of-service"));
        assertEquals("--replication: 'sometimes' is not one of off, end-of-service, every-message",
                assertThrows(IllegalArgumentException.class, () -> ReplicationMode.parse("sometimes")).getMessage());
    }
}
