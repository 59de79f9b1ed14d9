package perflab.scenario;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.CookieJar;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * One client going through the scenario: its once steps, iterations of the mix, its end steps, then a new session.
 * It keeps the session's cookies (the jar), the values its steps extracted, its counters, and the values the
 * outstanding request used (its checks compare with them). A failed step ends the transaction it is part of (a
 * user whose page broke starts the next errand); a failed once step begins the session again, so that a lost login
 * is made again. Numbers go into their slots as numbers: a counter costs no allocation.
 */
final class ScenarioSession implements ClientSession {
    private enum Phase { ONCE, MIX, END }

    /** Consecutive steps skipped (ifPresent) before one is sent anyway: a mix whose every step waits for a value. */
    private static final int MAX_SKIPS = 1000;

    private final ScenarioTraffic traffic;
    private final SplittableRandom random;
    private final int clientIndex;
    private final int clientCount;
    private final CookieJar cookies = new CookieJar();
    private final ResponseReading reading = new ResponseReading();
    private final XPaths xpaths = new XPaths();
    private final Function<String, String> valueOf = this::valueOf;
    private final Request[] onceRequests;
    private final Request[][] mixRequests;
    private final Request[] endRequests;

    private final String seed;
    private final long[] counters;
    /** The extracted values: a String, a List of them (all:), or null (none). */
    private final Object[] extracted;
    /** The values the outstanding request used: a number, or text when {@link #currentText} holds it. */
    private final long[] currentNumber;
    private final String[] currentText;

    private Phase phase = Phase.ONCE;
    private int transaction;
    private int stepIndex;
    private long iteration;
    private long sessionNumber;
    private CompiledStep sent;
    /** The path of the request out, as its cookies were matched. */
    private String sentPath;

    ScenarioSession(ScenarioTraffic traffic, ClientContext context) {
        this.traffic = traffic;
        this.random = new SplittableRandom(context.seed());
        this.clientIndex = context.clientIndex();
        this.clientCount = context.clientCount();
        this.seed = Long.toUnsignedString(context.seed(), 36);
        int n = traffic.names.size();
        counters = new long[n];
        extracted = new Object[n];
        currentNumber = new long[n];
        currentText = new String[n];
        for (int i = 0; i < n; i++) {
            if (traffic.params.get(i) instanceof Scenario.Counter c) {
                counters[i] = c.start();
            }
        }
        onceRequests = requests(traffic.once);
        mixRequests = new Request[traffic.transactions.size()][];
        for (int t = 0; t < mixRequests.length; t++) {
            mixRequests[t] = requests(traffic.transactions.get(t));
        }
        endRequests = requests(traffic.end);
        transaction = traffic.mix.pick(random);
    }

    private static Request[] requests(List<CompiledStep> steps) {
        Request[] r = new Request[steps.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = new Request(steps.get(i).template);
        }
        return r;
    }

    @Override
    public Request next() {
        int skips = 0;
        while (true) {
            CompiledStep step = currentStep();
            if (skips < MAX_SKIPS && missing(step)) {
                skips++;
                stepIndex++;
                continue;
            }
            sent = step;
            return fill(step, currentRequest());
        }
    }

    /** The step the session is at, moving on through phases, iterations and sessions as each ends. */
    private CompiledStep currentStep() {
        while (true) {
            switch (phase) {
                case ONCE -> {
                    if (stepIndex < traffic.once.size()) {
                        return traffic.once.get(stepIndex);
                    }
                    phase = Phase.MIX;
                    stepIndex = 0;
                }
                case MIX -> {
                    List<CompiledStep> steps = traffic.transactions.get(transaction);
                    if (stepIndex < steps.size()) {
                        return steps.get(stepIndex);
                    }
                    iteration++;
                    stepIndex = 0;
                    boolean leaves = traffic.endsSession.get(transaction);
                    transaction = traffic.mix.pick(random);
                    if (leaves || traffic.scenario.iterations() > 0 && iteration >= traffic.scenario.iterations()) {
                        phase = Phase.END;
                    }
                }
                case END -> {
                    if (stepIndex < traffic.end.size()) {
                        return traffic.end.get(stepIndex);
                    }
                    newSession();
                }
            }
        }
    }

    private Request currentRequest() {
        return switch (phase) {
            case ONCE -> onceRequests[stepIndex];
            case MIX -> mixRequests[transaction][stepIndex];
            case END -> endRequests[stepIndex];
        };
    }

    /** The user's next visit: cookies and extracted values forgotten, the next row of data. */
    private void newSession() {
        sessionNumber++;
        iteration = 0;
        cookies.clear();
        java.util.Arrays.fill(extracted, null);
        phase = Phase.ONCE;
        stepIndex = 0;
    }

    /** Whether the step waits for a value it lacks (ifPresent) or is for when one is lacking (ifAbsent). */
    private boolean missing(CompiledStep step) {
        for (int id : step.ifPresent) {
            if (!holds(id)) {
                return true;
            }
        }
        for (int id : step.ifAbsent) {
            if (holds(id)) {
                return true;
            }
        }
        return false;
    }

    private boolean holds(int id) {
        Object v = extracted[id];
        return v != null && !(v instanceof List<?> l && l.isEmpty());
    }

    private Request fill(CompiledStep step, Request request) {
        for (int id : step.uses) {
            take(id);
        }
        if (step.consume >= 0 && extracted[step.consume] instanceof List<?> list) {
            list.remove(currentText[step.consume]); // sent is spent, answered or not: a sell is never made twice
        }
        for (int slot = 0; slot < step.slotVariable.length; slot++) {
            int id = step.slotVariable[slot];
            if (slot == step.cookieSlot) {
                continue;
            } else if (currentText[id] == null) {
                request.set(slot, currentNumber[id]);
            } else {
                request.set(slot, step.slotEncoding[slot].encode(currentText[id]));
            }
        }
        // a path with a variable before its query is known only now: the cookies are matched against it
        sentPath = step.cookiePath != null ? step.cookiePath : request.template().path(request);
        if (step.cookieSlot >= 0) {
            request.set(step.cookieSlot, cookies.header(sentPath));
        }
        Scenario.Think think = step.step.think();
        request.thinkNanos(think == null ? Request.RUN_THINK_TIME : think.draw(random));
        return request;
    }

    /** Gives variable {@code id} its value for this request. */
    private void take(int id) {
        String text = null;
        long number = 0;
        Object param = traffic.params.get(id);
        switch (traffic.sources.get(id)) {
            case CLIENT -> number = clientIndex;
            case SESSION -> number = sessionNumber;
            case ITERATION -> number = iteration;
            case SEED -> text = seed;
            case COUNTER -> number = counters[id]++;
            case RANGE -> {
                Scenario.Range r = (Scenario.Range) param;
                number = r.min() + random.nextLong(r.max() - r.min() + 1);
            }
            case ONE_OF -> {
                List<String> values = ((Scenario.OneOf) param).values();
                text = values.get(random.nextInt(values.size()));
            }
            case CONSTANT -> text = ((Scenario.Constant) param).value();
            case DATA -> {
                int[] fileColumn = (int[]) param;
                text = row(fileColumn[0]).get(fileColumn[1]);
            }
            case EXTRACTED -> {
                Object v = extracted[id];
                if (v instanceof List<?> l) {
                    text = l.isEmpty() ? "" : (String) l.get(random.nextInt(l.size()));
                } else {
                    text = v == null ? "" : (String) v;
                }
            }
        }
        currentNumber[id] = number;
        currentText[id] = text;
    }

    /** The session's row of a data file: no two clients hold the same row at once. */
    private List<String> row(int file) {
        Scenario.DataFile d = traffic.dataFiles.get(file);
        long index = clientIndex + sessionNumber * Math.max(1, clientCount);
        return d.rows().get((int) (index % d.rows().size()));
    }

    private String valueOf(String name) {
        int id = traffic.ids.get(name);
        return currentText[id] != null ? currentText[id] : Long.toString(currentNumber[id]);
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        CompiledStep step = sent;
        ResponseReading r = reading.of(response);
        if (response.header("Set-Cookie") != null) { // most answers set none: no list made for them
            cookies.receive(response, sentPath);
        }
        for (Check c : step.step.checks()) {
            String why = c.failure(r, valueOf, xpaths);
            if (why != null) {
                return failStep(c.errorKind(), step, why);
            }
        }
        if (deep) {
            for (Check c : step.step.deepChecks()) {
                String why = c.failure(r, valueOf, xpaths);
                if (why != null) {
                    return failStep(c.errorKind(), step, "deep check: " + why);
                }
            }
        }
        List<Extraction> extractions = step.step.extractions();
        for (int i = 0; i < extractions.size(); i++) {
            Extraction e = extractions.get(i);
            List<String> values;
            try {
                values = e.values(r, xpaths);
            } catch (IllegalStateException notReadable) {
                return failStep(ErrorKind.VALIDATION, step, "extract " + e.variable() + ": " + notReadable.getMessage());
            }
            if (values.isEmpty() && !e.optional()) {
                return failStep(ErrorKind.VALIDATION, step, "extract " + e.variable() + ": nothing found by " + e.describe());
            }
            extracted[step.extractInto[i]] = values.isEmpty() ? null : e.all() ? values : values.get(0); // a fresh list: consume may take from it
        }
        for (int i = 0; i < step.setInto.length; i++) {
            extracted[step.setInto[i]] = step.setText[i] == null ? null : step.setText[i].render(valueOf);
        }
        stepIndex++;
        return Verdict.OK;
    }

    @Override
    public void failed(Request request, ErrorKind kind) {
        abandon();
    }

    private Verdict failStep(ErrorKind kind, CompiledStep step, String why) {
        abandon();
        return Verdict.fail(kind, step.step.kind() + ": " + why);
    }

    /** After a failed step: the transaction ends; a failed once step begins the session again. */
    private void abandon() {
        switch (phase) {
            case ONCE -> {
                cookies.clear();
                java.util.Arrays.fill(extracted, null);
                stepIndex = 0;
            }
            case MIX -> stepIndex = Integer.MAX_VALUE / 2;
            case END -> newSession();
        }
    }
}
