package perflab.experiment.run;

import com.fasterxml.jackson.databind.JsonNode;
import perflab.core.result.Decimals;
import perflab.core.result.Json;
import perflab.core.result.ServerWindow;
import perflab.core.workload.ServerCounters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Samples the SUT's own counters ({@link ServerCounters}) at each of the recorder's per-second ticks, without ever
 * holding the tick up: the request goes out asynchronously, and a tick that finds the previous one still unanswered
 * asks nothing (a missed second: counted, never guessed). Each answer is kept as a {@link ServerWindow.Sample} (the
 * middle of its round trip, the phase of its tick) and written to timeseries-server.csv at once; the measured
 * window's figures come from the samples at the end ({@link #window}). A SUT run as several instances is sampled
 * instance by instance, each on its own port, and its window is their sum ({@link ServerWindow#ofInstances}).
 */
final class ServerCounterSampler implements AutoCloseable {
    static final String CSV = "timeseries-server.csv";
    static final String HEADER = "second,phase,epochMs,process,name,value,perSecond";
    /** An answer later than this is a missed second. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** One SUT process's counters: where they are asked, what came, whether an ask is out. */
    private static final class Source {
        final String process;
        final URI uri;
        final List<ServerWindow.Sample> samples = new ArrayList<>();
        boolean inFlight;
        /** Its process is gone and another serves on its port now: asked no more, late answers dropped. */
        boolean retired;
        int missedInWindow;
        ServerWindow.Sample previous;

        Source(String process, URI uri) {
            this.process = process;
            this.uri = uri;
        }
    }

    private final ServerCounters declared;
    private final List<Source> sources = new ArrayList<>();
    private final HttpClient http;
    private final BufferedWriter csv;
    private boolean closed;

    /** @param base the SUT's http://host:port; the declared path is asked there */
    ServerCounterSampler(ServerCounters declared, URI base, Path runDir) throws IOException {
        this(declared, List.of(base), runDir);
    }

    /**
     * @param bases each SUT process's http://host:port, in instance order (one for a SUT that is one process); the
     *              declared path is asked at each
     */
    ServerCounterSampler(ServerCounters declared, List<URI> bases, Path runDir) throws IOException {
        this.declared = declared;
        for (int i = 0; i < bases.size(); i++) {
            URI base = bases.get(i);
            sources.add(new Source(perflab.core.workload.SutInstances.name(i, bases.size()),
                    URI.create(base.getScheme() + "://" + base.getRawAuthority() + declared.path())));
        }
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        this.csv = Files.newBufferedWriter(runDir.resolve(CSV));
        csv.write(HEADER);
        csv.newLine();
        csv.flush();
    }

    /**
     * Samples one more SUT process from the next tick on: an instance started again mid-run ({@code name}, serving at
     * {@code base}), whose counters started from 0 when it did. Its span starts with a sample of nothing at
     * {@code startedEpochMs}, so that the window counts what it did before its first tick too, and never mixes its
     * counters with those of its life before (a source of its own: the life before keeps its samples).
     */
    synchronized void addSource(String name, URI base, long startedEpochMs) {
        Source source = new Source(name, URI.create(base.getScheme() + "://" + base.getRawAuthority() + declared.path()));
        source.samples.add(new ServerWindow.Sample(startedEpochMs, "measure", Map.of()));
        sources.add(source);
    }

    /**
     * Asks process {@code name} no more: it was killed and is about to be started again on the same port, where
     * its samples would read the next life's counters as its own.
     */
    synchronized void retireSource(String name) {
        sources.stream().filter(source -> source.process.equals(name)).forEach(source -> source.retired = true);
    }

    /** Where the (first) SUT process's counters are asked. */
    URI uri() {
        return sources.get(0).uri;
    }

    /** Asks every SUT process for a sample now, for the tick of {@code second} in {@code phase}; returns at once. */
    void tick(long second, String phase) {
        List<Source> now;
        synchronized (this) {
            now = List.copyOf(sources);
        }
        for (Source source : now) {
            tick(source, second, phase);
        }
    }

    private void tick(Source source, long second, String phase) {
        synchronized (this) {
            if (closed || source.retired) {
                return;
            }
            if (source.inFlight) {
                if ("measure".equals(phase)) {
                    source.missedInWindow++;
                }
                return;
            }
            source.inFlight = true;
        }
        long sent = System.currentTimeMillis();
        HttpRequest request = HttpRequest.newBuilder(source.uri).timeout(TIMEOUT).GET().build();
        try {
            http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                long received = System.currentTimeMillis();
                Map<String, Double> values = error != null || response.statusCode() != 200 ? null : parse(response.body());
                answered(source, second, phase, sent + (received - sent) / 2, values);
            });
        } catch (RuntimeException e) {
            answered(source, second, phase, sent, null);
        }
    }

    private synchronized void answered(Source source, long second, String phase, long epochMs, Map<String, Double> values) {
        source.inFlight = false;
        notifyAll();
        if (source.retired) {
            return;
        }
        if (values == null) {
            if ("measure".equals(phase)) {
                source.missedInWindow++;
            }
            return;
        }
        ServerWindow.Sample sample = new ServerWindow.Sample(epochMs, phase, values);
        source.samples.add(sample);
        if (!closed) {
            try {
                write(source, second, sample);
            } catch (IOException e) {
                closed = true; // the run's other files say more; the samples are still summarised
            }
        }
        source.previous = sample;
    }

    /**
     * A sample's rows: each counter's value and its rate since the previous sample, each gauge's value, each
     * histogram's p50 and p99 since the previous sample (rows {@code H.p50Ms}, {@code H.p99Ms}, perSecond its count
     * per second); bucket counters themselves are left to the summary.
     */
    private void write(Source source, long second, ServerWindow.Sample s) throws IOException {
        ServerWindow.Sample previous = source.previous;
        double dt = previous == null ? Double.NaN : (s.epochMs() - previous.epochMs()) / 1000.0;
        String head = second + "," + s.phase() + "," + s.epochMs() + "," + source.process + ",";
        for (Map.Entry<String, Double> e : s.values().entrySet()) {
            String name = e.getKey();
            if (declared.histogramOf(name) != null) {
                continue;
            }
            String rate = "";
            if (!declared.isGauge(name) && previous != null && dt > 0) {
                rate = number((e.getValue() - previous.values().getOrDefault(name, 0.0)) / dt);
            }
            csv.write(head + RunRecorder.csvText(name) + "," + number(e.getValue()) + "," + rate);
            csv.newLine();
        }
        if (previous != null) {
            for (String h : new TreeSet<>(declared.histograms())) {
                ServerWindow.Latency l = ServerWindow.latency(previous.values(), s.values(), h);
                String rate = dt > 0 ? number(l.count() / dt) : "";
                csv.write(head + RunRecorder.csvText(h + ".p50Ms") + "," + (l.p50Ms() == null ? "" : number(l.p50Ms())) + "," + rate);
                csv.newLine();
                csv.write(head + RunRecorder.csvText(h + ".p99Ms") + "," + (l.p99Ms() == null ? "" : number(l.p99Ms())) + "," + rate);
                csv.newLine();
            }
        }
        csv.flush();
    }

    /** Written without String.format: this runs once a second in the driver's JVM (see Decimals). */
    private static String number(double v) {
        return Decimals.compact(v, 3);
    }

    /** Every number in a JSON object, nested objects flattened with '.'; null when the text is not a JSON object. */
    static Map<String, Double> parse(String body) {
        try {
            JsonNode root = Json.MAPPER.readTree(body);
            if (root == null || !root.isObject()) {
                return null;
            }
            Map<String, Double> values = new TreeMap<>();
            flatten("", root, values);
            return values;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void flatten(String prefix, JsonNode node, Map<String, Double> into) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            if (e.getValue().isNumber()) {
                into.put(name, e.getValue().asDouble());
            } else if (e.getValue().isObject()) {
                flatten(name, e.getValue(), into);
            }
        }
    }

    /** Waits, at most {@code bound}, for the sample asked last to come in (or be given up). */
    synchronized void awaitAnswer(Duration bound) throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (sources.stream().anyMatch(source -> source.inFlight)) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** The measured window's figures from the samples so far; null with fewer than two samples in it. */
    synchronized ServerWindow window() {
        List<List<ServerWindow.Sample>> each = sources.stream().map(source -> List.copyOf(source.samples)).toList();
        int missed = sources.stream().mapToInt(source -> source.missedInWindow).sum();
        String where = sources.size() == 1 ? uri().toString()
                : sources.size() + " instances' " + declared.path() + " (" + uri() + ", ...)";
        return ServerWindow.ofInstances(declared, where, each, missed);
    }

    /** The samples that came from the (first) SUT process so far. */
    synchronized List<ServerWindow.Sample> samples() {
        return List.copyOf(sources.get(0).samples);
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        csv.close();
    }
}
