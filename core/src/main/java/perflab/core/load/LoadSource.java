package perflab.core.load;

import java.util.List;

/**
 * A load source a workload runs beside perflab's own HTTP driver for the whole drive, as the workload declares it
 * ({@link perflab.core.workload.Workload#loadSources}): load of its own against the SUT, or a peer the SUT calls
 * (a phone that answers). The {@link LoadSourceKind} named by {@link #kind} runs it; the plugin's own record
 * implements this interface with whatever else it needs (a scenario, a rate).
 * <p>
 * perflab starts one that only answers before the server side (it needs nothing from it, and the server side may be
 * told its ports, {@code {phone.port}}), one that loads the SUT once the server side is ready; it stops them when the
 * drive ends, samples their CPU like a companion's ({@code processes.<name>}) and cuts their figures to the driver's
 * measured window: summary.json's {@code loads.<name>}, timeseries-loads.csv and the report.
 */
public interface LoadSource {
    /** The plugin that runs it: a {@link LoadSourceKind#name}. */
    String kind();

    /** A short name: its key under {@code loads} and {@code processes}, its files' prefix. */
    String name();

    /**
     * Whether it only answers (a peer the SUT calls): it starts before the server side and puts no load of its own
     * on the SUT; false for one that loads the SUT, which starts once the server side is ready.
     */
    boolean answersOnly();

    /**
     * The names of the ports it listens on once started, which the server side and the sources started after it may
     * name as {@code {<name>.<port>}}; only those of a source that answers can be named (one that loads the SUT
     * starts after everything that could name it).
     */
    List<String> portNames();

    /**
     * The words of its declaration that may name a port of something started before it ({@code 127.0.0.1:{sut.sip}},
     * {@code {phone.port}}): perflab checks each before anything starts and fills them in when the source starts.
     */
    List<String> portReferences();
}
