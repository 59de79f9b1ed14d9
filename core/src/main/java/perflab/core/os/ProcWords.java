package perflab.core.os;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of a line of /proc (runs of spaces and tabs between them), without a regular expression. The monitors
 * read /proc every second inside the driver's JVM; {@code split("\\s+")} there compiled a pattern per call and kept
 * the regex engine warming up for minutes, its JIT compiles landing in measured windows (issue 36: the seconds in
 * which the driver's compiler ran at 5 % of a core or more read 9 % below their run's median throughput).
 */
public final class ProcWords {
    private ProcWords() {
    }

    /** The words of {@code line}; none for a blank line. */
    public static String[] of(String line) {
        List<String> words = new ArrayList<>();
        int n = line.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                words.add(line.substring(start, i));
            }
        }
        return words.toArray(new String[0]);
    }
}
