package perflab.experiment.run;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import perflab.core.result.Decimals;
import perflab.core.result.LatencySummary;
import perflab.driver.Interval;
import perflab.driver.KindFigures;
import perflab.driver.IntervalListener;
import perflab.driver.Phase;
import perflab.core.result.AtomicFiles;
import perflab.core.result.gc.GcSecond;
import perflab.monitor.ProcessSampler;
import perflab.monitor.RunMonitor;
import perflab.monitor.gc.GcLogTails;
import perflab.report.LiveLine;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps every second of a run as it happens: a row of timeseries.csv (warm-up included, with its phase), an
 * interval in each histogram log, the SUT's, the machine's and the network's figures (monitor), the GC of the
 * last second from the growing GC log, and the live console line. Rows are flushed as written, so a run that
 * is stopped or crashes keeps everything up to its last second; the per-second GC columns are filled in when
 * the recorder is closed at the end of the run, from the whole log.
 */
final class RunRecorder implements IntervalListener, AutoCloseable {
    static final String CSV_HEADER = "second,phase,epochMs,throughput,successes,errors,p50Ms,p99Ms,serviceP99Ms,"
            + "sutCpuPercent,sutRssMb,sutCpuUserPercent,sutCpuSystemPercent,sutCpuPercentOfMachine,sutMaxRssMb,"
            + "sutThreads,sutJitCpuPercent,driverJitCpuPercent,machineCpuPercent,netPacketsInPerSec,netPacketsOutPerSec,"
            + "netBytesInPerSec,netBytesOutPerSec,"
            + "driverBytesPerRequest,gcPauseMs,gcHeapAfterMb";
    /** The companions' seconds, one row per companion and second (the SUT's are in timeseries.csv). */
    static final String PROCESSES_CSV = "processes.csv";
    static final String PROCESSES_HEADER = "second,phase,epochMs,process,cpuPercent,rssMb,threads,jitCpuPercent,processes";
    static final String KINDS_CSV_HEADER = "second,phase,epochMs,kind,throughput,requests,successes,errors,p50Ms,p99Ms";
    /** The GC columns, last in each row: empty until the run ends. */
    private static final int GC_COLUMNS = 2;

    private final BufferedWriter csv;
    /** timeseries-kinds.csv: a row per request kind per second, the same seconds as timeseries.csv. */
    private final BufferedWriter kindsCsv;
    private final HistogramLogWriter latencyLog;
    private final HistogramLogWriter serviceLog;
    private final PrintStream latencyOut;
    private final PrintStream serviceOut;
    private final Path csvFile;
    private final RunMonitor monitor;
    private final List<String> companions;
    private final BufferedWriter processesCsv;
    /** This JVM: the driver's, whose JIT compiler is watched like the SUT's. */
    private final ProcessSampler driverSelf = new ProcessSampler(ProcessHandle.current().pid());
    private final GcLogTails gcTail;
    private final PrintStream console;
    private final double measureSeconds;
    private final double warmupSeconds;
    /** Measured intervals shorter than this are left out of the steadiness series. */
    static final double MIN_STEADINESS_SECONDS = 0.5;
    private final double[] measured;
    private int measuredCount;
    private long seconds;
    /** Set for an automatic warm-up: judges each warm-up second, and ends the warm-up once through onWarm. */
    private WarmupJudge warmupJudge;
    private Runnable onWarm;
    private boolean warmDeclared;
    /** Asked for the SUT's own counters at every tick, or null. */
    private ServerCounterSampler serverSampler;
    /** Runs once, at the first measured interval, with the window's start (the profiler's start, a fail-over's timer). */
    private java.util.function.LongConsumer onMeasureStart;
    /** Given each second as it goes (a live export), or null. */
    private java.util.function.Consumer<LiveSecond> onSecond;
    /** The measured seconds' counts, kept for a fail-over run's phases ({@link #keepMeasuredSeconds}); else null. */
    private List<FailoverPhases.DriverSecond> measuredSeconds;

    /**
     * @param pids           the processes perflab started by name ({@code sut} and companions); empty for none
     * @param trees          the names among them sampled with every process under them
     * @param iface          the network interface that carries the traffic, or null when unknown
     * @param groups         names the monitor reports as the sum of members among {@code pids} (the instances of a
     *                         SUT run as several are {@code sut}); empty for none
     * @param gcLogs         the SUT's growing GC logs (one per instance); empty for none
     * @param measureSeconds length of the measured window, NaN when it is a request count
     */
    RunRecorder(Path runDir, Map<String, Long> pids, Set<String> trees, Map<String, List<String>> groups, String iface,
                List<Path> gcLogs, PrintStream console, double warmupSeconds, double measureSeconds, long startEpochMs)
            throws IOException {
        this.csvFile = runDir.resolve("timeseries.csv");
        this.csv = Files.newBufferedWriter(csvFile);
        this.csv.write(CSV_HEADER);
        this.csv.newLine();
        this.kindsCsv = Files.newBufferedWriter(runDir.resolve("timeseries-kinds.csv"));
        this.kindsCsv.write(KINDS_CSV_HEADER);
        this.kindsCsv.newLine();
        this.latencyOut = new PrintStream(Files.newOutputStream(runDir.resolve("latency.hlog")), false, "UTF-8");
        this.serviceOut = new PrintStream(Files.newOutputStream(runDir.resolve("service-time.hlog")), false, "UTF-8");
        this.latencyLog = startLog(latencyOut, startEpochMs);
        this.serviceLog = startLog(serviceOut, startEpochMs);
        this.monitor = new RunMonitor(pids, trees, groups, iface);
        this.companions = new ArrayList<>(pids.keySet().stream().filter(name -> !name.equals(RunMonitor.SUT)).toList());
        this.processesCsv = companions.isEmpty() ? null : Files.newBufferedWriter(runDir.resolve(PROCESSES_CSV));
        if (processesCsv != null) {
            processesCsv.write(PROCESSES_HEADER);
            processesCsv.newLine();
        }
        monitor.sample();
        this.gcTail = gcLogs.isEmpty() ? null : new GcLogTails(gcLogs);
        this.console = console;
        this.warmupSeconds = warmupSeconds;
        this.measureSeconds = measureSeconds;
        // a soak of hours keeps one value per second: 8 hours is 28,800 doubles
        this.measured = new double[Double.isNaN(measureSeconds) ? 86_400 : (int) Math.min(86_400 * 7, measureSeconds + 10)];
    }

    private static HistogramLogWriter startLog(PrintStream out, long startEpochMs) {
        HistogramLogWriter log = new HistogramLogWriter(out);
        log.outputComment("perflab histogram log; values in microseconds; tags are the run phase");
        log.outputLogFormatVersion();
        log.outputStartTime(startEpochMs);
        log.setBaseTime(startEpochMs);
        log.outputLegend();
        return log;
    }

    /**
     * Judges the warm-up second by second ({@link WarmupJudge}) and runs {@code onWarm} once, when the system is
     * warm (the driver's {@code endWarmup}).
     */
    synchronized void endWarmupWhenWarm(boolean openModel, Runnable onWarm) {
        this.warmupJudge = new WarmupJudge(openModel);
        this.onWarm = onWarm;
    }

    /**
     * Watches a process started mid-run from the next second on (a SUT instance started again: {@code name} with
     * {@code group} {@code sut}; a proxy restarted: no group, with the processes under it when {@code tree}); its
     * seconds go to processes.csv like the others'.
     */
    synchronized void watch(String name, long pid, String group, boolean tree) {
        monitor.watch(name, pid, group, tree);
        if (processesCsv != null) {
            companions.add(name);
        }
    }

    /** Samples the SUT's own counters at every tick from now on (asynchronously: the tick never waits). */
    synchronized void sampleServerWith(ServerCounterSampler sampler) {
        this.serverSampler = sampler;
    }

    /**
     * Runs {@code hook} once, when the first measured interval comes in (a moment after the window starts), with the
     * window's start (epoch ms); hooks given earlier run first.
     */
    synchronized void onMeasureStart(java.util.function.LongConsumer hook) {
        java.util.function.LongConsumer earlier = onMeasureStart;
        this.onMeasureStart = earlier == null ? hook : earlier.andThen(hook);
    }

    /** Gives {@code listener} each second as it goes, after the second's files are written. */
    synchronized void onSecond(java.util.function.Consumer<LiveSecond> listener) {
        this.onSecond = listener;
    }

    /** Whether the automatic warm-up found the system warm (false: it ran to its maximum, or was not automatic). */
    synchronized boolean warmedUp() {
        return warmDeclared;
    }

    /** Why the automatic warm-up's last seconds were not warm, or null. */
    synchronized String notWarmBecause() {
        return warmupJudge == null || warmDeclared ? null : warmupJudge.notWarmBecause();
    }

    /** A sample of everything monitored, so that a window ending now reads off exactly. */
    void sample() {
        monitor.sample();
    }

    /** The monitored figures of a wall-clock window (the measured window). */
    RunMonitor.Window window(long fromEpochMs, long toEpochMs) {
        return monitor.window(fromEpochMs, toEpochMs);
    }

    String networkInterface() {
        return monitor.networkInterface();
    }

    int machineCpus() {
        return monitor.machineCpus();
    }

    /** Keeps each measured second's span and counts from now on (a fail-over run cuts its window with them). */
    synchronized void keepMeasuredSeconds() {
        measuredSeconds = new java.util.ArrayList<>();
    }

    /** The measured seconds kept since {@link #keepMeasuredSeconds}; empty when none were. */
    synchronized List<FailoverPhases.DriverSecond> measuredSeconds() {
        return measuredSeconds == null ? List.of() : List.copyOf(measuredSeconds);
    }

    double[] measuredThroughputPerSecond() {
        synchronized (this) {
            return java.util.Arrays.copyOf(measured, measuredCount);
        }
    }

    @Override
    public synchronized void onInterval(Interval interval) {
        seconds++;
        if (serverSampler != null) {
            // first, so that the sample is as near the interval's end as can be; it never blocks
            serverSampler.tick(seconds, interval.phase().label());
        }
        RunMonitor.Second m = monitor.sample();
        // the driver warms up too, and its code changes at the phase change (warm-up deep-checks every response)
        double driverJit = driverSelf.sample().jitCpuPercent();
        ProcessSampler.Reading sut = m.sut();
        double throughput = interval.successes() / interval.seconds();
        // steadiness is judged on seconds: the few milliseconds between the window's start and the ticker's next
        // cut make an interval whose rate is noise (486 answers in 6 ms read as 81k req/s beside 48k seconds)
        if (interval.phase() == Phase.MEASURE && interval.seconds() >= MIN_STEADINESS_SECONDS
                && measuredCount < measured.length) {
            measured[measuredCount++] = throughput;
        }
        if (interval.phase() == Phase.MEASURE && measuredSeconds != null) {
            measuredSeconds.add(new FailoverPhases.DriverSecond(interval.startEpochMs(), interval.endEpochMs(),
                    interval.successes(), interval.errorCount()));
        }
        if (interval.phase() == Phase.MEASURE && onMeasureStart != null) {
            java.util.function.LongConsumer hook = onMeasureStart;
            onMeasureStart = null;
            hook.accept(interval.startEpochMs());
        }
        LatencySummary latency = LatencySummary.of(interval.latency());
        if (interval.phase() == Phase.WARMUP && warmupJudge != null && !warmDeclared
                && warmupJudge.warm(new WarmupJudge.Second(interval.seconds(), throughput, latency.p50(),
                        sut == null ? Double.NaN : sut.jitCpuPercent(), busiestCompanionJit(m), driverJit))) {
            warmDeclared = true;
            onWarm.run();
        }
        LatencySummary service = LatencySummary.of(interval.serviceTime());
        double cpu = sut == null ? Double.NaN : sut.cpuPercent();
        long requests = interval.successes() + interval.errorCount();
        double bytesPerRequest = requests > 0 ? (double) (interval.bytesSent() + interval.bytesReceived()) / requests
                : Double.NaN;
        try {
            // written without String.format, as every once-a-second row here: see Decimals
            csv.write(seconds + "," + interval.phase().label() + "," + interval.endEpochMs() + ","
                    + Decimals.fixed(throughput, 2) + "," + interval.successes() + "," + interval.errorCount() + ","
                    + Decimals.fixed(latency.p50(), 3) + "," + Decimals.fixed(latency.p99(), 3) + ","
                    + Decimals.fixed(service.p99(), 3));
            for (double v : new double[] {cpu, sut == null ? Double.NaN : sut.rssMb(),
                    sut == null ? Double.NaN : sut.userPercent(), sut == null ? Double.NaN : sut.systemPercent(),
                    sut == null ? Double.NaN : sut.cpuPercentOfMachine(), sut == null ? Double.NaN : sut.maxRssMb()}) {
                csv.write(',');
                csv.write(number(v));
            }
            csv.write(',');
            csv.write(sut == null || !sut.alive() ? "" : Integer.toString(sut.threads()));
            for (double v : new double[] {sut == null ? Double.NaN : sut.jitCpuPercent(), driverJit,
                    m.machineCpuPercent(), m.packetsInPerSec(), m.packetsOutPerSec(), m.bytesInPerSec(),
                    m.bytesOutPerSec(), bytesPerRequest}) {
                csv.write(',');
                csv.write(number(v));
            }
            csv.write(",".repeat(GC_COLUMNS));
            csv.newLine();
            csv.flush();
            writeCompanions(m, interval);
            for (Map.Entry<String, KindFigures> e : interval.byKind().entrySet()) {
                KindFigures k = e.getValue();
                LatencySummary kl = LatencySummary.of(k.latency());
                kindsCsv.write(seconds + "," + interval.phase().label() + "," + interval.endEpochMs() + ","
                        + csvText(e.getKey()) + "," + Decimals.fixed(k.successes() / interval.seconds(), 2) + ","
                        + k.requests() + "," + k.successes() + "," + k.errorCount() + "," + Decimals.fixed(kl.p50(), 3)
                        + "," + Decimals.fixed(kl.p99(), 3));
                kindsCsv.newLine();
            }
            kindsCsv.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writeInterval(latencyLog, latencyOut, interval.latency(), interval);
        writeInterval(serviceLog, serviceOut, interval.serviceTime(), interval);
        double gcOverhead = Double.NaN;
        if (gcTail != null && gcTail.poll()) {
            // the last whole epoch second: the one being written may still get pauses
            GcSecond last = gcTail.second(Math.floorDiv(interval.endEpochMs(), 1000L) * 1000L - 1000L);
            // each instance's share of its second paused, averaged: with one SUT, its own
            gcOverhead = last == null ? Double.NaN : last.pauseMs() / 10.0 / gcTail.size();
        }
        if (console != null) {
            double total = interval.phase() == Phase.WARMUP ? warmupSeconds : measureSeconds;
            console.println(LiveLine.format(interval.phase().label(), interval.elapsedSeconds(), total, throughput,
                    latency.p50(), latency.p99(), interval.errorCount(), cpu, gcOverhead));
        }
        if (onSecond != null) {
            try {
                onSecond.accept(new LiveSecond(interval.phase() == Phase.WARMUP ? "warmup" : "window",
                        interval.endEpochMs(), interval.seconds(), interval.successes(), interval.errorCount(), throughput,
                        latency.p50(), latency.p99(), cpu, sut == null ? Double.NaN : sut.rssMb(), m.machineCpuPercent(),
                        gcOverhead));
            } catch (RuntimeException e) {
                // a live export is a window on the run, never a reason to stop it
            }
        }
    }

    /** The busiest JIT compiler among the companions this second, NaN when none is known. */
    private double busiestCompanionJit(RunMonitor.Second m) {
        double busiest = Double.NaN;
        for (String name : companions) {
            ProcessSampler.Reading r = m.processes().get(name);
            if (r != null && !Double.isNaN(r.jitCpuPercent()) && !(busiest >= r.jitCpuPercent())) {
                busiest = r.jitCpuPercent();
            }
        }
        return busiest;
    }

    private void writeCompanions(RunMonitor.Second m, Interval interval) throws IOException {
        if (processesCsv == null) {
            return;
        }
        for (String name : companions) {
            ProcessSampler.Reading r = m.processes().get(name);
            if (r == null) {
                continue;
            }
            processesCsv.write(seconds + "," + interval.phase().label() + "," + interval.endEpochMs() + "," + name + ","
                    + number(r.cpuPercent()) + "," + number(r.rssMb()) + "," + (r.alive() ? Integer.toString(r.threads()) : "")
                    + "," + number(r.jitCpuPercent()) + "," + (r.alive() ? Integer.toString(r.processes()) : ""));
            processesCsv.newLine();
        }
        processesCsv.flush();
    }

    /**
     * Fills each row's GC columns from the whole GC log read so far: the pause time and the heap after the last
     * collection of the epoch second that overlaps the row's second the most. Left empty when the log is
     * missing or not understood (the summary's GC analysis says why).
     */
    private void fillGcColumns() throws IOException {
        if (gcTail == null || !gcTail.poll() || !gcTail.recognized()) {
            return;
        }
        List<String> rows = Files.readAllLines(csvFile);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            String row = rows.get(i);
            if (i > 0 && row.endsWith(",".repeat(GC_COLUMNS))) {
                String[] f = row.split(",", -1);
                long endEpochMs = Long.parseLong(f[2]);
                long second = Math.round((endEpochMs - 1000) / 1000.0) * 1000L;
                GcSecond g = gcTail.second(second);
                if (g != null) {
                    row = row.substring(0, row.length() - GC_COLUMNS) + "," + Decimals.fixed(g.pauseMs(), 3) + ","
                            + (g.heapAfterMb() == null ? "" : number(g.heapAfterMb()));
                }
            }
            text.append(row).append(System.lineSeparator());
        }
        AtomicFiles.write(csvFile, text.toString());
    }

    /** A kind name as a CSV field: quoted when it holds a comma or a quote. */
    static String csvText(String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 ? s : '"' + s.replace("\"", "\"\"") + '"';
    }

    private static void writeInterval(HistogramLogWriter log, PrintStream out, Histogram h, Interval interval) {
        if (h == null) {
            return;
        }
        h.setStartTimeStamp(interval.startEpochMs());
        h.setEndTimeStamp(interval.endEpochMs());
        h.setTag(interval.phase().label());
        log.outputIntervalHistogram(h);
        out.flush();
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "" : Decimals.fixed(v, 2);
    }

    @Override
    public synchronized void close() throws IOException {
        csv.close();
        if (processesCsv != null) {
            processesCsv.close();
        }
        kindsCsv.close();
        latencyOut.close();
        serviceOut.close();
        if (gcTail != null) {
            try {
                fillGcColumns();
            } finally {
                gcTail.close();
            }
        }
    }
}
