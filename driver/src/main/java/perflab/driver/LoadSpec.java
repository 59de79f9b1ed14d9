package perflab.driver;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the driver needs to know about the load, validated once here.
 *
 * @param target          http://host:port/path of the service
 * @param clients         connections (closed model: clients; open model: the connection pool)
 * @param rate            requests per second for the open model; 0 for the closed model
 * @param schedule        how the open model spaces its requests
 * @param duration        measured window by time; null when the window is a request count
 * @param requests        measured window by count (completed requests, errors included); 0 when by time
 * @param warmup          warm-up by time (may be zero)
 * @param warmupRequests  warm-up by count (0 = by time)
 * @param thinkTime       closed model: pause between a response and the client's next request
 * @param connections     connection policy
 * @param timeout         per-request timeout
 * @param deepCheckRatio  share of measured responses whose full content is checked (warm-up: all)
 * @param seed            random seed (Poisson schedule, traffic sessions)
 * @param eventLoops      Netty event loops (0 = one per available core)
 * @param firstClientIndex index of this process's first client when a run is split over driver processes
 */
public record LoadSpec(URI target, int clients, double rate, Schedule schedule, Duration duration, long requests,
                       Duration warmup, long warmupRequests, Duration thinkTime, ConnectionPolicy connections,
                       Duration timeout, double deepCheckRatio, long seed, int eventLoops, int firstClientIndex) {

    public enum Schedule { CONSTANT, POISSON }

    public LoadSpec {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(timeout, "timeout");
        warmup = warmup == null ? Duration.ZERO : warmup;
        thinkTime = thinkTime == null ? Duration.ZERO : thinkTime;
        if (clients < 1) {
            throw new IllegalArgumentException("--clients must be at least 1, got " + clients);
        }
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must be above 0, got " + rate);
        }
        if ((duration == null) == (requests <= 0)) {
            throw new IllegalArgumentException("give either a duration or a request count, not both");
        }
        if (deepCheckRatio < 0 || deepCheckRatio > 1) {
            throw new IllegalArgumentException("the deep-check ratio must be within 0..1, got " + deepCheckRatio);
        }
        if (!"http".equalsIgnoreCase(target.getScheme())) {
            throw new IllegalArgumentException("--target must be an http:// URL, got " + target);
        }
    }

    public boolean openModel() {
        return rate > 0;
    }
}
