package perflab.scenario;

import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadFileKind;

import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** Scenario files (docs/scenarios.md): the user's own HTTP traffic, declared in YAML. */
public final class ScenarioFileKind implements WorkloadFileKind {
    /** A scenario file's first key, at the start of a line (after comments and blank lines). */
    private static final Pattern FIRST_KEY = Pattern.compile("\\A(?:\\s*(?:#[^\\n]*)?\\n)*(?:---\\s*\\n)?scenario\\s*:");

    @Override
    public String name() {
        return "scenario";
    }

    @Override
    public boolean declares(String text) {
        return FIRST_KEY.matcher(text.startsWith("\uFEFF") ? text.substring(1) : text).find();
    }

    @Override
    public Workload read(Path file, String shown) throws IOException {
        return new ScenarioWorkload(ScenarioReader.read(file, shown));
    }

    @Override
    public java.util.List<perflab.core.workload.FileConversion> conversions() {
        return java.util.List.of(new HarConversion());
    }
}
