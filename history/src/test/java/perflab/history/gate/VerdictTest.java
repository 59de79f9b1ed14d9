package perflab.history.gate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.history.Figure;
import perflab.history.RunFigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate's verdicts and exit statuses for runs and experiments, and their JUnit XML. */
class VerdictTest {
    private static final List<Figure> FIGURES = List.of(new Figure(Figure.RUN, "p99", 4.2, "ms"),
            new Figure(Figure.RUN, "errors", 0, ""), new Figure(Figure.RUN, "throughput", 12000, "req/s"));

    @TempDir
    Path dir;

    private static RegressionCheck.Finding finding(boolean regression) {
        return RegressionCheck.compare(RunFigure.THROUGHPUT, new double[]{1000, 1010, 990, 1005},
                new double[]{regression ? 700 : 1001}, 9, RegressionCheck.Settings.DEFAULT);
    }

    @Test
    void eachVerdictHasItsExitStatus() {
        GateVerdict pass = GateVerdict.of(FIGURES, ObjectiveParser.parse("p99<5ms, errors=0"), List.of(finding(false)));
        assertEquals("pass", pass.verdict());
        assertEquals(0, pass.exitStatus());
        GateVerdict regression = GateVerdict.of(FIGURES, ObjectiveParser.parse("errors=0"), List.of(finding(true)));
        assertEquals("regression", regression.verdict());
        assertEquals(4, regression.exitStatus());
        GateVerdict missed = GateVerdict.of(FIGURES, ObjectiveParser.parse("p99<4ms"), List.of(finding(true)));
        assertEquals("slo-missed", missed.verdict());
        assertEquals(3, missed.exitStatus(), "a missed objective outranks a regression");
        assertEquals("missed: 4.2 ms, bound 4 ms", missed.objectives().get(0).note());
    }

    @Test
    void aFigureTheRunLacksMissesItsObjective() {
        GateVerdict v = GateVerdict.of(FIGURES, ObjectiveParser.parse("cpuPerRequest<60us"), List.of());
        assertEquals(3, v.exitStatus());
        assertNull(v.objectives().get(0).actual());
        assertTrue(v.objectives().get(0).note().startsWith("the run has no cpuPerRequest"), v.objectives().get(0).note());
    }

    @Test
    void anExperimentIsAsBadAsItsWorstConfiguration() {
        List<Objective> slo = ObjectiveParser.parse("p99<5ms");
        ExperimentVerdict.Configuration good = new ExperimentVerdict.Configuration("c1", "gc=g1", 3,
                GateVerdict.of(FIGURES, slo, List.of(finding(false))));
        ExperimentVerdict.Configuration regressed = new ExperimentVerdict.Configuration("c2", "gc=zgc", 3,
                GateVerdict.of(FIGURES, slo, List.of(finding(true))));
        ExperimentVerdict.Configuration slow = new ExperimentVerdict.Configuration("c3", "gc=serial", 3,
                GateVerdict.of(List.of(new Figure(Figure.RUN, "p99", 9, "ms")), slo, List.of()));
        ExperimentVerdict.Configuration unmeasured = new ExperimentVerdict.Configuration("c4", "gc=epsilon", 0, null);
        assertEquals(0, ExperimentVerdict.of(List.of(good)).exitStatus());
        assertEquals(4, ExperimentVerdict.of(List.of(good, regressed)).exitStatus());
        assertEquals(3, ExperimentVerdict.of(List.of(regressed, slow, good)).exitStatus());
        ExperimentVerdict none = ExperimentVerdict.of(List.of(good, unmeasured));
        assertEquals("not-measured", none.verdict());
        assertEquals(1, none.exitStatus(), "a gate never passes a configuration it could not see");
        List<String> lines = ExperimentVerdict.of(List.of(good, regressed)).lines();
        assertEquals("  c1 gc=g1 (mean of 3 runs): pass", lines.get(0));
        assertTrue(lines.contains("  c2 gc=zgc (mean of 3 runs): regression"), lines.toString());
        assertEquals("  verdict: regression (exit 4)", lines.get(lines.size() - 1));
    }

    @Test
    void junitShowsEachObjectiveAndCheckAsATestCase() throws Exception {
        Path file = dir.resolve("gate.xml");
        JUnitReport.write(file, "perflab <run>", GateVerdict.of(FIGURES, ObjectiveParser.parse("p99<4ms, errors=0"),
                List.of(finding(true))));
        String xml = Files.readString(file);
        assertTrue(xml.contains("<testsuite name=\"perflab &lt;run&gt;\" tests=\"3\" failures=\"2\""), xml);
        assertTrue(xml.contains("<testcase classname=\"perflab.slo\" name=\"p99&lt;4ms\">\n    <failure message=\"missed: 4.2 ms"), xml);
        assertTrue(xml.contains("<testcase classname=\"perflab.slo\" name=\"errors=0\">\n    <system-out>met: 0"), xml);
        assertTrue(xml.contains("<testcase classname=\"perflab.regression\" name=\"throughput\">\n    <failure message=\"throughput"), xml);

        ExperimentVerdict experiment = ExperimentVerdict.of(List.of(
                new ExperimentVerdict.Configuration("c1", "clients=1", 2, GateVerdict.of(FIGURES,
                        ObjectiveParser.parse("errors=0"), List.of(finding(false)))),
                new ExperimentVerdict.Configuration("c2", "clients=2", 0, null)));
        JUnitReport.write(file, "perflab tune", experiment);
        xml = Files.readString(file);
        assertTrue(xml.contains("tests=\"3\" failures=\"1\""), xml);
        assertTrue(xml.contains("name=\"c1 clients=1: errors=0\""), xml);
        assertTrue(xml.contains("name=\"c1 clients=1: throughput\""), xml);
        assertTrue(xml.contains("<testcase classname=\"perflab.measured\" name=\"c2 clients=2\">\n    <failure message="
                + "\"no complete run: nothing to judge\"/>"), xml);
        assertFalse(xml.contains("\u0000"));
    }

    @Test
    void meansOfRepeatsAreWhatAConfigurationIsHeldTo() throws Exception {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        List<Figure> means = RunFigure.meansOf(List.of(
                mapper.readTree("{\"throughput\": 100, \"latencyMs\": {\"p99\": 4}, \"errors\": {\"total\": 0}}"),
                mapper.readTree("{\"throughput\": 200, \"latencyMs\": {\"p99\": 6}, \"errors\": {\"total\": 0}}")));
        assertEquals(150.0, value(means, "throughput"));
        assertEquals(5.0, value(means, "p99"));
        assertEquals(0.0, value(means, "errors"));
        assertTrue(means.stream().noneMatch(f -> f.name().equals("cpuPerRequest")), "no run measured it");
    }

    private static double value(List<Figure> figures, String name) {
        return figures.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().value();
    }
}
