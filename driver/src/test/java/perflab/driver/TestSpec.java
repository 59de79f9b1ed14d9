package perflab.driver;

import java.net.URI;
import java.time.Duration;

/** A mutable LoadSpec builder for tests: defaults are a small closed-model run. */
final class TestSpec {
    URI target;
    int clients = 4;
    double rate;
    LoadSpec.Schedule schedule = LoadSpec.Schedule.CONSTANT;
    Duration duration;
    long requests;
    Duration warmup = Duration.ZERO;
    long warmupRequests;
    Duration think = Duration.ZERO;
    ConnectionPolicy connections = ConnectionPolicy.PERSISTENT;
    Duration timeout = Duration.ofSeconds(5);
    double deepCheckRatio = 0.01;
    long seed = 42;
    int eventLoops = 2;
    LoadSpec.HttpVersion http = LoadSpec.HttpVersion.HTTP1;
    int streams = 1;

    TestSpec(URI target) {
        this.target = target;
    }

    LoadSpec build() {
        return new LoadSpec(target, clients, rate, schedule, duration, requests, warmup, warmupRequests, think,
                connections, timeout, deepCheckRatio, seed, eventLoops, 0, http, streams);
    }
}
