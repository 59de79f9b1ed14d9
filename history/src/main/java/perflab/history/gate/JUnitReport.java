package perflab.history.gate;

import perflab.core.result.AtomicFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The verdict as JUnit XML ({@code --junit FILE}), the format every CI server shows as tests: one test case per
 * objective and per regression check, a missed objective or a regression a failure with the figures in its message.
 */
public final class JUnitReport {
    private JUnitReport() {
    }

    /** A run's verdict. */
    public static void write(Path file, String suite, GateVerdict v) throws IOException {
        Cases cases = new Cases();
        cases.add("", v);
        cases.write(file, suite);
    }

    /** An experiment's verdict: each configuration's cases named after it; an unmeasured one is a failed case. */
    public static void write(Path file, String suite, ExperimentVerdict v) throws IOException {
        Cases cases = new Cases();
        for (ExperimentVerdict.Configuration c : v.configurations()) {
            if (c.gate() == null) {
                cases.add("perflab.measured", c.title(), "no complete run: nothing to judge", null);
            } else {
                cases.add(c.title() + ": ", c.gate());
            }
        }
        cases.write(file, suite);
    }

    /** The test cases written so far and how many failed. */
    private static final class Cases {
        private final StringBuilder xml = new StringBuilder();
        private int tests;
        private int failures;

        void add(String prefix, GateVerdict v) {
            for (GateVerdict.ObjectiveResult r : v.objectives()) {
                add("perflab.slo", prefix + r.objective(), r.met() ? null : r.note(), r.note());
            }
            for (RegressionCheck.Finding f : v.regressions()) {
                add("perflab.regression", prefix + f.figure(), f.regression() ? f.describe() : null, f.describe());
            }
        }

        void add(String className, String name, String failure, String out) {
            tests++;
            failures += failure == null ? 0 : 1;
            xml.append(testCase(className, name, failure, out));
        }

        void write(Path file, String suite) throws IOException {
            String doc = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + String.format(Locale.ROOT, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\">%n",
                    escape(suite), tests, failures)
                    + xml + "</testsuite>\n";
            AtomicFiles.write(file, doc.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String testCase(String className, String name, String failure, String out) {
        StringBuilder s = new StringBuilder("  <testcase classname=\"").append(escape(className)).append("\" name=\"")
                .append(escape(name)).append("\"");
        if (failure == null) {
            return s.append(">\n    <system-out>").append(escape(out)).append("</system-out>\n  </testcase>\n").toString();
        }
        return s.append(">\n    <failure message=\"").append(escape(failure)).append("\"/>\n  </testcase>\n").toString();
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t') {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
