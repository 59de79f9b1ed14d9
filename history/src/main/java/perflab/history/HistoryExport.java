package perflab.history;

import com.fasterxml.jackson.core.JsonGenerator;
import perflab.core.result.Json;
import perflab.history.store.HistoryStore;
import perflab.history.store.RunFilter;
import perflab.history.store.StoredRun;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code perflab history export}: the history's runs with all their figures, for the tools a team already has. CSV in
 * long form (a row per run and figure: what a spreadsheet's pivot table, pandas or a BI tool takes as it is), or JSON
 * (a run per object, its figures by scope and name).
 */
public final class HistoryExport {
    static final List<String> CSV_COLUMNS = List.of("run", "started_at", "label", "status", "workload", "stack",
            "operation", "config_key", "configuration", "experiment", "directory", "scope", "figure", "value", "unit");

    private HistoryExport() {
    }

    public static void write(HistoryStore store, RunFilter filter, String format, PrintWriter out)
            throws SQLException, IOException {
        List<StoredRun> runs = store.runs(filter);
        Map<Long, List<Figure>> figures = store.allFigures(runs);
        if (format.equals("json")) {
            json(runs, figures, out);
        } else {
            csv(runs, figures, out);
        }
    }

    static void csv(List<StoredRun> runs, Map<Long, List<Figure>> figures, PrintWriter out) {
        out.println(String.join(",", CSV_COLUMNS));
        for (StoredRun r : runs) {
            String run = String.join(",", Long.toString(r.id()), cell(r.startedAt()), cell(r.label()), cell(r.status()),
                    cell(r.workload()), cell(r.stack()), cell(r.operation()), cell(r.configKey()), cell(r.configuration()),
                    cell(r.experiment()), cell(r.directory()));
            for (Figure f : figures.get(r.id())) {
                out.println(run + "," + cell(f.scope()) + "," + cell(f.name()) + "," + f.value() + "," + cell(f.unit()));
            }
        }
    }

    /** A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; empty for none. */
    static String cell(String s) {
        if (s == null) {
            return "";
        }
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    static void json(List<StoredRun> runs, Map<Long, List<Figure>> figures, PrintWriter out) throws IOException {
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false); // the caller's stream stays open
            g.useDefaultPrettyPrinter();
            g.writeStartArray();
            for (StoredRun r : runs) {
                Map<String, Object> run = new LinkedHashMap<>();
                run.put("id", r.id());
                run.put("startedAt", r.startedAt());
                run.put("label", r.label());
                run.put("status", r.status());
                run.put("workload", r.workload());
                run.put("stack", r.stack());
                run.put("operation", r.operation());
                run.put("configKey", r.configKey());
                run.put("configuration", r.configuration());
                run.put("experiment", r.experiment());
                run.put("directory", r.directory());
                Map<String, Map<String, Double>> byScope = new LinkedHashMap<>();
                for (Figure f : figures.get(r.id())) {
                    byScope.computeIfAbsent(f.scope().isEmpty() ? "run" : f.scope(), k -> new LinkedHashMap<>())
                            .put(f.name(), f.value());
                }
                run.put("figures", byScope);
                Json.MAPPER.writeValue(g, run);
            }
            g.writeEndArray();
        }
        out.println();
    }
}
