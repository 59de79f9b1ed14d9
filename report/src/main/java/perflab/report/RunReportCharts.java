package perflab.report;

import java.io.IOException;
import java.util.List;

/**
 * The charts of runs, shared by the run, compare and experiment pages: each takes one or more labelled runs and
 * draws them on one set of axes, so that a page about several runs overlays them.
 */
public final class RunReportCharts {
    /** A run, the name it has on a chart's legend, and its colour (null: by its place among the runs). */
    public record Labeled(String label, ReportRun run, String color) {
        public Labeled(String label, ReportRun run) {
            this(label, run, null);
        }
    }

    private RunReportCharts() {
    }

    /** Requests per second, second by second, warm-up included and shaded: the warm-up ramp stays visible. */
    public static Chart throughputOverTime(String id, List<Labeled> runs) {
        Chart c = new Chart(id, "Throughput over time")
                .note("Successful requests per second, warm-up included (shaded): the JIT's ramp shows before the measured window.")
                .x("time since start (s)", "linear").y("requests/s", "linear");
        warmupBand(c, runs);
        boolean errors = false;
        for (Labeled r : runs) {
            ReportTimeseries ts = r.run().timeseries();
            c.add(Chart.Series.line(name(r, runs, "throughput"), ts.column("second"), ts.column("throughput")).color(color(r, runs)));
            double[] e = ts.column("errors");
            for (double v : e) {
                errors |= v > 0;
            }
        }
        if (errors) {
            c.y2("errors/s", "linear");
            for (Labeled r : runs) {
                ReportTimeseries ts = r.run().timeseries();
                c.add(Chart.Series.line(name(r, runs, "errors"), ts.column("second"), ts.column("errors"))
                        .onSecondAxis().dashed().color("#c23b4f"));
            }
        }
        return c;
    }

    /** p50, p99 and service-time p99 of each second (the interval's own histograms). */
    public static Chart latencyOverTime(String id, List<Labeled> runs) {
        Chart c = new Chart(id, "Latency over time")
                .note("Each second's own p50 and p99 (not cumulative), log scale.")
                .x("time since start (s)", "linear").y("ms", "log");
        warmupBand(c, runs);
        for (Labeled r : runs) {
            ReportTimeseries ts = r.run().timeseries();
            double[] s = ts.column("second");
            if (runs.size() == 1) {
                c.add(Chart.Series.line("p99", s, ts.column("p99Ms")));
                c.add(Chart.Series.line("p50", s, ts.column("p50Ms")));
            } else {
                c.add(Chart.Series.line(name(r, runs, "p99"), s, ts.column("p99Ms")).color(color(r, runs)));
                c.add(Chart.Series.line(name(r, runs, "p50"), s, ts.column("p50Ms")).color(color(r, runs)).dashed());
            }
            if (runs.size() == 1 && open(r) && differs(ts.column("serviceP99Ms"), ts.column("p99Ms"))) {
                c.add(Chart.Series.line("service-time p99", s, ts.column("serviceP99Ms")).dashed());
            }
        }
        return c;
    }

    /**
     * The percentile spectrum of the measured window from the histogram logs; with one run, service time and the
     * warm-up's latency too.
     */
    public static Chart latencySpectrum(String id, List<Labeled> runs) throws IOException {
        Chart c = new Chart(id, "Latency distribution (measured window)")
                .x("percentile", "percentile").y("latency (ms)", "log");
        StringBuilder note = new StringBuilder("Percentile spectrum of the measured window, from the HdrHistogram logs (interval histograms added, never averaged).");
        for (Labeled r : runs) {
            ReportLatency.Spectrum latency = ReportLatency.spectrum(ReportLatency.merged(r.run().latencyLog(), "measure"));
            if (latency == null) {
                continue;
            }
            c.add(Chart.Series.line(name(r, runs, "latency"), latency.x(), latency.ms()).color(color(r, runs)));
            note.append(runs.size() == 1 ? " Max " : " Max (" + r.label() + ") ")
                    .append(ReportNumbers.num(latency.maxMs(), "ms")).append(".");
            if (runs.size() == 1) {
                ReportLatency.Spectrum service = ReportLatency.spectrum(ReportLatency.merged(r.run().serviceTimeLog(), "measure"));
                if (service != null && open(r)) {
                    c.add(Chart.Series.line("service time", service.x(), service.ms()).dashed());
                }
                ReportLatency.Spectrum warm = ReportLatency.spectrum(ReportLatency.merged(r.run().latencyLog(), "warmup"));
                if (warm != null) {
                    c.add(Chart.Series.line("warm-up latency", warm.x(), warm.ms()).color("#e0802b").dashed());
                }
            }
        }
        if (runs.size() == 1 && open(runs.get(0))) {
            note.append(" Open model: latency counts from the intended send time, service time from the actual send; their gap is the queueing a coordinated-omission-blind tool misses.");
        }
        return c.note(note.toString());
    }

    /** The SUT's GC pause time in each second, and the heap after the last collection of the second. */
    public static Chart gcPauses(String id, List<Labeled> runs) {
        Chart c = new Chart(id, "GC pause timeline")
                .note("SUT stop-the-world pause time in each second (from gc.log); heap in use after the second's last collection.")
                .x("time since start (s)", "linear").y("pause (ms per second)", "linear");
        warmupBand(c, runs);
        for (Labeled r : runs) {
            ReportTimeseries ts = r.run().timeseries();
            double[] s = ts.column("second");
            Chart.Series pause = runs.size() == 1 ? Chart.Series.bars("GC pause", s, ts.column("gcPauseMs")).color("#c23b4f")
                    : Chart.Series.line(name(r, runs, "GC pause"), s, ts.column("gcPauseMs")).stepped().color(color(r, runs));
            c.add(pause);
        }
        if (runs.size() == 1 && runs.get(0).run().timeseries().has("gcHeapAfterMb")) {
            ReportTimeseries ts = runs.get(0).run().timeseries();
            c.y2("heap after GC (MB)", "linear");
            c.add(Chart.Series.line("heap after GC", ts.column("second"), ts.column("gcHeapAfterMb"))
                    .onSecondAxis().withPoints().color("#3c6fd1"));
        }
        return c;
    }

    /** The SUT's CPU (user, system) and resident memory, second by second; the machine's CPU for context. */
    public static Chart sutResources(String id, List<Labeled> runs) {
        Chart c = new Chart(id, "SUT CPU and memory")
                .note("SUT CPU in % of one core (200% = both cores of this machine), its resident set size on the right axis; machine CPU is every process's, the driver's included. The JIT compiler's part should fall to about 0 before the measured window: until then code is still being compiled.")
                .x("time since start (s)", "linear").y("CPU (% of one core)", "linear").y2("RSS (MB)", "linear");
        warmupBand(c, runs);
        for (Labeled r : runs) {
            ReportTimeseries ts = r.run().timeseries();
            double[] s = ts.column("second");
            if (runs.size() == 1) {
                c.add(Chart.Series.line("SUT CPU user", s, ts.column("sutCpuUserPercent")).color("#3c6fd1"));
                c.add(Chart.Series.line("SUT CPU system", s, ts.column("sutCpuSystemPercent")).color("#7d5bbf"));
                c.add(Chart.Series.line("SUT CPU total", s, ts.column("sutCpuPercent")).color("#1d2330"));
                if (ts.has("sutJitCpuPercent")) { // runs recorded before it was watched have no such column
                    c.add(Chart.Series.line("SUT JIT compiler", s, ts.column("sutJitCpuPercent")).color("#d1843c"));
                }
                double[] machine = ts.column("machineCpuPercent");
                double[] machineOfCore = new double[machine.length];
                int cpus = r.run().summary() != null && r.run().summary().machine() != null
                        ? r.run().summary().machine().cpus() : 1;
                for (int i = 0; i < machine.length; i++) {
                    machineOfCore[i] = machine[i] * cpus; // same unit as the SUT's: % of one core
                }
                c.add(Chart.Series.line("machine CPU (all processes)", s, machineOfCore).dashed().color("#8a8f99"));
                c.add(Chart.Series.line("SUT RSS", s, ts.column("sutRssMb")).onSecondAxis().color("#2e9a5b"));
            } else {
                c.add(Chart.Series.line(name(r, runs, "CPU"), s, ts.column("sutCpuPercent")).color(color(r, runs)));
                c.add(Chart.Series.line(name(r, runs, "RSS"), s, ts.column("sutRssMb")).onSecondAxis().dashed().color(color(r, runs)));
            }
        }
        return c;
    }

    /** Whether any of the runs has SUT figures (perflab drive has none). */
    public static boolean hasSut(List<Labeled> runs) {
        return runs.stream().anyMatch(r -> r.run().timeseries().has("sutCpuPercent"));
    }

    public static boolean hasGc(List<Labeled> runs) {
        return runs.stream().anyMatch(r -> r.run().timeseries().has("gcPauseMs"));
    }

    private static void warmupBand(Chart c, List<Labeled> runs) {
        double[] range = runs.isEmpty() ? null : runs.get(0).run().timeseries().phaseRange("warmup");
        if (range != null) {
            c.band(range[0], range[1], "warm-up");
        }
    }

    /** The colours of runs overlaid on one chart: a run keeps its colour across the page's charts. */
    static final String[] RUN_COLORS = {"#3c6fd1", "#e0802b", "#2e9a5b", "#c23b4f", "#7d5bbf", "#8a6d3b", "#d45fb0",
            "#5f7d8c", "#b8b02a", "#2ab3b8"};

    static String color(Labeled r, List<Labeled> runs) {
        if (r.color() != null) {
            return r.color();
        }
        return RUN_COLORS[runs.indexOf(r) % RUN_COLORS.length];
    }

    private static String name(Labeled r, List<Labeled> runs, String what) {
        return runs.size() == 1 ? what : r.label() + " " + what;
    }

    private static boolean differs(double[] a, double[] b) {
        for (int i = 0; i < a.length; i++) {
            if (Double.isFinite(a[i]) && Double.isFinite(b[i]) && Math.abs(a[i] - b[i]) > 1e-9) {
                return true;
            }
        }
        return false;
    }

    /** Open model: latency counts from the intended send, so service time (from the actual send) says something else. */
    private static boolean open(Labeled r) {
        return r.run().summary() != null && "open".equals(r.run().summary().model());
    }
}
