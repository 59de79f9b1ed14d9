package perflab.driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import perflab.core.traffic.Agenda;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.Verdict;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Traffic that paces itself ({@link Agenda}) against a real server: visitors arrive at the run's rate, each sends
 * "arrive", then "follow" as soon as that answered, then "leave" a hold later. Every step must go out for its own
 * visitor (the echo server answers the id), at its time, and the run must count arrivals, not requests, as its rate.
 */
class AgendaTrafficTest {
    private static final long HOLD_MS = 300;
    private static final String[] KINDS = {"arrive", "follow", "leave"};

    private EchoServer server;

    @BeforeEach
    void start() throws InterruptedException {
        server = new EchoServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** One visitor's step: the step's kind index and its visitor. */
    private record Step(long dueNanos, int kind, long visitor) {
    }

    /** The visitors' agenda and their sessions; records when each step went out and when it answered. */
    private static final class Visitors implements Traffic {
        final Map<Long, long[]> times = new ConcurrentHashMap<>(); // visitor -> sent/answered nanos per step
        final List<RequestTemplate> templates = List.of(template(0), template(1), template(2));
        double rate;
        Thread loopThread;
        private long startNanos;
        private long arrivals;
        private final PriorityQueue<Step> later = new PriorityQueue<>((a, b) -> Long.compare(a.dueNanos, b.dueNanos));
        private final ArrayDeque<Step> released = new ArrayDeque<>();
        private long dropped;

        private static RequestTemplate template(int kind) {
            return RequestTemplate.withIdSlot(KINDS[kind], "POST", "/echo", List.of(), "id=", "");
        }

        private final Agenda agenda = new Agenda() {
            @Override
            public void start(long start) {
                startNanos = start;
            }

            private long nextArrival() {
                return startNanos + (long) (arrivals * 1e9 / rate);
            }

            @Override
            public long nextDue() {
                long arrival = nextArrival();
                return later.isEmpty() ? arrival : Math.min(arrival, later.peek().dueNanos);
            }

            @Override
            public void release() {
                checkThread();
                long arrival = nextArrival();
                if (!later.isEmpty() && later.peek().dueNanos <= arrival) {
                    released.addLast(later.poll());
                } else {
                    released.addLast(new Step(arrival, 0, arrivals++));
                }
            }

            @Override
            public void expired() {
                released.pollFirst();
                dropped++;
            }
        };

        private void checkThread() {
            if (loopThread == null) {
                loopThread = Thread.currentThread();
            }
            if (loopThread != Thread.currentThread()) {
                throw new AssertionError("the agenda was used from two threads");
            }
        }

        @Override
        public Agenda agenda(double arrivalsPerSecond, boolean poisson) {
            rate = arrivalsPerSecond;
            return agenda;
        }

        @Override
        public ClientSession newSession(ClientContext context) {
            return new ClientSession() {
                @Override
                public Request next() {
                    checkThread();
                    Step step = released.pollFirst();
                    times.computeIfAbsent(step.visitor, v -> new long[6])[step.kind * 2] = System.nanoTime();
                    return Request.of(templates.get(step.kind), step.visitor * 10 + step.kind);
                }

                @Override
                public Verdict check(Request request, ResponseView response, boolean deep) {
                    long now = System.nanoTime();
                    long id = request.id();
                    String body = response.bodyText();
                    if (!body.equals("idout=" + id)) {
                        return Verdict.fail(ErrorKind.VALIDATION, "expected idout=" + id + ", got " + body);
                    }
                    long visitor = id / 10;
                    int kind = (int) (id % 10);
                    times.get(visitor)[kind * 2 + 1] = now;
                    if (kind == 0) {
                        later.add(new Step(now, 1, visitor)); // due at once: the same client takes it
                    } else if (kind == 1) {
                        later.add(new Step(now + HOLD_MS * 1_000_000, 2, visitor));
                    }
                    return Verdict.OK;
                }
            };
        }

        @Override
        public List<String> requestKinds() {
            return List.of(KINDS);
        }
    }

    @Test
    void stepsGoOutForTheirVisitorAtTheirTimesAndTheRateCountsArrivals() throws Exception {
        Visitors visitors = new Visitors();
        TestSpec spec = new TestSpec(server.uri());
        spec.clients = 4;
        spec.eventLoops = 2; // asked for two: an agenda runs on one
        spec.rate = 40; // visitors per second
        spec.duration = Duration.ofSeconds(3);
        DriverResult r = new LoadDriver(spec.build(), visitors).run(i -> { });

        assertTrue(r.complete(), r.endReason());
        assertEquals(0, r.errors().values().stream().mapToLong(Long::longValue).sum(), () -> "errors " + r.errorSamples());
        assertEquals(0, visitors.dropped);
        // 40 visitors a second for 3 s, three steps each, less those whose hold ran past the end
        long arrived = visitors.times.values().stream().filter(t -> t[1] > 0).count();
        // arrivals follow the clock, so never more; fewer only if a busy machine starves the loop
        assertTrue(arrived >= 60 && arrived <= 130, "visitors who arrived and were answered: " + arrived);
        long complete = 0;
        for (long[] t : visitors.times.values()) {
            if (t[1] > 0 && t[2] > 0) {
                assertTrue(t[2] >= t[1], "follow went out before arrive answered");
                // the same client takes it at once; a second is a margin for a CI machine with the other CPU busy
                assertTrue(t[2] - t[1] < 1_000_000_000, "follow waited " + (t[2] - t[1]) / 1e6 + " ms");
            }
            if (t[3] > 0 && t[4] > 0) {
                long held = (t[4] - t[3]) / 1_000_000;
                assertTrue(held >= HOLD_MS && held < HOLD_MS + 1000, "leave went out " + held + " ms after follow answered");
                complete++;
            }
        }
        assertTrue(complete >= 40, "visitors who completed all three steps: " + complete);
    }
}
