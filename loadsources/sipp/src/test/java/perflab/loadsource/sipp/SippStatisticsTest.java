package perflab.loadsource.sipp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The -trace_stat reader on files laid out as SIPp 3.6.1 writes them, with time stamps the test chose. */
class SippStatisticsTest {
    @TempDir
    Path dir;

    /** SIPp 3.6.1's columns (abridged: the Failed reasons but one), plus a scenario counter and a column SIPp may add one day. */
    private static final String HEADER = "StartTime;LastResetTime;CurrentTime;ElapsedTime(P);ElapsedTime(C);TargetRate;"
            + "CallRate(P);CallRate(C);IncomingCall(P);IncomingCall(C);OutgoingCall(P);OutgoingCall(C);TotalCallCreated;"
            + "CurrentCall;SuccessfulCall(P);SuccessfulCall(C);FailedCall(P);FailedCall(C);FailedMaxUDPRetrans(P);"
            + "FailedMaxUDPRetrans(C);Retransmissions(P);Retransmissions(C);Warnings(P);Warnings(C);"
            + "ResponseTime1(P);ResponseTime1(C);ResponseTime1StDev(P);ResponseTime1StDev(C);CallLength(P);CallLength(C);"
            + "CallLengthStDev(P);CallLengthStDev(C);GenericCounter1(P);GenericCounter1(C);SomethingNew;"
            + "ResponseTimeRepartition1;ResponseTimeRepartition1_<10;ResponseTimeRepartition1_>=10;"
            + "CallLengthRepartition;CallLengthRepartition_<10;CallLengthRepartition_>=10;";

    private static final long T0 = 1_800_000_000L; // seconds; the rows fall at T0 + k + 0.200300

    /** SIPp's time stamp: local date and time (any: perflab reads the epoch part), then epoch seconds.micros. */
    private static String stamp(long micros) {
        return "2027-01-15\t08:00:00.000000\t" + micros / 1_000_000 + "." + String.format("%06d", micros % 1_000_000);
    }

    private static long rowMicros(int k) {
        return (T0 + k) * 1_000_000L + 200_300;
    }

    /**
     * Row k (0 = SIPp's first row, all zero): each period k >= 1 adds 10 outgoing calls, 9 successes, 1 failure by
     * UDP retransmissions, 2 retransmissions, k response-time samples with a mean of k ms, and one scenario count.
     */
    private static String row(int k) {
        long start = T0 * 1_000_000L + 200_000;
        long c = k;
        String rt = k == 0 ? "00:00:00:000000" : String.format("00:00:00:%03d000", k);
        return String.join(";", stamp(start), stamp(k == 0 ? start : rowMicros(k - 1) + 50), stamp(rowMicros(k)),
                "00:00:01", "00:00:0" + Math.min(k, 9), "10", "9.99", "9.98",
                "0", "0", k == 0 ? "0" : "10", Long.toString(10 * c), Long.toString(10 * c),
                Long.toString(k % 3), k == 0 ? "0" : "9", Long.toString(9 * c), k == 0 ? "0" : "1", Long.toString(c),
                k == 0 ? "0" : "1", Long.toString(c), "2", Long.toString(2 * c), "0", "0",
                rt, "00:00:00:003000", "00:00:00:001000", "00:00:00:001000",
                k == 0 ? "00:00:00:000000" : "00:00:02:000000", "00:00:02:000000", "00:00:00:000000", "00:00:00:000000",
                "1", Long.toString(c), "whatever text", "", Long.toString(k * (k + 1) / 2), "0", "",
                Long.toString(9 * c), "0") + ";";
    }

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text, StandardCharsets.ISO_8859_1);
        return f;
    }

    private Path tenPeriods() throws IOException {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        for (int k = 0; k <= 10; k++) {
            s.append(row(k)).append('\n');
        }
        return write("uac.stat.csv", s.toString());
    }

    private static Instant at(long seconds, long micros) {
        return Instant.ofEpochSecond(seconds, micros * 1000);
    }

    @Test
    void onlyPeriodsWhollyInsideTheWindowCount() throws IOException {
        SippStatistics stats = SippStatistics.read(tenPeriods());
        // rows at T0+3.2003 .. T0+6.2003 lie in [T0+3, T0+7]: the periods ending at 4, 5 and 6 (3 s); the periods
        // across the window's ends (2.2003-3.2003, 6.2003-7.2003) are left out, not prorated
        SipLoadFigures f = stats.figures(at(T0 + 3, 0), at(T0 + 7, 0));
        assertEquals(3, f.periods());
        assertEquals(3.0, f.seconds(), 1e-9);
        assertEquals(rowMicros(3), f.fromEpochMicros());
        assertEquals(rowMicros(6), f.toEpochMicros());
        assertEquals(30, f.callsCreated());
        assertEquals(30, f.outgoingCalls());
        assertEquals(0, f.incomingCalls());
        assertEquals(27, f.successfulCalls());
        assertEquals(3, f.failedCalls());
        assertEquals(Map.of("MaxUDPRetrans", 3L), f.failedByReason());
        assertEquals(10.0, f.callsPerSecond(), 1e-9);
        assertEquals(9.0, f.successfulPerSecond(), 1e-9);
        assertEquals(6, f.retransmissions());
        assertEquals(Map.of("GenericCounter1", 3L), f.counters(), "counters that moved, unknown text columns ignored");
        assertEquals(2, f.maxCurrentCalls());
        // periods 4, 5, 6 had 4, 5, 6 samples of mean 4, 5, 6 ms: the mean of all samples is 77/15
        SipResponseTime rt = f.responseTimesMs().get("1");
        assertEquals(15, rt.count());
        assertEquals(77.0 / 15, rt.meanMs(), 1e-9);
        assertNull(rt.p99Ms(), "no percentiles without -trace_rtt");
        assertEquals("trace_stat", rt.source());
        assertEquals(2000.0, f.callLengthMeanMs(), 1e-9);
        assertNull(f.note());
    }

    @Test
    void aWindowEndOnARowIncludesItAndOneMicrosecondLaterExcludesIt() throws IOException {
        SippStatistics stats = SippStatistics.read(tenPeriods());
        Instant r3 = Instant.ofEpochSecond(0, rowMicros(3) * 1000);
        Instant r6 = Instant.ofEpochSecond(0, rowMicros(6) * 1000);
        assertEquals(3, stats.figures(r3, r6).periods());
        assertEquals(2, stats.figures(r3.plusNanos(1000), r6).periods());
        assertEquals(2, stats.figures(r3, r6.minusNanos(1000)).periods());
    }

    @Test
    void perPeriodRowsAddUpToTheTotalsAndToTheWindow() throws IOException {
        SippStatistics stats = SippStatistics.read(tenPeriods());
        List<SipSecond> rows = stats.seconds();
        assertEquals(11, rows.size(), "the first row's period runs from StartTime to it");
        assertEquals(0, rows.get(0).callsCreated());
        assertEquals(rowMicros(10) / 1000, rows.get(10).epochMs());
        assertEquals(1.0, rows.get(5).seconds(), 1e-9);
        assertEquals(10.0, rows.get(5).callsPerSecond(), 1e-9);
        assertEquals(Map.of("1", 5.0), rows.get(5).responseTimeMeanMs());
        assertEquals(Map.of(), rows.get(0).responseTimeMeanMs(), "no samples, no mean");

        SipLoadFigures total = stats.total();
        assertEquals(100, total.callsCreated());
        assertEquals(rows.stream().mapToLong(SipSecond::callsCreated).sum(), total.callsCreated());
        assertEquals(rows.stream().mapToLong(SipSecond::successfulCalls).sum(), total.successfulCalls());
        assertEquals(rows.stream().mapToLong(SipSecond::failedCalls).sum(), total.failedCalls());
        assertEquals(rows.stream().mapToLong(SipSecond::retransmissions).sum(), total.retransmissions());

        Instant from = at(T0 + 2, 500_000);
        Instant to = at(T0 + 8, 0);
        SipLoadFigures window = stats.figures(from, to);
        List<SipSecond> inside = rows.stream().filter(r -> r.inside(from, to)).toList();
        assertEquals(window.periods(), inside.size());
        assertEquals(inside.stream().mapToLong(SipSecond::successfulCalls).sum(), window.successfulCalls());
        assertEquals(inside.stream().mapToDouble(SipSecond::seconds).sum(), window.seconds(), 1e-9);
    }

    @Test
    void responseTimeTraceGivesPercentilesOfTheSamplesInTheWindow() throws IOException {
        SippStatistics plain = SippStatistics.read(tenPeriods());
        // Date_ms counts from SIPp's start (StartTime = T0 + 0.2): 3500 ms is T0 + 3.7, inside (T0+3.2003, T0+6.2003]
        StringBuilder rtt = new StringBuilder("Date_ms;response_time_ms;rtd_no\n");
        for (int i = 1; i <= 100; i++) {
            rtt.append(3000 + 10 * i).append(';').append(i).append(";1\n");
        }
        rtt.append("100.5;999;1\n"); // T0 + 0.3005: before the window
        rtt.append("4000;4"); // cut mid-line: not read
        Path rttFile = write("uac_123_rtt.csv", rtt.toString());
        SippStatistics traced = SippStatistics.read(plain.file(), rttFile);
        SipResponseTime rt = traced.figures(at(T0 + 3, 0), at(T0 + 7, 0)).responseTimesMs().get("1");
        assertEquals("trace_rtt", rt.source());
        assertEquals(100, rt.count());
        assertEquals(50.5, rt.meanMs(), 1e-9);
        assertEquals(50.0, rt.p50Ms());
        assertEquals(90.0, rt.p90Ms());
        assertEquals(99.0, rt.p99Ms());
        assertEquals(100.0, rt.maxMs());
    }

    /**
     * The samples' clock is SIPp's coarse monotonic one: the first call answered within its first tick reads Date_ms
     * 0 (the first row's very time) and the last one can read a tick past the last row. Both belong to the run.
     */
    @Test
    void theWholeRunTakesTheSamplesACoarseTickOutsideItsFirstAndLastRow() throws IOException {
        SippStatistics plain = SippStatistics.read(tenPeriods());
        Path rttFile = write("uac_124_rtt.csv", "Date_ms;response_time_ms;rtd_no\n0;5;1\n5000;6;1\n10003;7;1\n");
        SippStatistics traced = SippStatistics.read(plain.file(), rttFile);
        assertEquals(3, traced.total().responseTimesMs().get("1").count());
        // a window inside the run still cuts by time: only the middle sample
        assertEquals(1, traced.figures(at(T0 + 3, 0), at(T0 + 7, 0)).responseTimesMs().get("1").count());
    }

    @Test
    void aLastLineCutMidWriteIsSkippedAndSaid() throws IOException {
        String full = Files.readString(tenPeriods(), StandardCharsets.ISO_8859_1);
        String cut = full + row(11).substring(0, 90);
        SippStatistics stats = SippStatistics.read(write("cut.csv", cut));
        assertEquals(1, stats.skippedLines());
        assertEquals(100, stats.total().callsCreated());
        assertTrue(stats.total().note().contains("could not be read"), stats.total().note());
    }

    @Test
    void aDamagedRowInTheMiddleMergesTwoPeriodsWithoutLosingCalls() throws IOException {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        for (int k = 0; k <= 10; k++) {
            String r = row(k);
            s.append(k == 5 ? r.substring(0, r.length() / 2) : k == 6 ? r.replaceFirst(";10;60;60;", ";10;x;60;") : r).append('\n');
        }
        SippStatistics stats = SippStatistics.read(write("damaged.csv", s.toString()));
        assertEquals(2, stats.skippedLines());
        assertEquals(9, stats.seconds().size());
        assertEquals(30, stats.seconds().get(5).callsCreated(), "the period from row 4 to row 7 holds periods 5, 6 and 7's calls");
        assertEquals(100, stats.total().callsCreated());
    }

    @Test
    void anEmptyFileHasNoPeriodsAndFiguresThatSaySo() throws IOException {
        for (String text : List.of("", HEADER + "\n", HEADER.substring(0, 40))) {
            SippStatistics stats = SippStatistics.read(write("empty.csv", text));
            assertTrue(stats.seconds().isEmpty());
            SipLoadFigures f = stats.figures(at(T0, 0), at(T0 + 10, 0));
            assertEquals(0, f.callsCreated());
            assertEquals(0, f.seconds());
            assertTrue(f.note().contains("no statistics row"), f.note());
        }
    }

    @Test
    void aWindowBesideTheRunSaysWhereTheRowsAre() throws IOException {
        SipLoadFigures f = SippStatistics.read(tenPeriods()).figures(at(T0 + 100, 0), at(T0 + 110, 0));
        assertEquals(0, f.periods());
        assertTrue(f.note().startsWith("no whole SIPp statistics period lies inside the window"), f.note());
    }

    @Test
    void aMissingFileOrAnotherKindOfFileIsAOneLineError() throws IOException {
        IOException missing = assertThrows(IOException.class, () -> SippStatistics.read(dir.resolve("none.csv")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        assertTrue(!missing.getMessage().contains("\n"));
        Path other = write("other.csv", "a;b;c\n1;2;3\n");
        IOException notSipp = assertThrows(IOException.class, () -> SippStatistics.read(other));
        assertTrue(notSipp.getMessage().contains("not a SIPp -trace_stat file"), notSipp.getMessage());
    }

    @Test
    void readsSippTimeStampsAndDurations() {
        assertEquals(1_795_493_565_231_368L, SippStatistics.epochMicros("2026-11-24\t04:12:45.231368\t1795493565.231368"));
        assertEquals(4008.0, SippStatistics.durationMs("00:00:04:008000"), 1e-9);
        assertEquals(3_723_004.5, SippStatistics.durationMs("01:02:03:004500"), 1e-9);
        assertThrows(NumberFormatException.class, () -> SippStatistics.durationMs("00:00:01"));
    }

    @Test
    void aRowForAnotherRunShapeIsNotNeeded() throws IOException {
        // a file without the rtd and call-length columns (another SIPp, another scenario) still gives the counts
        String header = "StartTime;LastResetTime;CurrentTime;OutgoingCall(C);SuccessfulCall(C);FailedCall(C);";
        String r0 = String.join(";", stamp(rowMicros(0)), stamp(rowMicros(0)), stamp(rowMicros(0)), "0", "0", "0") + ";";
        String r1 = String.join(";", stamp(rowMicros(0)), stamp(rowMicros(0)), stamp(rowMicros(1)), "7", "6", "1") + ";";
        SipLoadFigures f = SippStatistics.read(write("small.csv", header + "\n" + r0 + "\n" + r1 + "\n")).total();
        assertEquals(7, f.callsCreated(), "no TotalCallCreated: incoming + outgoing");
        assertEquals(6, f.successfulCalls());
        assertNotNull(f.responseTimesMs());
        assertTrue(f.responseTimesMs().isEmpty());
        assertNull(f.callLengthMeanMs());
    }
}
