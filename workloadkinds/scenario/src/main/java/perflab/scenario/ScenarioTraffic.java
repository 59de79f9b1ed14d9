package perflab.scenario;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.WeightedMix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scenario compiled for one run: each step a request template, each variable an id the sessions index their values
 * by, the mix a {@link WeightedMix} of transactions. Immutable and shared by the sessions.
 */
final class ScenarioTraffic implements Traffic {
    /** Where a variable's value comes from. */
    enum Source { CLIENT, SESSION, ITERATION, SEED, COUNTER, ONE_OF, RANGE, CONSTANT, DATA, EXTRACTED }

    final Scenario scenario;
    final Map<String, Integer> ids = new HashMap<>();
    final List<String> names = new ArrayList<>();
    final List<Source> sources = new ArrayList<>();
    /** Per variable: its declaration, or for a data column {file index, column index}. */
    final List<Object> params = new ArrayList<>();
    final List<Scenario.DataFile> dataFiles;
    final List<CompiledStep> once;
    final List<List<CompiledStep>> transactions = new ArrayList<>();
    /** Per transaction: whether the session ends after it. */
    final List<Boolean> endsSession = new ArrayList<>();
    final WeightedMix<Integer> mix;
    final List<CompiledStep> end;
    private final List<String> kinds;

    /**
     * @param basePath    the target's path, before every step's
     * @param transaction the one transaction to drive, or null for the whole mix
     */
    ScenarioTraffic(Scenario scenario, String basePath, String transaction) {
        this.scenario = scenario;
        add("client", Source.CLIENT, null);
        add("session", Source.SESSION, null);
        add("iteration", Source.ITERATION, null);
        add("seed", Source.SEED, null);
        scenario.variables().forEach((name, v) -> add(name, v instanceof Scenario.Counter ? Source.COUNTER
                : v instanceof Scenario.OneOf ? Source.ONE_OF : v instanceof Scenario.Range ? Source.RANGE
                : Source.CONSTANT, v));
        dataFiles = List.copyOf(scenario.data().values());
        for (int f = 0; f < dataFiles.size(); f++) {
            Scenario.DataFile d = dataFiles.get(f);
            for (int c = 0; c < d.columns().size(); c++) {
                add(d.name() + "." + d.columns().get(c), Source.DATA, new int[] {f, c});
            }
        }
        for (Step s : scenario.steps()) {
            s.extractions().forEach(e -> {
                if (!ids.containsKey(e.variable())) {
                    add(e.variable(), Source.EXTRACTED, null);
                }
            });
            s.set().keySet().forEach(name -> {
                if (!ids.containsKey(name)) {
                    add(name, Source.EXTRACTED, null);
                }
            });
        }
        once = compile(scenario.once(), basePath);
        WeightedMix.Builder<Integer> b = WeightedMix.builder();
        for (Scenario.Transaction t : scenario.mix()) {
            if (transaction == null || t.name().equals(transaction)) {
                b.add(transactions.size(), transaction == null ? t.weight() : 1);
                transactions.add(compile(t.steps(), basePath));
                endsSession.add(t.endsSession());
            }
        }
        mix = b.build();
        end = compile(scenario.end(), basePath);
        Set<String> all = new LinkedHashSet<>();
        once.forEach(s -> all.add(s.step.kind()));
        transactions.forEach(t -> t.forEach(s -> all.add(s.step.kind())));
        end.forEach(s -> all.add(s.step.kind()));
        kinds = List.copyOf(all);
    }

    private void add(String name, Source source, Object param) {
        ids.put(name, names.size());
        names.add(name);
        sources.add(source);
        params.add(param);
    }

    private List<CompiledStep> compile(List<Step> steps, String basePath) {
        List<CompiledStep> compiled = new ArrayList<>();
        for (Step s : steps) {
            compiled.add(new CompiledStep(s, basePath, ids));
        }
        return compiled;
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        for (Scenario.DataFile d : dataFiles) {
            if (context.clientCount() > d.rows().size()) {
                throw new IllegalArgumentException(scenario.file() + ": " + context.clientCount() + " clients but "
                        + d.path() + " has " + d.rows().size() + " rows: each client takes a row of its own; give "
                        + "fewer --clients or more rows");
            }
        }
        return new ScenarioSession(this, context);
    }

    @Override
    public List<String> requestKinds() {
        return kinds;
    }
}
