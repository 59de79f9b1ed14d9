package perflab.loadsource.sipp;

import perflab.core.load.LoadColumn;
import perflab.core.load.LoadPeriod;
import perflab.core.load.LoadSourceProcess;
import perflab.core.result.LoadFigures;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One SIPp started for a run, as the run sees a load source: its process, its UDP port, its stop, and its statistics
 * read back as the window's figures and as periods (one a second, SIPp's -fd 1).
 */
final class SippRun implements LoadSourceProcess {
    private final SippProcess process;
    /** Read once SIPp has exited: its files are complete then and do not change. */
    private SippStatistics statistics;

    SippRun(SippProcess process) {
        this.process = process;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    /** Its UDP port: as {@code port}, the name references use, and as {@code sip}, the name run.json gave it first. */
    @Override
    public Map<String, Integer> ports() {
        Map<String, Integer> named = new LinkedHashMap<>();
        named.put(SippLoad.PORT, process.command().localPort());
        named.put("sip", process.command().localPort());
        return named;
    }

    @Override
    public List<String> command() {
        return process.command().arguments();
    }

    @Override
    public boolean alive() {
        return process.alive();
    }

    @Override
    public Integer exitCode() {
        return process.exitCode();
    }

    @Override
    public String exitExplanation() {
        return process.exitExplanation();
    }

    @Override
    public void askToStop() {
        process.askToStop();
    }

    @Override
    public int stop(Duration grace) {
        return process.stop(grace);
    }

    private synchronized SippStatistics statistics() throws IOException {
        if (statistics == null || process.alive()) {
            statistics = process.statistics();
        }
        return statistics;
    }

    @Override
    public LoadFigures figures(Instant from, Instant to) {
        SipLoadFigures f;
        try {
            f = statistics().figures(from, to);
        } catch (IOException | RuntimeException e) {
            f = SippStatistics.empty(from, to, "SIPp's statistics could not be read: " + e.getMessage());
        }
        return f.toLoadFigures();
    }

    /** SIPp's periods; none when its file cannot be read ({@link #figures} says why in summary.json). */
    private List<SipSecond> seconds() {
        try {
            return statistics().seconds();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    @Override
    public List<LoadPeriod> periods() {
        List<LoadPeriod> periods = new ArrayList<>();
        for (SipSecond s : seconds()) {
            Map<String, Double> values = new LinkedHashMap<>();
            values.put("callsPerSecond", s.callsPerSecond());
            values.put("callsCreated", (double) s.callsCreated());
            values.put("successfulCalls", (double) s.successfulCalls());
            values.put("failedCalls", (double) s.failedCalls());
            values.put("retransmissions", (double) s.retransmissions());
            values.put("currentCalls", (double) s.currentCalls());
            s.responseTimeMeanMs().forEach((rtd, mean) -> values.put(rtdColumn(rtd), mean));
            periods.add(new LoadPeriod(s.startEpochMicros(), s.endEpochMicros(), values));
        }
        return periods;
    }

    @Override
    public List<LoadColumn> columns() {
        List<LoadColumn> columns = new ArrayList<>(List.of(LoadColumn.perPeriod("callsPerSecond"),
                LoadColumn.sum("callsCreated"), LoadColumn.sum("successfulCalls"),
                // a failed call, or a message sent again because no answer came in time: a peer that missed an answer
                LoadColumn.trouble("failedCalls"), LoadColumn.trouble("retransmissions"), LoadColumn.max("currentCalls")));
        Set<String> rtds = new TreeSet<>();
        seconds().forEach(s -> rtds.addAll(s.responseTimeMeanMs().keySet()));
        rtds.forEach(rtd -> columns.add(LoadColumn.max(rtdColumn(rtd))));
        return columns;
    }

    /** A response-time measure's column: {@code rtd<rtd>MeanMs}, SIPp's periodic mean. */
    static String rtdColumn(String rtd) {
        return "rtd" + rtd + "MeanMs";
    }
}
