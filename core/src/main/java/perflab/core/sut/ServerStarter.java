package perflab.core.sut;

/** Starts a stack's server from its parsed arguments. */
@FunctionalInterface
public interface ServerStarter {
    RunningServer start(SutArgs args) throws Exception;
}
