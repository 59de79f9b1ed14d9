package perflab.agents;

import org.HdrHistogram.Histogram;
import perflab.agents.wire.ToController;
import perflab.agents.wire.WireCodec;
import perflab.core.traffic.ErrorKind;
import perflab.driver.Interval;
import perflab.driver.KindFigures;
import perflab.driver.Phase;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The controller's cost of a merged second (bench/agents-merge.sh): each agent's report of one second decoded from
 * the wire and added into the merged interval, for a merged rate split over N agents. The reports are made the way
 * an agent makes them (latencies spread log-normally around 1 ms, a few kinds), encoded beforehand: only the
 * controller's work is timed, on this thread's CPU clock.
 *
 * <p>Usage: MergeCostBench RATE AGENTS SECONDS
 */
public final class MergeCostBench {
    private MergeCostBench() {
    }

    public static void main(String[] args) {
        long rate = Long.parseLong(args[0]);
        int agents = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        SplittableRandom random = new SplittableRandom(1);
        List<List<byte[]>> wire = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            List<byte[]> second = new ArrayList<>();
            for (int a = 0; a < agents; a++) {
                second.add(WireCodec.encode(new ToController.Report(s, interval(rate / agents, random, s), 1.0, 2.0)));
            }
            wire.add(second);
        }
        long bytes = wire.get(0).stream().mapToLong(b -> b.length).sum();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long[] merged = new long[1];
        // the first pass warms the JIT; the second is timed
        for (int pass = 0; pass < 2; pass++) {
            IntervalMerge merge = new IntervalMerge(agents, i -> merged[0] += i.successes());
            long start = cpu.getCurrentThreadCpuTime();
            for (List<byte[]> second : wire) {
                for (int a = 0; a < agents; a++) {
                    ToController.Report r = (ToController.Report) WireCodec.decode(second.get(a), ToController.class);
                    merge.offer(a, r.index(), r.interval());
                }
            }
            long nanos = cpu.getCurrentThreadCpuTime() - start;
            if (pass == 1) {
                double perSecondMicros = nanos / 1e3 / seconds;
                System.out.printf(java.util.Locale.ROOT,
                        "rate %,d req/s over %d agents: %.0f µs of controller CPU per merged second = %.3f%% of a CPU "
                                + "(reports %,d bytes a second in all)%n", rate, agents, perSecondMicros,
                        perSecondMicros / 1e4, bytes);
            }
        }
        if (merged[0] == 0) {
            throw new IllegalStateException("nothing merged");
        }
    }

    private static Interval interval(long requests, SplittableRandom random, int second) {
        Map<String, KindFigures> kinds = new LinkedHashMap<>();
        Histogram all = new Histogram(3);
        String[] names = {"echo", "list", "buy"};
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, 0L);
        }
        for (String name : names) {
            Histogram h = new Histogram(3);
            for (long i = 0; i < requests / names.length; i++) {
                long micros = (long) Math.min(60_000_000, Math.exp(Math.log(1000) + random.nextGaussian() * 1.2));
                h.recordValue(Math.max(1, micros));
            }
            all.add(h);
            kinds.put(name, new KindFigures(h.getTotalCount(), errors, h));
        }
        long start = 1_700_000_000_000L + second * 1000L;
        return new Interval(Phase.MEASURE, start, start + 1000, second + 1, all.getTotalCount(), errors, all, all.copy(),
                new Histogram(3), all.copy(), 0, 0, kinds);
    }
}
