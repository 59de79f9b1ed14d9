package perflab.scenario;

import perflab.core.workload.FileConversion;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** {@code perflab scenario from-har}: a browser's recording (HAR 1.2) made a scenario file ({@link HarImport}). */
final class HarConversion implements FileConversion {
    static final String NO_THINK = "no-think";

    @Override
    public String name() {
        return "from-har";
    }

    @Override
    public String[] description() {
        return new String[] {"Make a scenario file from a browser's recording (HAR 1.2: developer tools, Network, "
                + "Save all as HAR): one step per request of the application, static assets and other hosts left "
                + "out, values the server gave and the browser sent back extracted, pauses kept as think times.",
                "Example: perflab scenario from-har visit.har -o visit.yaml; perflab run visit.yaml --target URL"};
    }

    @Override
    public String inputLabel() {
        return "FILE.har";
    }

    @Override
    public Map<String, String> switches() {
        return Map.of(NO_THINK, "Leave the recording's pauses out: each session goes as fast as the server answers "
                + "(default: each pause of 100 ms or more is the step's think time).");
    }

    @Override
    public String convert(Path input, String name, Set<String> switches) throws IOException {
        return HarImport.toScenario(input, name, !switches.contains(NO_THINK));
    }
}
