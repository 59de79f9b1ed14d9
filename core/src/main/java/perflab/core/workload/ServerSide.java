package perflab.core.workload;

import java.util.List;
import java.util.Map;

/**
 * The server side of one run as a workload lays it out: the companions perflab starts beside the SUT, and the
 * workload's own settings the SUT gets as {@code --name value} (besides perflab's common server settings).
 * Values may name ports of processes started before the SUT ({@code http://127.0.0.1:{backend.port}}).
 *
 * @param instanceSettings for a SUT run as several instances: each instance's own settings over
 *                         {@code sutSettings} (its index, its partner), one map per instance; empty when they all
 *                         run with {@code sutSettings} alone
 * @param entry            the process whose {@code port} the driver sends its requests to: the SUT ({@code sut}),
 *                         or, for several instances, the proxy in front of them (a companion started after them;
 *                         one instance, {@code sut-0}, only where the others get their work some other way)
 * @param instanceListens  the loopback ports perflab chooses for each instance before anything starts, by name, so
 *                         that an instance may name a port of one started after it ({@code {sut-1.replica}}: the
 *                         partner a replication pair joins, whichever starts first); empty: none
 */
public record ServerSide(List<Companion> companions, Map<String, String> sutSettings,
                         List<Map<String, String>> instanceSettings, String entry, List<String> instanceListens) {
    public ServerSide {
        companions = List.copyOf(companions);
        sutSettings = Map.copyOf(sutSettings);
        instanceSettings = instanceSettings.stream().map(Map::copyOf).toList();
        instanceListens = List.copyOf(instanceListens);
        if (instanceListens.contains("port")) {
            throw new IllegalArgumentException("an instance announces its own port; perflab chooses only other ones");
        }
        if (companions.stream().map(Companion::name).distinct().count() != companions.size()) {
            throw new IllegalArgumentException("two companions have the same name");
        }
        boolean sutProcess = entry.equals(SutInstances.SUT) || entry.matches("sut-[0-9]+");
        if (!sutProcess && companions.stream().noneMatch(c -> c.name().equals(entry)
                && c.start() == Companion.Start.AFTER_SUT)) {
            throw new IllegalArgumentException("the entry " + entry + " is neither the SUT nor a companion started after it");
        }
    }

    /** Instances that announce all their ports themselves. */
    public ServerSide(List<Companion> companions, Map<String, String> sutSettings,
                      List<Map<String, String>> instanceSettings, String entry) {
        this(companions, sutSettings, instanceSettings, entry, List.of());
    }

    /** The SUT (one instance) and these companions, the driver sending to the SUT. */
    public ServerSide(List<Companion> companions, Map<String, String> sutSettings) {
        this(companions, sutSettings, List.of(), SutInstances.SUT);
    }

    /** The SUT alone, with these settings. */
    public static ServerSide sutOnly(Map<String, String> sutSettings) {
        return new ServerSide(List.of(), sutSettings);
    }

    /** The settings instance {@code index} runs with: the common ones, its own over them. */
    public Map<String, String> settingsOf(int index) {
        if (instanceSettings.isEmpty()) {
            return sutSettings;
        }
        Map<String, String> merged = new java.util.LinkedHashMap<>(sutSettings);
        merged.putAll(instanceSettings.get(index));
        return merged;
    }
}
