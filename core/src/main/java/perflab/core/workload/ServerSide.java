package perflab.core.workload;

import java.util.List;
import java.util.Map;

/**
 * The server side of one run as a workload lays it out: the companions perflab starts beside the SUT, and the
 * workload's own settings the SUT gets as {@code --name value} (besides perflab's common server settings).
 * Values may name ports of processes started before the SUT ({@code http://127.0.0.1:{backend.port}}).
 */
public record ServerSide(List<Companion> companions, Map<String, String> sutSettings) {
    public ServerSide {
        companions = List.copyOf(companions);
        sutSettings = Map.copyOf(sutSettings);
        if (companions.stream().map(Companion::name).distinct().count() != companions.size()) {
            throw new IllegalArgumentException("two companions have the same name");
        }
    }

    /** The SUT alone, with these settings. */
    public static ServerSide sutOnly(Map<String, String> sutSettings) {
        return new ServerSide(List.of(), sutSettings);
    }
}
