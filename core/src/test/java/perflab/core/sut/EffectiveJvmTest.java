package perflab.core.sut;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EffectiveJvmTest {
    @Test
    void namesCollectorsFromTheirBeans() {
        assertEquals("g1", EffectiveJvm.collectorOf(List.of("G1 Young Generation", "G1 Old Generation"), false, false));
        assertEquals("parallel", EffectiveJvm.collectorOf(List.of("PS Scavenge", "PS MarkSweep"), false, false));
        assertEquals("serial", EffectiveJvm.collectorOf(List.of("Copy", "MarkSweepCompact"), false, false));
        assertEquals("zgc", EffectiveJvm.collectorOf(List.of("ZGC Cycles", "ZGC Pauses"), true, false));
        assertEquals("zgc-generational", EffectiveJvm.collectorOf(List.of("ZGC Minor Cycles", "ZGC Major Cycles"), true, true));
        assertEquals("shenandoah", EffectiveJvm.collectorOf(List.of("Shenandoah Cycles", "Shenandoah Pauses"), false, false));
    }

    @Test
    void describesThisJvmAsValidJson() throws Exception {
        EffectiveJvm jvm = EffectiveJvm.describe();
        assertTrue(jvm.availableProcessors() >= 1);
        assertEquals(ProcessHandle.current().pid(), jvm.pid());
        EffectiveJvm back = perflab.core.result.Json.MAPPER.readValue(jvm.toJson(), EffectiveJvm.class);
        assertEquals(jvm, back);
    }
}
