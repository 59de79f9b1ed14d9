package perflab.core.workload;

import java.util.Map;

/**
 * A named set of flags that reproduces a study's run rule ({@code perflab run trade --preset trade2}: 100 clients,
 * 500,000 requests). The flags are perflab's own (clients, requests, duration, warmup, ...) or the workload's
 * settings, by name without dashes; a flag given on the command line wins over the preset's.
 */
public record Preset(String name, String description, Map<String, String> flags) {
    public Preset {
        if (!name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("a preset's name is a lower-case word, got '" + name + "'");
        }
        flags = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(flags));
    }
}
