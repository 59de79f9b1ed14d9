package perflab.loadsource.sipp;

/**
 * One SIPp response-time measure (an "rtd" of the scenario, "1" in the built-in ones) over a window, in ms.
 * {@code source} says where it came from: "trace_stat" gives only the mean (per period, weighted by the period's
 * samples); "trace_rtt" is every sample, so the percentiles are known too (null otherwise). SIPp 3.6 reads its clock
 * with CLOCK_MONOTONIC_COARSE: values are multiples of the kernel tick (4 ms on this machine), so loopback shows 0.
 */
public record SipResponseTime(long count, double meanMs, Double p50Ms, Double p90Ms, Double p99Ms, Double maxMs,
                              String source) {
}
