package perflab.experiment.study;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One configuration of an experiment, before it becomes a run configuration: its settings by the CLI's names.
 *
 * @param label    its directory name: unique in the experiment, file-system safe, ordered ("03-gc-g1-heap-1g")
 * @param name     what it is in words ("gc=g1 heap=1g", a step's name, "rate=2000")
 * @param settings everything the runs use: the experiment's shared settings plus this configuration's
 * @param varied   what makes it this configuration (matrix values; steps: everything added up to this step)
 * @param added    steps: the settings this step added; null otherwise
 */
public record Variant(int index, String label, String name, Map<String, String> settings,
                      Map<String, String> varied, Map<String, String> added) {
    public Variant {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        varied = Collections.unmodifiableMap(new LinkedHashMap<>(varied));
        added = added == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(added));
    }
}
