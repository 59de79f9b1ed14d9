package perflab.voicemail;

import org.junit.jupiter.api.Test;
import perflab.loadsource.sipp.SippLoad;
import perflab.core.workload.WorkloadSetting;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VoicemailWorkloadTest {
    private final VoicemailWorkload workload = new VoicemailWorkload();

    @Test
    void theSutIsToldWhereEverySippPeerListens() {
        Map<String, String> sut = workload.serverSide(workload.resolveSettings(WorkloadSetting.Use.SERVER,
                Map.of("max-calls", "1000"))).sutSettings();
        assertEquals("1000", sut.get("max-calls"));
        assertEquals("500", sut.get("max-setups"));
        assertEquals("127.0.0.1:{phone.port}", sut.get("phone"));
        assertEquals("127.0.0.1:{line.port}", sut.get("line"));
        assertEquals("127.0.0.1:{notifier.port}", sut.get("notifier"));
        Map<String, String> traffic = workload.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of());
        List<SippLoad> loads = workload.loadSources(traffic).stream().map(SippLoad.class::cast).toList();
        assertEquals(List.of("phone", "line", "notifier"), loads.stream().map(SippLoad::name).toList());
        loads.forEach(l -> assertFalse(l.placesCalls(), l.name() + " only answers"));
        assertTrue(loads.get(0).extra().containsAll(List.of("-inf", UsersFile.NAME, "-infindex")));
    }

    @Test
    void settingsHaveTheStudysDefaultsAndBadValuesAreRefusedInOneLine() {
        Map<String, String> traffic = workload.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of());
        UsersFile users = VoicemailWorkload.usersFile(traffic, 1);
        assertEquals(60_000, users.holdMs());
        assertEquals(100_000, users.size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> workload.checkSettings(Map.of("web-hangup", "1.2")));
        assertTrue(e.getMessage().contains("--web-hangup") && !e.getMessage().contains("\n"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> workload.checkSettings(Map.of("hold", "soon")));
    }
}
