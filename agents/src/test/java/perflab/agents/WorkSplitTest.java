package perflab.agents;

import org.junit.jupiter.api.Test;
import perflab.driver.ConnectionPolicy;
import perflab.driver.LoadSpec;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkSplitTest {
    static LoadSpec spec(int clients, double rate, long requests) {
        return new LoadSpec(URI.create("http://127.0.0.1:8080/x"), clients, rate, LoadSpec.Schedule.CONSTANT,
                requests > 0 ? null : Duration.ofSeconds(10), requests, Duration.ofSeconds(1), 0, Duration.ZERO,
                ConnectionPolicy.PERSISTENT, Duration.ofSeconds(5), 0.01, 42, 0, 0);
    }

    @Test
    void cumulativeFloorsAlwaysSumToTheTotal() {
        int[][] weights = {{1, 1, 1}, {2, 1}, {1, 2, 3, 4}, {7}, {3, 3, 3, 3, 3, 3, 3}};
        for (int[] w : weights) {
            for (long total : new long[]{0, 1, 2, 10, 999, 1000, 1001, 123_456_789}) {
                long[] parts = WorkSplit.cumulativeFloors(total, w);
                long sum = 0;
                for (long p : parts) {
                    assertTrue(p >= 0);
                    sum += p;
                }
                assertEquals(total, sum, "total " + total + " over " + java.util.Arrays.toString(w));
            }
        }
        // a part per weight, each within one of its exact share
        assertEquals(List.of(333L, 333L, 334L), java.util.Arrays.stream(WorkSplit.cumulativeFloors(1000, new int[]{1, 1, 1})).boxed().toList());
        assertEquals(List.of(667L, 334L), java.util.Arrays.stream(WorkSplit.cumulativeFloors(1001, new int[]{2, 1})).boxed().toList());
    }

    @Test
    void clientsKeepTheirOneMachineIndexesAndNoTwoAgentsShareOne() {
        List<LoadSpec> parts = WorkSplit.split(spec(10, 0, 0), new int[]{1, 1, 1});
        assertEquals(List.of(3, 3, 4), parts.stream().map(LoadSpec::clients).toList());
        assertEquals(List.of(0, 3, 6), parts.stream().map(LoadSpec::firstClientIndex).toList());
        for (int i = 0; i < parts.size(); i++) {
            assertEquals(i, parts.get(i).share().agent());
            assertEquals(3, parts.get(i).share().agents());
            assertEquals(10, parts.get(i).runClients(), "sessions deal shared data by the run's clients");
        }
    }

    @Test
    void theRateAndTheCountsAreSplitExactlyByWeight() {
        List<LoadSpec> parts = WorkSplit.split(spec(8, 1000.5, 0), new int[]{2, 1, 1});
        assertEquals(1000.5, parts.stream().mapToDouble(LoadSpec::rate).sum(), 1e-9);
        assertEquals(500.25, parts.get(0).rate(), 1e-9);
        // a constant schedule's stripes: each agent offset by the weight before it
        assertEquals(List.of(0.0, 0.5, 0.75), parts.stream().map(p -> p.share().stagger()).toList());
        // the population's parts tile it: each ends where the next starts, the last at the whole's end
        long users = 100_003;
        long next = 0;
        for (LoadSpec p : parts) {
            assertEquals(next, p.share().trafficPart().first(users));
            next = p.share().trafficPart().end(users);
        }
        assertEquals(users, next);
        assertEquals(50_001, parts.get(0).share().trafficPart().end(users), "agent 1's half, by its weight");
        List<LoadSpec> counted = WorkSplit.split(spec(4, 0, 1001), new int[]{1, 1});
        assertEquals(1001, counted.stream().mapToLong(LoadSpec::requests).sum());
    }

    @Test
    void aSplitThatLeavesAnAgentNothingIsRefusedInOneLine() {
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
                () -> WorkSplit.split(spec(1, 0, 0), new int[]{1, 1}));
        assertEquals("--clients 1 is fewer than the 2 agents: each agent needs a client at least", few.getMessage());
        IllegalArgumentException slow = assertThrows(IllegalArgumentException.class,
                () -> WorkSplit.split(spec(4, 0.001, 0), new int[]{1, 1}));
        assertTrue(slow.getMessage().startsWith("--rate 0.001 leaves agent 1 without requests"), slow.getMessage());
    }
}
