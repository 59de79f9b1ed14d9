package perflab.core.workload;

import org.junit.jupiter.api.Test;
import perflab.core.traffic.Traffic;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A workload's own settings: values checked and made canonical, defaults filled in by use, strangers refused. */
class WorkloadSettingTest {
    private static final Workload SHOP = new Workload() {
        @Override
        public String name() {
            return "shop";
        }

        @Override
        public String description() {
            return "a test workload";
        }

        @Override
        public List<StackInfo> stacks() {
            return List.of(new StackInfo("jdk", "test", "x", "x.Main"));
        }

        @Override
        public List<OperationInfo> operations() {
            return List.of(new OperationInfo("browse", "test"));
        }

        @Override
        public String servicePath() {
            return "/";
        }

        @Override
        public Traffic traffic(TrafficOptions options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<WorkloadSetting> settings() {
            return List.of(
                    WorkloadSetting.integer("users", 10, 1, 1000, "Users.").asDimension(),
                    WorkloadSetting.size("page-size", "4k", 1024, 1 << 20, "Page size."),
                    WorkloadSetting.choice("mode", "fast", "Mode.", "fast", "slow"),
                    WorkloadSetting.duration("db-timeout", null, Duration.ofMillis(1), Duration.ofSeconds(60), "Timeout.").forServer(),
                    WorkloadSetting.jvmFlags("db-jvm", "-Xmx64m", "Flags."),
                    WorkloadSetting.integer("quotes", 100, 1, 10_000, "Quotes.").forBoth());
        }
    };

    @Test
    void valuesAreCheckedAndMadeCanonical() {
        assertEquals(Map.of("users", "12", "page-size", "8k", "mode", "slow", "db-timeout", "1500ms", "db-jvm", "-Xss1m -Xmx8m"),
                SHOP.checkSettings(Map.of("users", "012", "page-size", "8K", "mode", "SLOW", "db-timeout", "1.5s",
                        "db-jvm", " -Xss1m   -Xmx8m ")));
    }

    @Test
    void badValuesGetOneLineNamingTheFlag() {
        assertEquals("--users must be within 1..1000, got 0",
                assertThrows(IllegalArgumentException.class, () -> SHOP.checkSettings(Map.of("users", "0"))).getMessage());
        assertEquals("--mode: 'medium' is not fast or slow",
                assertThrows(IllegalArgumentException.class, () -> SHOP.checkSettings(Map.of("mode", "medium"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SHOP.checkSettings(Map.of("page-size", "2m")))
                .getMessage().startsWith("--page-size must be within"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SHOP.checkSettings(Map.of("db-timeout", "0ms")))
                .getMessage().startsWith("--db-timeout must be whole milliseconds"));
        assertEquals("--db-jvm: 'Xmx1g' is not a JVM flag (flags start with -)",
                assertThrows(IllegalArgumentException.class, () -> SHOP.checkSettings(Map.of("db-jvm", "Xmx1g"))).getMessage());
    }

    @Test
    void aFlagOfAnotherWorkloadIsRefusedWithTheList() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SHOP.checkSettings(Map.of("payload", "2")));
        assertEquals("--payload is not a setting of workload shop; its settings: --users, --page-size, --mode, "
                + "--db-timeout, --db-jvm, --quotes", e.getMessage());
    }

    @Test
    void defaultsAreFilledInPerUseAndOptionalOnesLeftOut() {
        assertEquals(Map.of("users", "3", "page-size", "4k", "mode", "fast", "quotes", "100"),
                SHOP.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of("users", "3")));
        // db-timeout has no default: absent unless given; quotes is read by both sides
        assertEquals(Map.of("db-jvm", "-Xmx64m", "quotes", "100"), SHOP.resolveSettings(WorkloadSetting.Use.SERVER, Map.of()));
        assertEquals(Map.of("db-timeout", "2000ms", "db-jvm", "-Xmx64m", "quotes", "7"),
                SHOP.resolveSettings(WorkloadSetting.Use.SERVER, Map.of("db-timeout", "2s", "users", "3", "quotes", "7")));
    }

    @Test
    void companionsAreNamedAndEitherAJvmOrAProgram() {
        assertThrows(IllegalArgumentException.class,
                () -> Companion.jvm("sut", "m", "x.Main", List.of(), List.of(), Companion.Start.BEFORE_SUT));
        assertThrows(IllegalArgumentException.class, () -> new Companion("db", "m", "x.Main", List.of(),
                List.of("/bin/true"), List.of(), Companion.Start.BEFORE_SUT, null, Companion.Sampling.PROCESS, null,
                Map.of(), List.of(), null));
        assertThrows(IllegalArgumentException.class, () -> new ServerSide(List.of(
                Companion.program("db", List.of("/bin/true"), Companion.Start.BEFORE_SUT, null),
                Companion.program("db", List.of("/bin/true"), Companion.Start.AFTER_SUT, null)), Map.of()));
    }

    @Test
    void aCompanionIsSampledAloneWithNoRoleUnlessItSaysSo() {
        Companion plain = Companion.program("db", List.of("/bin/true"), Companion.Start.BEFORE_SUT, null);
        assertEquals(Companion.Sampling.PROCESS, plain.sampling());
        assertNull(plain.role());
        assertEquals(Map.of(), plain.settings());

        Map<String, String> declared = new java.util.LinkedHashMap<>();
        declared.put("fsync", "off");
        declared.put("max_connections", "120");
        Companion db = plain.sampledAsTree().as(Companion.Role.DATABASE).withSettings(declared);
        assertEquals(Companion.Sampling.TREE, db.sampling());
        assertEquals(Companion.Role.DATABASE, db.role());
        assertEquals("database", db.role().key());
        assertEquals(List.of("fsync", "max_connections"), List.copyOf(db.settings().keySet()), "kept in the order declared");
        assertEquals(List.of("/bin/true"), db.command());
        assertThrows(UnsupportedOperationException.class, () -> db.settings().put("fsync", "on"));
    }
}
