package perflab.experiment.study;

import org.junit.jupiter.api.Test;
import perflab.core.config.ExperimentSpec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class VariantsTest {
    private static ExperimentSpec spec(Map<String, String> base, Map<String, List<String>> matrix,
                                       List<ExperimentSpec.Step> steps, ExperimentSpec.RateSweep sweep) {
        return new ExperimentSpec("t", null, "soap-echo", base, 3, matrix, steps, sweep, null);
    }

    @Test
    void matrixIsEveryCombinationFirstSettingOutermost() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("gc", List.of("parallel", "g1", "zgc"));
        m.put("heap", List.of("256m", "1g"));
        List<Variant> v = Variants.of(spec(Map.of("clients", "16"), m, List.of(), null));
        assertEquals(6, v.size());
        assertEquals(List.of("gc=parallel heap=256m", "gc=parallel heap=1g", "gc=g1 heap=256m", "gc=g1 heap=1g",
                "gc=zgc heap=256m", "gc=zgc heap=1g"), v.stream().map(Variant::name).toList());
        assertEquals("03-gc-g1-heap-256m", v.get(2).label());
        assertEquals(Map.of("clients", "16", "gc", "g1", "heap", "256m"), v.get(2).settings());
        assertEquals(Map.of("gc", "g1", "heap", "256m"), v.get(2).varied());
        assertNull(v.get(2).added());
    }

    @Test
    void stepsAccumulateAndJvmFlagsAddUp() {
        List<ExperimentSpec.Step> steps = List.of(
                new ExperimentSpec.Step("defaults", Map.of()),
                new ExperimentSpec.Step("heap and collector", new LinkedHashMap<>(Map.of("heap", "1g"))),
                new ExperimentSpec.Step("huge pages", Map.of("jvm", "-XX:+UseTransparentHugePages")),
                new ExperimentSpec.Step(null, Map.of("server-threads", "200", "heap", "2g")));
        List<Variant> v = Variants.of(spec(Map.of("jvm", "-Xss512k"), Map.of(), steps, null));
        assertEquals(4, v.size());
        assertEquals("01-defaults", v.get(0).label());
        assertEquals(Map.of("jvm", "-Xss512k"), v.get(0).settings());
        assertEquals(Map.of("jvm", "-Xss512k", "heap", "1g"), v.get(1).settings());
        assertEquals("-Xss512k -XX:+UseTransparentHugePages", v.get(2).settings().get("jvm"));
        assertEquals(Map.of("heap", "1g", "jvm", "-XX:+UseTransparentHugePages"), v.get(2).varied());
        assertEquals(Map.of("jvm", "-XX:+UseTransparentHugePages"), v.get(2).added());
        // the last step keeps the earlier ones, replaces the heap
        assertEquals("2g", v.get(3).settings().get("heap"));
        assertEquals("-Xss512k -XX:+UseTransparentHugePages", v.get(3).settings().get("jvm"));
        assertEquals("200", v.get(3).settings().get("server-threads"));
    }

    @Test
    void rateSweepIsOneConfigurationPerRate() {
        List<Variant> v = Variants.of(spec(Map.of("clients", "32"), Map.of(), List.of(),
                new ExperimentSpec.RateSweep(List.of("500", "1k", "2000"))));
        assertEquals(List.of("rate=500", "rate=1k", "rate=2000"), v.stream().map(Variant::name).toList());
        assertEquals("1k", v.get(1).settings().get("rate"));
        assertEquals("32", v.get(1).settings().get("clients"));
    }

    @Test
    void noPlanIsOneConfiguration() {
        List<Variant> v = Variants.of(spec(Map.of("heap", "1g"), Map.of(), List.of(), null));
        assertEquals(1, v.size());
        assertEquals("01-baseline", v.get(0).label());
    }

    @Test
    void labelsAreFileSystemSafe() {
        assertEquals("jvm-XX-MaxGCPauseMillis-400-XX-+ParallelRefProcEnabled",
                Variants.safe("jvm=-XX:MaxGCPauseMillis=400 -XX:+ParallelRefProcEnabled"));
        assertEquals("java-home-usr-lib-jvm-temurin-25-jdk-amd64", Variants.safe("java-home=/usr/lib/jvm/temurin-25-jdk-amd64"));
    }

    @Test
    void runsAreInterleavedAcrossConfigurations() {
        assertEquals(List.of(new ExperimentRunner.Slot(0, 1), new ExperimentRunner.Slot(1, 1), new ExperimentRunner.Slot(2, 1),
                        new ExperimentRunner.Slot(0, 2), new ExperimentRunner.Slot(1, 2), new ExperimentRunner.Slot(2, 2)),
                ExperimentRunner.order(3, 2));
    }
}
