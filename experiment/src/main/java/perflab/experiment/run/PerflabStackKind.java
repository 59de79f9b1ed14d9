package perflab.experiment.run;

import perflab.core.server.ServerKind;
import perflab.core.server.ServerPlan;
import perflab.core.server.ServerRequest;
import perflab.core.sut.SutBootstrap;
import perflab.core.workload.StackInfo;

/**
 * perflab's own kind of SUT ({@link StackInfo#PERFLAB_STACK}): a workload's stack in a JVM of its own, started with the
 * stack's classpath only and the settings under test ({@link SutCommand}), ready when it says
 * {@link SutBootstrap#READY}, its GC log, JVM report and flight recording in the run directory under its name.
 */
public final class PerflabStackKind implements ServerKind {
    @Override
    public String name() {
        return StackInfo.PERFLAB_STACK;
    }

    @Override
    public ServerPlan plan(ServerRequest r) {
        return new ServerPlan(SutCommand.build(r.sut(), r.stack(), r.perflabHome(), r.runDir(), r.jfr(), r.process()),
                SutBootstrap.READY, true, SutCommand.gcLogFile(r.process()), SutCommand.jvmReportFile(r.process()),
                r.jfr() ? SutCommand.jfrFile(r.process()) : null);
    }
}
