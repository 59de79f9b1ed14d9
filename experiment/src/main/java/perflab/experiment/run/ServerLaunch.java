package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.server.ServerKind;
import perflab.core.server.ServerKinds;
import perflab.core.server.ServerPlan;
import perflab.core.server.ServerRequest;
import perflab.core.sut.SutBootstrap;
import perflab.core.workload.Companion;
import perflab.core.workload.ServerSide;
import perflab.core.load.LoadSource;
import perflab.core.workload.StackInfo;
import perflab.core.workload.SutInstances;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.monitor.RunMonitor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's server side laid out before anything starts: the SUT and the companions its workload asks for, in
 * start order, each with its command built and checked (a bad setting, an unbuilt stack or a port reference to
 * a process not started yet stops the run here, not half-way).
 *
 * @param steps     the processes in start order; they stop in the reverse order
 * @param instances the names of the SUT's processes ({@code sut}, or {@code sut-0} .. for several instances)
 * @param entry     the process whose port the driver sends to (the SUT, or the proxy in front of its instances)
 * @param restarts  by instance, the step that starts it again after a kill ({@code --restart-instance-at}); empty:
 *                  none is
 */
public record ServerLaunch(List<Step> steps, List<String> instances, String entry, Map<String, Step> restarts) {
    /**
     * {@code {backend.port}}: a port another process announced in its READY line, or perflab chose for it; not after
     * what {@link perflab.core.server.ServerFile#PLACEHOLDER} leaves to a product ({@code ${catalina.base}}).
     */
    static final Pattern PORT_REFERENCE = Pattern.compile("(?<![$#%A-Za-z0-9])\\{([a-z][a-z0-9-]*)\\.([a-z][a-z0-9-]*)}");

    /**
     * One process to start.
     *
     * @param readyPrefix the line that says it is ready; null: ready once started
     * @param jvm         whether it is a JVM perflab may attach a profiler to
     * @param sampling    whether the monitor samples it alone or with every process under it
     * @param role        the part a companion plays that summary.json reports under its own key; null: none
     * @param settings    what run.json records that it runs with (a database's durability settings); empty: none
     * @param listens     the names of the loopback ports perflab chooses for it ({@link Companion#listens}); empty: none
     * @param sut         for a SUT process, what its {@link ServerKind} laid out (its own files); null for a companion
     */
    public record Step(String name, List<String> command, String readyPrefix, boolean jvm, Companion.Sampling sampling,
                       Companion.Role role, Map<String, String> settings, List<String> listens, ServerPlan sut) {
        public Step {
            command = List.copyOf(command);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
            listens = List.copyOf(listens);
        }

        /** A companion. */
        public Step(String name, List<String> command, String readyPrefix, boolean jvm, Companion.Sampling sampling,
                    Companion.Role role, Map<String, String> settings, List<String> listens) {
            this(name, command, readyPrefix, jvm, sampling, role, settings, listens, null);
        }

        /** A process that announces its own ports, if any. */
        public Step(String name, List<String> command, String readyPrefix, boolean jvm, Companion.Sampling sampling,
                    Companion.Role role, Map<String, String> settings) {
            this(name, command, readyPrefix, jvm, sampling, role, settings, List.of());
        }

        /** A process sampled alone, with no role and no settings to record (the SUT). */
        Step(String name, List<String> command, String readyPrefix, boolean jvm) {
            this(name, command, readyPrefix, jvm, Companion.Sampling.PROCESS, null, Map.of());
        }
    }

    public ServerLaunch {
        steps = List.copyOf(steps);
        instances = List.copyOf(instances);
        restarts = Map.copyOf(restarts);
    }

    /**
     * The companions started after the SUT's instances, in start order: the proxies in front of them (they name the
     * instances' ports), which {@code --restart-proxy-at} restarts.
     */
    public List<String> proxies() {
        int last = -1;
        for (int i = 0; i < steps.size(); i++) {
            if (instances.contains(steps.get(i).name())) {
                last = i;
            }
        }
        return steps.subList(last + 1, steps.size()).stream().map(Step::name).toList();
    }

    /** A launch whose instances are not started again. */
    public ServerLaunch(List<Step> steps, List<String> instances, String entry) {
        this(steps, instances, entry, Map.of());
    }

    /** A launch of one SUT process, the driver sending to it. */
    public ServerLaunch(List<Step> steps) {
        this(steps, List.of(RunMonitor.SUT), RunMonitor.SUT);
    }

    /**
     * Lays out the server side: {@code stack} of {@code workload} with the SUT settings {@code sut}; throws
     * IllegalArgumentException with a one-line reason.
     */
    public static ServerLaunch plan(Workload workload, String stackName, RunConfig.Sut sut, Path perflabHome, Path runDir,
                                    boolean jfr) {
        return plan(workload, stackName, sut, perflabHome, runDir, jfr, List.of());
    }

    /**
     * Lays out the server side of a run that also has these load sources: those that only answer start before it,
     * and its processes may name their ports ({@code {phone.port}}).
     */
    public static ServerLaunch plan(Workload workload, String stackName, RunConfig.Sut sut, Path perflabHome, Path runDir,
                                    boolean jfr, List<LoadSource> sources) {
        if (sut.server() != null && !isStacksFile(workload, stackName, sut, perflabHome)) {
            return planServerFile(workload, sut, perflabHome, runDir, jfr, sources);
        }
        StackInfo stack = workload.stack(stackName);
        ServerSide side = serverSide(sut, workload);
        checkStackFile(stack, sut, side, workload);
        Map<String, String> urls = new LinkedHashMap<>();
        side.companions().forEach(c -> urls.put(c.name(), c.url()));
        List<Step> steps = new ArrayList<>();
        for (Companion c : side.companions()) {
            if (c.start() == Companion.Start.BEFORE_SUT) {
                steps.add(companionStep(c, sut, perflabHome, runDir));
            }
        }
        List<String> instances = SutInstances.names(sut.instances());
        if (!side.instanceSettings().isEmpty() && side.instanceSettings().size() != instances.size()) {
            throw new IllegalArgumentException(workload.name() + " gave settings for " + side.instanceSettings().size()
                    + " instances to a run of " + instances.size());
        }
        Map<String, Step> restarts = new LinkedHashMap<>();
        for (int i = 0; i < instances.size(); i++) {
            Map<String, String> sutSettings = new LinkedHashMap<>(commonSettings(sut, workload));
            sutSettings.putAll(side.settingsOf(i));
            steps.add(instanceStep(instances.get(i), sut.withSettings(sutSettings), stack, perflabHome, runDir, jfr,
                    side.instanceListens(), urls));
            if (sut.restartInstanceAt() != null) {
                // the same command under the second life's name (its own logs); ServerProcesses pins its ports
                String again = SutInstances.restarted(instances.get(i));
                restarts.put(instances.get(i), instanceStep(again, sut.withSettings(sutSettings), stack, perflabHome,
                        runDir, jfr, side.instanceListens(), urls));
            }
        }
        for (Companion c : side.companions()) {
            if (c.start() == Companion.Start.AFTER_SUT) {
                steps.add(companionStep(c, sut, perflabHome, runDir));
            }
        }
        Map<String, List<String>> words = new LinkedHashMap<>();
        steps.forEach(step -> words.put(step.name(), serverFileWords(step)));
        Map<String, List<String>> listens = new LinkedHashMap<>();
        steps.forEach(step -> listens.put(step.name(), step.listens()));
        checkReferences(words, listens, sources);
        checkRoles(steps);
        // with several instances "sut" is no process but their sum: the driver needs a proxy (or one instance)
        if (!instances.contains(side.entry()) && side.companions().stream().noneMatch(c -> c.name().equals(side.entry()))) {
            throw new IllegalArgumentException("--instances " + instances.size() + ": " + workload.name() + "'s server side "
                    + "sends the driver to " + side.entry() + ", which is not a process of this run");
        }
        return new ServerLaunch(steps, instances, side.entry(), restarts);
    }

    /**
     * Whether the run's server file is the one that declares its stack ({@link StackInfo#serverFile}: a product with
     * the workload's application, laid out as the workload's stacks are) rather than {@code --server}'s.
     */
    public static boolean isStacksFile(Workload workload, String stackName, RunConfig.Sut sut, Path perflabHome) {
        if (sut.server() == null || stackName == null || sut.server().source() == null) {
            return false;
        }
        StackInfo stack = workload.stacks().stream().filter(s -> s.name().equals(stackName)).findFirst().orElse(null);
        return stack != null && stack.serverFile() != null && perflabHome.resolve(stack.serverFile()).toAbsolutePath()
                .normalize().equals(Path.of(sut.server().source()).toAbsolutePath().normalize());
    }

    /**
     * A stack a server file declares takes every server setting the workload gives it, and perflab's own that were
     * given, as the file's settings of the same names: one the file does not declare would never reach the server,
     * so it is refused in one line before anything starts. Nothing to check for a stack of a main class.
     */
    public static void checkStackFile(StackInfo stack, RunConfig.Sut sut, ServerSide side, Workload workload) {
        if (stack.serverFile() == null) {
            return;
        }
        if (sut.server() == null) {
            throw new IllegalArgumentException("stack " + stack.name() + " is declared by " + stack.serverFile()
                    + ", which the run has not read");
        }
        Map<String, String> given = new LinkedHashMap<>(commonSettings(sut, workload));
        for (int i = 0; i < Math.max(1, side.instanceSettings().size()); i++) {
            given.putAll(side.settingsOf(i));
        }
        for (String name : given.keySet()) {
            if (sut.server().setting(name) == null) {
                throw new IllegalArgumentException("stack " + stack.name() + " (" + sut.server().source() + ") takes no "
                        + "setting " + name + ", which " + workload.name() + " gives its server: declare it in the file"
                        + (sut.server().settings().isEmpty() ? "" : " (its settings: "
                        + String.join(", ", sut.server().settingNames()) + ")"));
            }
        }
    }

    /**
     * The server side of a run whose SUT a server file declares: that server, one process (its tree), the driver
     * sending to it, and the companions of the workload's server side that its file asks for (claims' back end),
     * started and stopped around it as for the workload's own stacks, their ports its placeholders.
     */
    private static ServerLaunch planServerFile(Workload workload, RunConfig.Sut sut, Path perflabHome, Path runDir,
                                               boolean jfr, List<LoadSource> sources) {
        if (sut.instances() != 1) {
            throw new IllegalArgumentException("--instances " + sut.instances() + " with --server: a server file's "
                    + "server runs as one process here; start several behind a proxy of your own and use --target");
        }
        List<Companion> asked = serverFileCompanions(workload, sut);
        List<Step> steps = new ArrayList<>();
        asked.stream().filter(c -> c.start() == Companion.Start.BEFORE_SUT)
                .forEach(c -> steps.add(companionStep(c, sut, perflabHome, runDir)));
        Map<String, String> urls = new LinkedHashMap<>();
        asked.forEach(c -> urls.put(c.name(), c.url()));
        steps.add(instanceStep(RunMonitor.SUT, sut, null, perflabHome, runDir, jfr, List.of(), urls));
        asked.stream().filter(c -> c.start() == Companion.Start.AFTER_SUT)
                .forEach(c -> steps.add(companionStep(c, sut, perflabHome, runDir)));
        Map<String, List<String>> words = new LinkedHashMap<>();
        Map<String, List<String>> listens = new LinkedHashMap<>();
        for (Step step : steps) {
            words.put(step.name(), serverFileWords(step));
            listens.put(step.name(), step.listens());
        }
        checkReferences(words, listens, sources);
        checkRoles(steps);
        return new ServerLaunch(steps, List.of(RunMonitor.SUT), RunMonitor.SUT);
    }

    /**
     * The companions a server file asks for, as the workload's server side has them with the run's settings (the
     * workload's defaults, for a server file takes none of its stacks' settings); one it lacks is refused in one line.
     */
    static List<Companion> serverFileCompanions(Workload workload, RunConfig.Sut sut) {
        List<String> names = sut.server().companions();
        if (names.isEmpty()) {
            return List.of();
        }
        List<Companion> offered = workload.serverFileCompanions(serverSettings(sut, workload));
        List<Companion> asked = new ArrayList<>();
        for (String name : names) {
            asked.add(offered.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException(sut.server().source() + ": companions: " + workload.name() + "'s server "
                            + "side has no companion '" + name + "'" + (offered.isEmpty() ? " (it has none)"
                            : "; it has " + offered.stream().map(Companion::name).toList()))));
        }
        return asked;
    }

    /** The words of a step whose port references are checked: a program's command, environment, files and URL too. */
    private static List<String> serverFileWords(Step step) {
        ServerPlan.Program p = step.sut() == null ? null : step.sut().program();
        if (p == null) {
            return step.command();
        }
        List<String> words = new ArrayList<>(step.command());
        words.addAll(p.env().values());
        words.addAll(p.files().values());
        if (p.url() != null) {
            words.add(p.url());
        }
        return words;
    }

    /** One SUT process, as the kind of server the stack names lays it out. */
    private static Step instanceStep(String name, RunConfig.Sut sut, StackInfo stack, Path perflabHome, Path runDir,
                                     boolean jfr, List<String> listens) {
        return instanceStep(name, sut, stack, perflabHome, runDir, jfr, listens, Map.of());
    }

    /** One SUT process, reaching the companions named in {@code companionUrls} at those URLs. */
    private static Step instanceStep(String name, RunConfig.Sut sut, StackInfo stack, Path perflabHome, Path runDir,
                                     boolean jfr, List<String> listens, Map<String, String> companionUrls) {
        ServerKind kind = sut.server() != null ? ServerKinds.ofServerFiles() : ServerKinds.of(stack);
        String gcLog = SutCommand.gcLogFile(name);
        ServerPlan plan = kind.plan(new ServerRequest(stack, sut, name, perflabHome, runDir, jfr, listens,
                SutCommand.jvmFlags(sut, runDir, jfr, name), gcLog, companionUrls));
        if (plan.program() != null) {
            if (plan.jvm() && plan.jvmReport() == null) {
                // its JVM does not report itself: perflab asks it once it serves (AttachedJvm) and writes it here
                plan = new ServerPlan(plan.command(), plan.readyLine(), true, plan.gcLog(), SutCommand.jvmReportFile(name),
                        plan.jfr(), plan.program());
            }
            // a program's whole tree is the SUT (a start script and the JVM it forks), on the ports perflab chose
            return new Step(name, plan.command(), null, plan.jvm(), Companion.Sampling.TREE, null, Map.of(),
                    plan.program().ports(), plan);
        }
        return new Step(name, plan.command(), plan.readyLine(), plan.jvm(), Companion.Sampling.PROCESS, null, Map.of(),
                listens, plan);
    }

    /** A role is one process's: summary.json has one {@code database}. */
    private static void checkRoles(List<Step> steps) {
        Map<Companion.Role, String> taken = new LinkedHashMap<>();
        for (Step step : steps) {
            if (step.role() != null) {
                String other = taken.putIfAbsent(step.role(), step.name());
                if (other != null) {
                    throw new IllegalArgumentException("companions " + other + " and " + step.name() + " both play the "
                            + step.role().key() + ": a run has one");
                }
            }
        }
    }

    /** The workload's server side from the workload settings given (defaults filled in). */
    public static ServerSide serverSide(RunConfig.Sut sut, Workload workload) {
        return workload.serverSide(serverSettings(sut, workload), sut.instances());
    }

    /** The workload's server settings of the run, checked, every default filled in. */
    private static Map<String, String> serverSettings(RunConfig.Sut sut, Workload workload) {
        Map<String, String> given = new LinkedHashMap<>();
        for (WorkloadSetting s : workload.settings()) {
            if (s.use().readBy(WorkloadSetting.Use.SERVER) && sut.settings().containsKey(s.name())) {
                given.put(s.name(), sut.settings().get(s.name()));
            }
        }
        return workload.resolveSettings(WorkloadSetting.Use.SERVER, given);
    }

    /** perflab's own server settings every stack takes (server-threads, http, ...): the given ones not the workload's. */
    static Map<String, String> commonSettings(RunConfig.Sut sut, Workload workload) {
        Set<String> own = new HashSet<>();
        workload.settings().forEach(s -> own.add(s.name()));
        Map<String, String> common = new LinkedHashMap<>();
        sut.settings().forEach((name, value) -> {
            if (!own.contains(name)) {
                common.put(name, value);
            }
        });
        return common;
    }

    private static Step companionStep(Companion c, RunConfig.Sut sut, Path perflabHome, Path runDir) {
        return new Step(c.name(), CompanionCommand.build(c, sut, perflabHome, runDir),
                c.isJvm() ? SutBootstrap.READY : c.readyLine(), c.isJvm(), c.sampling(), c.role(), c.settings(),
                c.listens());
    }

    /**
     * Checks the port references of a server side as the workload declares it, before anything is laid out: as
     * {@link #plan} will.
     */
    static void checkReferences(ServerSide side, int instances, List<LoadSource> sources) {
        Map<String, List<String>> listens = new LinkedHashMap<>();
        side.companions().forEach(c -> listens.put(c.name(), c.listens()));
        SutInstances.names(instances).forEach(name -> listens.put(name, side.instanceListens()));
        checkReferences(declaredWords(side, instances), listens, sources);
    }

    /**
     * Refuses, in one line, a server side that names a load source's port, where perflab starts the one without the
     * other: {@code perflab serve} (no load source), {@code perflab drive --target} (no server side).
     */
    public static void refuseLoadSourcePorts(ServerSide side, List<LoadSource> sources) {
        declaredWords(side, 1).forEach((name, list) -> list.forEach(word -> {
            Matcher m = PORT_REFERENCE.matcher(word);
            while (m.find()) {
                String source = m.group(1);
                if (sources.stream().anyMatch(l -> l.name().equals(source))) {
                    throw new IllegalArgumentException("the server side's " + (SutInstances.reserved(name) ? "settings name "
                            : "companion " + name + " names ") + m.group() + ", the port of load source " + source
                            + ": only perflab run starts the server side with its load sources");
                }
            }
        }));
    }

    /** The words of each process of a declared server side that may name ports, by name, in start order. */
    private static Map<String, List<String>> declaredWords(ServerSide side, int instances) {
        Map<String, List<String>> words = new LinkedHashMap<>();
        for (Companion.Start start : Companion.Start.values()) {
            if (start == Companion.Start.AFTER_SUT) {
                for (int i = 0; i < instances; i++) {
                    words.put(SutInstances.name(i, instances), new ArrayList<>(side.settingsOf(i).values()));
                }
            }
            for (Companion c : side.companions()) {
                if (c.start() == start) {
                    List<String> w = new ArrayList<>(c.jvmFlags());
                    w.addAll(c.command());
                    w.addAll(c.args());
                    words.put(c.name(), w);
                }
            }
        }
        return words;
    }

    /**
     * Every {@code {name.port}} in the processes' words (in start order) names a process that starts earlier, or
     * a port of a load source that only answers (those start before the server side); no load source is named like
     * a process.
     */
    private static void checkReferences(Map<String, List<String>> words, Map<String, List<String>> listens,
                                        List<LoadSource> sources) {
        for (LoadSource source : sources) {
            if (words.containsKey(source.name())) {
                throw new IllegalArgumentException(LoadSources.label(source) + " has the name of a process of the server "
                        + "side: the two would share run.json's and summary.json's processes." + source.name() + "; rename one");
            }
        }
        Set<String> started = new HashSet<>();
        words.forEach((name, list) -> {
            for (String word : list) {
                Matcher m = PORT_REFERENCE.matcher(word);
                while (m.find()) {
                    String prefix = "process " + name + " refers to " + m.group() + ", ";
                    LoadSource source = sources.stream().filter(l -> l.name().equals(m.group(1))).findFirst().orElse(null);
                    boolean chosenBeforeStart = listens.getOrDefault(m.group(1), List.of()).contains(m.group(2));
                    if (source != null) {
                        LoadSources.checkSourceReference(prefix, source, m.group(2));
                    } else if (chosenBeforeStart) {
                        // a port perflab chooses before anything starts: any process may name it (the SUT's
                        // instances their outbound proxy, which starts after them because it names their ports)
                    } else if (m.group(1).equals(name)) {
                        throw new IllegalArgumentException(prefix + "but names no port of its own that perflab "
                                + "chooses for it (it listens on " + listens.getOrDefault(name, List.of()) + ")");
                    } else if (!started.contains(m.group(1))) {
                        throw new IllegalArgumentException(prefix + "but no process named " + m.group(1)
                                + " starts before it, and no load source that answers has that name");
                    }
                }
            }
            started.add(name);
        });
    }

    /**
     * What the kind of server laid out for SUT process {@code process} (an instance, or one started again); null for
     * a companion or a name not laid out.
     */
    public ServerPlan sutPlan(String process) {
        return java.util.stream.Stream.concat(steps.stream(), restarts.values().stream())
                .filter(s -> s.name().equals(process)).map(Step::sut).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
    }

    /** The SUT's step: the one SUT's, or the first instance's. */
    public Step sut() {
        return steps.stream().filter(s -> s.name().equals(instances.get(0))).findFirst().orElseThrow();
    }

    /** Whether the SUT runs as several instances. */
    public boolean clustered() {
        return instances.size() > 1;
    }

    /** {@code words} with every port reference replaced by the port that process announced. */
    static List<String> resolve(List<String> words, Map<String, Map<String, Integer>> ports) {
        List<String> resolved = new ArrayList<>(words.size());
        for (String word : words) {
            resolved.add(resolve(word, ports));
        }
        return resolved;
    }

    /** {@code text} with every port reference replaced by the port that process announced or perflab chose. */
    static String resolve(String text, Map<String, Map<String, Integer>> ports) {
        Matcher m = PORT_REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Integer port = ports.getOrDefault(m.group(1), Map.of()).get(m.group(2));
            if (port == null) {
                throw new IllegalArgumentException(m.group(1) + " announced no port named " + m.group(2)
                        + " (its READY line has " + ports.getOrDefault(m.group(1), Map.of()).keySet() + ")");
            }
            m.appendReplacement(out, port.toString());
        }
        m.appendTail(out);
        return out.toString();
    }
}
