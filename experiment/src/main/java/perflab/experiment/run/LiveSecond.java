package perflab.experiment.run;

/**
 * One second of a run as it goes, for a live export ({@code --metrics-export}): the figures of the live line.
 * NaN where a figure is not known that second (no SUT of perflab's, no GC log yet).
 *
 * @param phase {@code warmup} or {@code window} (the measured window)
 */
public record LiveSecond(String phase, long epochMs, double seconds, long successes, long errors, double throughput,
                         double p50Ms, double p99Ms, double sutCpuPercent, double sutRssMb, double machineCpuPercent,
                         double gcOverheadPercent) {
}
