package perflab.experiment;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import perflab.core.result.LatencySummary;
import perflab.driver.Interval;
import perflab.driver.IntervalListener;
import perflab.driver.Phase;
import perflab.monitor.CpuTimeline;
import perflab.monitor.ProcessSampler;
import perflab.report.LiveLine;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Keeps every second of a run as it happens: a row of timeseries.csv (warm-up included, with its phase), an
 * interval in each histogram log, the SUT's CPU and RSS, and the live console line. Rows are flushed as
 * written, so a run that is stopped or crashes keeps everything up to its last second.
 */
final class RunRecorder implements IntervalListener, AutoCloseable {
    static final String CSV_HEADER = "second,phase,epochMs,throughput,successes,errors,p50Ms,p99Ms,serviceP99Ms,"
            + "sutCpuPercent,sutRssMb";

    private final BufferedWriter csv;
    private final HistogramLogWriter latencyLog;
    private final HistogramLogWriter serviceLog;
    private final PrintStream latencyOut;
    private final PrintStream serviceOut;
    private final ProcessSampler sutSampler;
    private final CpuTimeline sutCpu;
    private final PrintStream console;
    private final double measureSeconds;
    private final double warmupSeconds;
    private final double[] measured;
    private int measuredCount;
    private long seconds;

    /**
     * @param sutPid        the SUT's pid, or -1 when perflab did not start it
     * @param measureSeconds length of the measured window, NaN when it is a request count
     */
    RunRecorder(Path runDir, long sutPid, PrintStream console, double warmupSeconds, double measureSeconds,
                long startEpochMs) throws IOException {
        this.csv = Files.newBufferedWriter(runDir.resolve("timeseries.csv"));
        this.csv.write(CSV_HEADER);
        this.csv.newLine();
        this.latencyOut = new PrintStream(Files.newOutputStream(runDir.resolve("latency.hlog")), false, "UTF-8");
        this.serviceOut = new PrintStream(Files.newOutputStream(runDir.resolve("service-time.hlog")), false, "UTF-8");
        this.latencyLog = startLog(latencyOut, startEpochMs);
        this.serviceLog = startLog(serviceOut, startEpochMs);
        this.sutSampler = sutPid > 0 ? new ProcessSampler(sutPid) : null;
        this.sutCpu = sutPid > 0 ? new CpuTimeline(sutPid) : null;
        if (sutCpu != null) {
            sutCpu.sample();
        }
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

    /** A sample of the SUT's CPU, for the measured window's CPU read off later. */
    void sampleSut() {
        if (sutCpu != null) {
            sutCpu.sample();
        }
    }

    /** SUT CPU seconds between two wall-clock instants, or NaN without a SUT. */
    double sutCpuSeconds(long fromEpochMs, long toEpochMs) {
        return sutCpu == null ? Double.NaN : sutCpu.cpuSecondsBetween(fromEpochMs, toEpochMs);
    }

    double[] measuredThroughputPerSecond() {
        synchronized (this) {
            return java.util.Arrays.copyOf(measured, measuredCount);
        }
    }

    @Override
    public synchronized void onInterval(Interval interval) {
        seconds++;
        sampleSut();
        ProcessSampler.Reading sut = sutSampler == null ? null : sutSampler.sample();
        double throughput = interval.successes() / interval.seconds();
        if (interval.phase() == Phase.MEASURE && measuredCount < measured.length) {
            measured[measuredCount++] = throughput;
        }
        LatencySummary latency = LatencySummary.of(interval.latency());
        LatencySummary service = LatencySummary.of(interval.serviceTime());
        double cpu = sut == null ? Double.NaN : sut.cpuPercent();
        try {
            csv.write(String.format(Locale.ROOT, "%d,%s,%d,%.2f,%d,%d,%.3f,%.3f,%.3f,%s,%s", seconds,
                    interval.phase().label(), interval.endEpochMs(), throughput, interval.successes(),
                    interval.errorCount(), latency.p50(), latency.p99(), service.p99(), number(cpu),
                    number(sut == null ? Double.NaN : sut.rssMb())));
            csv.newLine();
            csv.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writeInterval(latencyLog, latencyOut, interval.latency(), interval);
        writeInterval(serviceLog, serviceOut, interval.serviceTime(), interval);
        if (console != null) {
            double total = interval.phase() == Phase.WARMUP ? warmupSeconds : measureSeconds;
            console.println(LiveLine.format(interval.phase().label(), interval.elapsedSeconds(), total, throughput,
                    latency.p50(), latency.p99(), interval.errorCount(), cpu));
        }
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
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
    }

    @Override
    public synchronized void close() throws IOException {
        csv.close();
        latencyOut.close();
        serviceOut.close();
    }
}
