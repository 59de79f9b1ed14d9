package perflab.example.hello;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficOptions;

import java.util.List;
import java.util.SplittableRandom;

/**
 * hello's traffic for one operation: one request template built once, with a {@value RequestTemplate#ID_WIDTH}-digit
 * id slot that makes every request of a client differ (the start of echo's body, greet's {@code ?id=}), so that a
 * server answering a canned or cached response fails the check at once. Immutable; sessions are per client.
 */
final class HelloTraffic implements Traffic {
    private static final List<RequestTemplate.Header> TEXT =
            List.of(new RequestTemplate.Header("Content-Type", "text/plain; charset=UTF-8"));

    final String operation;
    final RequestTemplate template;

    private HelloTraffic(String operation, RequestTemplate template) {
        this.operation = operation;
        this.template = template;
    }

    static HelloTraffic of(TrafficOptions options) {
        // drive --target URL: the service at the URL's path; run: the workload's own path
        String path = options.target().getRawPath();
        if (path == null || path.isEmpty()) {
            path = HelloWorkload.SERVICE_PATH;
        }
        String operation = options.operation();
        return switch (operation) {
            case HelloWorkload.ECHO -> {
                int size = Integer.parseInt(options.setting(HelloWorkload.SIZE));
                yield new HelloTraffic(operation, RequestTemplate.withIdSlot(operation, "POST", path, TEXT, "",
                        filler(size - RequestTemplate.ID_WIDTH, options.seed())));
            }
            case HelloWorkload.GREET -> new HelloTraffic(operation, RequestTemplate.builder(operation, "GET")
                    .pathLiteral(path + "?id=").path("${" + RequestTemplate.ID + ":" + RequestTemplate.ID_WIDTH + "}")
                    .build());
            default -> throw new IllegalArgumentException("unknown hello operation '" + operation + "'; known: "
                    + HelloWorkload.ECHO + ", " + HelloWorkload.GREET);
        };
    }

    /** Letters from the run's seed: the same body for the same seed, and nothing a server could guess. */
    static String filler(int length, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        return new HelloSession(this, context.clientIndex());
    }

    @Override
    public List<String> requestKinds() {
        return List.of(operation);
    }
}
