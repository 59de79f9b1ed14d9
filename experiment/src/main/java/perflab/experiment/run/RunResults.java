package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.result.AtomicFiles;
import perflab.core.result.Json;
import perflab.core.result.LoadFigures;
import perflab.core.result.RunCheck;
import perflab.core.result.RunSummary;
import perflab.core.result.gc.GcAnalysis;
import perflab.core.workload.Companion;
import perflab.core.workload.Workload;
import perflab.driver.DriverResult;
import perflab.experiment.run.RunOrchestrator.Driven;
import perflab.experiment.run.RunOrchestrator.Run;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A run after its drive: everything it measured made into its summary (the driver's window, the processes, the SUT's
 * GC, the warm-up, the load sources, the workload's checks and figures, the faults' phases), then summary.json,
 * errors.txt and report.html written and the summary shown, and the run's exit status.
 */
final class RunResults {
    private final PrintStream console;
    /** Why a process of the server side ended the run by exiting, or null. */
    private final String processExit;
    private final boolean interrupted;
    /** Each SUT process's GC log, where its kind of server put it; null: none. */
    private final Function<String, Path> gcLogOf;

    /** @param console where the summary goes; null for --quiet */
    RunResults(PrintStream console, String processExit, boolean interrupted, Function<String, Path> gcLogOf) {
        this.console = console;
        this.processExit = processExit;
        this.interrupted = interrupted;
        this.gcLogOf = gcLogOf;
    }

    /**
     * The run's summary from everything it measured: the driver's window, the processes, the SUT's GC, the warm-up,
     * the load sources (stopped here, so that their last statistics are written before they are read) and the
     * workload's checks after the drive.
     */
    RunSummary summarize(Run run, Driven driven, RunRecorder recorder, perflab.core.result.ServerWindow serverWindow)
            throws IOException {
        DriverResult result = driven.result();
        ServerProcesses server = run.server();
        LoadSources sources = run.sources();
        boolean crashed = processExit != null;
        String endReason = crashed ? processExit : interrupted ? "interrupted" : result.endReason();
        boolean complete = result.complete() && !crashed && !interrupted;
        // every SUT process's log, an instance started again mid-run's too
        GcAnalysis gc = SutGcFigures.analyze(server == null ? List.of() : server.instances(),
                gcLogOf, result);
        RunSummary.Warmup warmup = RunSummarizer.warmup(run.config().load(), result, driven.startEpochMs(),
                recorder.warmedUp(), recorder.notWarmBecause());
        run.manifest().warmupEndedBy = warmup.endedBy();
        run.manifest().warmupSeconds = warmup.seconds();
        if (console != null) {
            console.println((warmup.ranOut() ? "perflab: warning: " : "perflab: ") + "the warm-up "
                    + perflab.report.ConsoleSummary.warmup(warmup));
        }
        Map<String, RunSummarizer.ProcessEnd> ends = new LinkedHashMap<>();
        if (server != null) {
            server.all().forEach(p -> ends.put(p.name(), new RunSummarizer.ProcessEnd(p.pid(), p.exitCode())));
        }
        Map<String, Integer> loadExits = sources.exitCodes();
        sources.pids().forEach((name, pid) -> ends.put(name, new RunSummarizer.ProcessEnd(pid, loadExits.get(name))));
        if (console != null) {
            sources.endedEarly().forEach(why -> console.println("perflab: warning: " + why));
        }
        sources.stop(RunOrchestrator.SOURCES_STOP_GRACE);
        // a killed instance has nothing to say: the others' accounts, its users' calls among them
        Map<String, RunCheck> checks = checksAfterDrive(run.workload(), run.target(), RunOrchestrator.instanceUris(run.target(), server),
                server != null && server.clustered());
        Map<String, LoadFigures> loads = sources.figures(Instant.ofEpochMilli(result.measureStartEpochMs()),
                Instant.ofEpochMilli(result.measureEndEpochMs()));
        if (!sources.isEmpty()) {
            sources.writeSeconds(run.runDir().resolve(LoadSources.SECONDS_CSV), driven.startEpochMs(),
                    result.measureStartEpochMs(), result.measureEndEpochMs());
        }
        return RunSummarizer.summarize(run.config(), run.workload().name(), stack(run.config()),
                new RunSummarizer.Measured(result, recorder.window(result.measureStartEpochMs(), result.measureEndEpochMs()),
                        recorder.machineCpus(), recorder.measuredThroughputPerSecond(), ends, gc, warmup, loads, checks,
                        server == null ? null : server.playing(Companion.Role.DATABASE), serverWindow),
                complete, endReason);
    }

    /** The summary with what the faults did to the window, cut into its parts ({@link FailoverPhases}). */
    RunSummary withFaults(Run run, RunSummary summary, DriverResult result, RunRecorder recorder,
                                  InstanceKill kill, ProxyRestart proxyRestart) {
        Path latencyLog = run.runDir().resolve("latency.hlog");
        RunSummary.Failover failover = kill == null ? null : kill.failover(result.measureStartEpochMs());
        if (failover != null) {
            failover = FailoverPhases.cut(failover, result.measureStartEpochMs(), result.measureEndEpochMs(),
                    recorder.measuredSeconds(), latencyLog, run.sources().periods());
            summary = summary.withFailover(failover);
            if (console != null) {
                console.println("perflab: " + perflab.report.ConsoleSummary.failover(failover,
                        run.sources().troubleColumns()));
            }
        }
        RunSummary.ProxyRestart proxiesAgain = proxyRestart == null ? null : proxyRestart.restarted();
        if (proxiesAgain != null) {
            proxiesAgain = FailoverPhases.cut(proxiesAgain, result.measureStartEpochMs(), result.measureEndEpochMs(),
                    recorder.measuredSeconds(), latencyLog, run.sources().periods());
            summary = summary.withProxyRestart(proxiesAgain);
            if (console != null) {
                console.println("perflab: " + perflab.report.ConsoleSummary.proxyRestart(proxiesAgain,
                        run.sources().troubleColumns()));
            }
        }
        return summary;
    }

    /** Writes summary.json, errors.txt and report.html, shows the summary; the run's exit status. */
    RunOutcome finish(Run run, DriverResult result, RunSummary summary) throws IOException {
        Path runDir = run.runDir();
        Json.write(runDir.resolve("summary.json"), summary);
        if (!result.errorSamples().isEmpty()) {
            AtomicFiles.write(runDir.resolve("errors.txt"), String.join(System.lineSeparator(), result.errorSamples())
                    + System.lineSeparator());
        }
        if (console != null) {
            console.print(perflab.report.ConsoleSummary.render(summary, run.workload().reportsPerClient()));
            console.println("perflab: results in " + runDir);
        }
        perflab.report.RunReport.writeQuietly(runDir, console); // report.html; never fails the run
        boolean crashed = processExit != null;
        int status = summary.complete() ? RunOutcome.OK : interrupted && !crashed ? RunOutcome.INTERRUPTED : RunOutcome.FAILED;
        if (summary.checkFailed() && status == RunOutcome.OK) {
            status = RunOutcome.FAILED;
        }
        return new RunOutcome(runDir, summary, status);
    }

    /** The summary with the workload's own figures; a workload whose figures fail gets none and a warning. */
    RunSummary withWorkloadFigures(Workload workload, RunSummary summary) {
        try {
            Map<String, Object> figures = workload.figures(summary);
            return figures == null || figures.isEmpty() ? summary : summary.withFigures(figures);
        } catch (RuntimeException e) {
            if (console != null) {
                console.println("perflab: warning: no workload figures in summary.json: " + e);
            }
            return summary;
        }
    }

    /**
     * The workload's checks of the server after the drive, while it still runs; never throws (a check that cannot
     * be asked is unavailable). Each gets a console line; a failed one a warning that the run fails.
     */
    private Map<String, RunCheck> checksAfterDrive(Workload workload, URI target, List<URI> instances, boolean clustered) {
        if (processExit != null) {
            return Map.of(); // nothing to ask
        }
        List<RunCheck> asked;
        try {
            asked = clustered ? workload.checksAfterDrive(target, instances) : workload.checksAfterDrive(target);
        } catch (RuntimeException e) {
            asked = List.of(RunCheck.unavailable("checks", "the checks after the drive could not run: " + e.getMessage()));
        }
        Map<String, RunCheck> checks = new LinkedHashMap<>();
        for (RunCheck c : asked) {
            checks.put(c.name(), c);
            if (console != null) {
                console.println("perflab: " + (c.failed() ? "error: " : "") + c.name() + " " + c.status() + ": " + c.line()
                        + (c.failed() ? "; the run fails" : ""));
            }
        }
        return checks;
    }

    private static String stack(RunConfig config) {
        return config.target() == null ? config.stack() : "external";
    }
}
