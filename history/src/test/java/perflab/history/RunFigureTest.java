package perflab.history;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import perflab.core.result.Json;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunFigureTest {
    static JsonNode summary(String run) throws IOException {
        try (InputStream in = RunFigureTest.class.getResourceAsStream("/runs/" + run + "/summary.json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    private static Optional<Figure> find(List<Figure> figures, String scope, String name) {
        return figures.stream().filter(f -> f.scope().equals(scope) && f.name().equals(name)).findFirst();
    }

    @Test
    void readsTheRunsFiguresWithTheirUnits() throws IOException {
        JsonNode s = summary("soap-echo");
        List<Figure> figures = RunFigure.of(s);
        assertEquals(s.get("throughput").asDouble(), find(figures, "", "throughput").orElseThrow().value());
        Figure p99 = find(figures, "", "p99").orElseThrow();
        assertEquals(s.get("latencyMs").get("p99").asDouble(), p99.value());
        assertEquals("ms", p99.unit());
        assertEquals(0, find(figures, "", "errors").orElseThrow().value());
        // no database: the server side is the SUT alone
        assertEquals(s.get("sut").get("cpuMicrosPerRequest").asDouble(), find(figures, "", "cpuPerRequest").orElseThrow().value());
        assertEquals(s.get("gc").get("overheadPercent").asDouble(), find(figures, "", "gcOverhead").orElseThrow().value());
        assertEquals(s.get("steady").get("steady").asBoolean() ? 1 : 0, find(figures, "", "steady").orElseThrow().value());
        String kind = s.get("byKind").fieldNames().next();
        assertEquals(s.get("byKind").get(kind).get("latencyMs").get("p99").asDouble(),
                find(figures, Figure.kind(kind), "p99").orElseThrow().value());
        assertTrue(find(figures, Figure.kind(kind), "gcOverhead").isEmpty(), "a kind has no GC of its own");
    }

    @Test
    void theServerSideCountsTheDatabase() throws IOException {
        JsonNode s = summary("trade-postgresql");
        List<Figure> figures = RunFigure.of(s);
        assertEquals(s.get("database").get("sutAndDatabaseCpuMicrosPerRequest").asDouble(),
                find(figures, "", "cpuPerRequest").orElseThrow().value());
        assertEquals(s.get("sut").get("cpuMicrosPerRequest").asDouble(),
                find(figures, "", "sutCpuPerRequest").orElseThrow().value());
        assertTrue(find(figures, "", "cpuPerRequest").orElseThrow().value()
                > find(figures, "", "sutCpuPerRequest").orElseThrow().value());
    }

    @Test
    void keepsLoadSourcesAndTheWorkloadsOwnFigures() throws IOException {
        JsonNode s = summary("voicemail");
        List<Figure> figures = RunFigure.of(s);
        assertEquals(s.get("loads").get("phone").get("callsCreated").asDouble(),
                find(figures, Figure.load("phone"), "callsCreated").orElseThrow().value());
        assertTrue(find(figures, Figure.load("phone"), "fromEpochMicros").isEmpty(), "when the load was cut is no figure");
        assertEquals(s.get("figures").get("convergedOperationsPerSecond").asDouble(),
                find(figures, Figure.WORKLOAD, "convergedOperationsPerSecond").orElseThrow().value());
        assertEquals(s.get("figures").get("refusedClicks").get("percent").asDouble(),
                find(figures, Figure.WORKLOAD, "refusedClicks.percent").orElseThrow().value());
    }

    @Test
    void aMissingFigureIsLeftOutNotZero() throws IOException {
        JsonNode s = Json.MAPPER.readTree("{\"throughput\": 10.5, \"latencyMs\": {\"p99\": 2.0}}");
        List<Figure> figures = RunFigure.of(s);
        assertEquals(List.of("throughput", "p99"), figures.stream().map(Figure::name).toList());
    }

    @Test
    void knowsWhichWayEachFigureGetsBetter() {
        assertTrue(RunFigure.better("", "throughput").worse(100, 90));
        assertTrue(RunFigure.better("", "p99").worse(1, 2));
        assertTrue(RunFigure.better("kind:page", "p99").worse(1, 2));
        assertEquals(Better.EITHER, RunFigure.better("load:phone", "p99"));
        assertEquals(Better.EITHER, RunFigure.better("", "noSuchFigure"));
    }
}
