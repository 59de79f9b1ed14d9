package perflab.history;

import perflab.history.store.HistoryStore;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Records a finished run into the history. It never fails the run and never holds it long: any trouble (a file
 * locked by another process for longer than {@link #BUSY_WAIT}, a broken or foreign file, a disk full) is one warning,
 * and the run's results stay in its directory, from which {@code perflab history import} can record it later.
 */
public final class HistoryRecorder {
    /** How long a record waits for another perflab process's write: a run is never held for longer than a blink. */
    public static final Duration BUSY_WAIT = Duration.ofSeconds(2);

    private HistoryRecorder() {
    }

    /**
     * What recording did.
     *
     * @param id      the run's id in the history; -1 when it was not recorded
     * @param millis  how long recording took, opening the file included
     * @param warning null when recorded, else the one-line warning to print
     */
    public record Outcome(long id, double millis, String warning) {
    }

    /**
     * Opens the history once, off the caller's thread, and closes it again: the first open in a JVM loads SQLite's
     * native library and the driver's classes (about 150 ms here), which a run then pays while it starts, not after
     * its window. Any trouble is left for {@link #record} to report.
     */
    public static void prepare(Path history) {
        Thread t = new Thread(() -> {
            try (HistoryStore store = HistoryStore.open(history, BUSY_WAIT)) {
                store.count();
            } catch (Exception | LinkageError e) {
                // record() meets the same trouble and reports it once, at the run's end
            }
        }, "perflab-history-prepare");
        t.setDaemon(true);
        t.start();
    }

    /** Records the run in {@code runDir} into {@code history}. */
    public static Outcome record(Path history, Path runDir) {
        long start = System.nanoTime();
        try (HistoryStore store = HistoryStore.open(history, BUSY_WAIT)) {
            long id = store.record(RunReading.read(runDir)).id();
            return new Outcome(id, (System.nanoTime() - start) / 1e6, null);
        } catch (Exception | LinkageError e) {
            // LinkageError: SQLite's native library could not be loaded on this platform
            return new Outcome(-1, (System.nanoTime() - start) / 1e6, "perflab: history: the run was not recorded in "
                    + history + ": " + reason(e) + " (its results are in " + runDir
                    + "; `perflab history import` records it later)");
        }
    }

    /** The cause in a few words, without a stack trace. */
    public static String reason(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        // SQLite's messages start with the error code's name: [SQLITE_BUSY] The database file is locked (...)
        m = m.replaceAll("\\s+", " ").trim();
        return m.length() > 300 ? m.substring(0, 300) + "..." : m;
    }
}
