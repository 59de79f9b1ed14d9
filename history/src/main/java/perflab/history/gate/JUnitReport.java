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

    public static void write(Path file, String suite, GateVerdict v) throws IOException {
        StringBuilder cases = new StringBuilder();
        int failures = 0;
        for (GateVerdict.ObjectiveResult r : v.objectives()) {
            failures += r.met() ? 0 : 1;
            cases.append(testCase("perflab.slo", r.objective(), r.met() ? null : r.note(), r.note()));
        }
        for (RegressionCheck.Finding f : v.regressions()) {
            failures += f.regression() ? 1 : 0;
            cases.append(testCase("perflab.regression", f.figure(), f.regression() ? f.describe() : null, f.describe()));
        }
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + String.format(Locale.ROOT, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\">%n",
                escape(suite), v.objectives().size() + v.regressions().size(), failures)
                + cases + "</testsuite>\n";
        AtomicFiles.write(file, xml.getBytes(StandardCharsets.UTF_8));
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
