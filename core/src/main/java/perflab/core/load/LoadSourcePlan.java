package perflab.core.load;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

/** One load source checked and ready to start. */
public interface LoadSourcePlan {
    /**
     * Starts it and returns once it is ready for the load (listening, for one that answers); throws IOException with
     * a one-line reason when it cannot start or ends before it is ready, having stopped whatever it started.
     *
     * @param runDir  the run's directory: its working directory and where its own files go, prefixed by its name
     * @param ports   fills in the port references of its {@link LoadSource#portReferences} words
     * @param bound   how long it can be needed at most: a tool with a time limit of its own gets it, so that it ends
     *                even if perflab dies without stopping it
     */
    LoadSourceProcess start(Path runDir, UnaryOperator<String> ports, Duration bound) throws IOException;
}
