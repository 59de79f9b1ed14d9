package perflab.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A run's timeseries.csv (a row per second, docs/results.md), by column name. Empty cells read as NaN. */
public final class ReportTimeseries {
    private final Map<String, Integer> columns = new HashMap<>();
    private final List<String[]> rows = new ArrayList<>();

    private ReportTimeseries() {
    }

    /** An empty series when the file does not exist (a run that ended before its first second). */
    public static ReportTimeseries read(Path csv) throws IOException {
        ReportTimeseries ts = new ReportTimeseries();
        if (!Files.exists(csv)) {
            return ts;
        }
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                return ts;
            }
            String[] names = header.split(",", -1);
            for (int i = 0; i < names.length; i++) {
                ts.columns.put(names[i].trim(), i);
            }
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    ts.rows.add(line.split(",", -1));
                }
            }
        }
        return ts;
    }

    public int size() {
        return rows.size();
    }

    public boolean has(String column) {
        Integer i = columns.get(column);
        if (i == null) {
            return false;
        }
        for (String[] r : rows) {
            if (i < r.length && !r[i].isBlank()) {
                return true;
            }
        }
        return false;
    }

    /** The column's values; NaN where a cell is empty or not a number, all NaN when there is no such column. */
    public double[] column(String name) {
        double[] out = new double[rows.size()];
        Arrays.fill(out, Double.NaN);
        Integer i = columns.get(name);
        if (i == null) {
            return out;
        }
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            if (i < row.length && !row[i].isBlank()) {
                try {
                    out[r] = Double.parseDouble(row[i].trim());
                } catch (NumberFormatException e) {
                    // not a number: a gap
                }
            }
        }
        return out;
    }

    public String[] text(String name) {
        String[] out = new String[rows.size()];
        Integer i = columns.get(name);
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            out[r] = i != null && i < row.length ? row[i].trim() : "";
        }
        return out;
    }

    /** The x range [from, to] of the rows of one phase, by the {@code second} column (a row ends its second); null if none. */
    public double[] phaseRange(String phase) {
        String[] phases = text("phase");
        double[] seconds = column("second");
        double from = Double.NaN;
        double to = Double.NaN;
        for (int r = 0; r < phases.length; r++) {
            if (phase.equals(phases[r])) {
                if (Double.isNaN(from)) {
                    from = seconds[r] - 1;
                }
                to = seconds[r];
            }
        }
        return Double.isNaN(from) ? null : new double[]{from, to};
    }

    /** The mean of a column over the rows of one phase (NaN cells skipped); NaN when there are none. */
    public double mean(String name, String phase) {
        double[] v = column(name);
        String[] phases = text("phase");
        double sum = 0;
        int n = 0;
        for (int r = 0; r < v.length; r++) {
            if (phase.equals(phases[r]) && !Double.isNaN(v[r])) {
                sum += v[r];
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}
