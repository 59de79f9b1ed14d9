package perflab.loadsource.sipp;

import perflab.core.load.LoadSource;
import perflab.core.workload.SutInstances;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A SIPp instance a workload runs beside perflab's HTTP driver for the whole drive: a second load source (SIP calls
 * to the SUT) or a SIP peer the SUT calls (a phone, a notifier). perflab starts it on a UDP port it chooses, before
 * the HTTP driver: one that only answers before the server side (it needs nothing from it, and the server side may
 * be told its port, {@code {phone.port}}), one that places calls once the server side is ready. perflab stops it
 * when the drive ends, samples its CPU like a companion's ({@code processes.<name>}) and cuts its statistics to the
 * driver's measured window: summary.json's {@code loads.<name>}, timeseries-loads.csv and the report.
 *
 * <p>The target and the extra options of one that places calls may name a port a process of the server side
 * announced ({@code 127.0.0.1:{sut.sip}}) or an answering load's ({@code {phone.port}}); those of one that answers
 * only the port of an answering load declared before it.
 *
 * @param name           a short name: its key under {@code loads} and {@code processes}, its files' prefix
 * @param scenario       a scenario built into SIPp ({@code uac}, {@code uas}, ...) or a scenario file's path
 *                       relative to perflab's home ({@code workloads/voicemail/sipp/phone.xml})
 * @param target         {@code host:port} it sends its calls to; null for one that only answers
 * @param callsPerSecond new calls per second; 0 for one that only answers
 * @param maxOpenCalls   most calls open at once (SIPp's -l); 0 for SIPp's default
 * @param extra          further SIPp options the scenario needs ({@code -aa}, {@code -inf FILE}, ...)
 * @param recvTimeout    the longest a call waits for its next message before it fails (SIPp's
 *                       {@code -recv_timeout}, which perflab sets itself); null for none
 */
public record SippLoad(String name, String scenario, String target, double callsPerSecond, int maxOpenCalls,
                       List<String> extra, Duration recvTimeout) implements LoadSource {
    /** The kind's name: what {@link SippLoadSource} runs. */
    public static final String KIND = "sipp";
    /** An answering load's one port, as the server side and the other loads name it: {@code {phone.port}}. */
    public static final String PORT = "port";

    public SippLoad {
        Objects.requireNonNull(name);
        Objects.requireNonNull(scenario);
        if (!name.matches("[a-z][a-z0-9-]*") || SutInstances.reserved(name)) {
            throw new IllegalArgumentException("a SIPp load's name is a lower-case word other than driver, sut and sut-N, got '" + name + "'");
        }
        if (!(callsPerSecond >= 0) || Double.isInfinite(callsPerSecond)) {
            throw new IllegalArgumentException("SIPp load " + name + ": calls per second must be 0 or more, got " + callsPerSecond);
        }
        if ((target == null) != (callsPerSecond == 0)) {
            throw new IllegalArgumentException("SIPp load " + name + ": one that places calls needs a target and a rate, one that answers neither");
        }
        if (maxOpenCalls < 0) {
            throw new IllegalArgumentException("SIPp load " + name + ": the open-call limit must be 0 (SIPp's default) or more");
        }
        extra = List.copyOf(extra);
        if (recvTimeout != null && (recvTimeout.isNegative() || recvTimeout.isZero())) {
            throw new IllegalArgumentException("SIPp load " + name + ": the receive timeout must be above 0");
        }
    }

    /** A load whose calls wait for their next message as long as they need. */
    public SippLoad(String name, String scenario, String target, double callsPerSecond, int maxOpenCalls,
                    List<String> extra) {
        this(name, scenario, target, callsPerSecond, maxOpenCalls, extra, null);
    }

    /** The same load, its calls failing when a message does not come within {@code timeout}. */
    public SippLoad withRecvTimeout(Duration timeout) {
        return new SippLoad(name, scenario, target, callsPerSecond, maxOpenCalls, extra, timeout);
    }

    /** A SIPp that calls {@code target} at {@code callsPerSecond}. */
    public static SippLoad calls(String name, String scenario, String target, double callsPerSecond, int maxOpenCalls,
                                 List<String> extra) {
        return new SippLoad(name, scenario, Objects.requireNonNull(target), callsPerSecond, maxOpenCalls, extra);
    }

    /** A SIPp that only answers (a phone the SUT calls). */
    public static SippLoad answers(String name, String scenario, List<String> extra) {
        return new SippLoad(name, scenario, null, 0, 0, extra);
    }

    public boolean placesCalls() {
        return target != null;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public boolean answersOnly() {
        return !placesCalls();
    }

    @Override
    public List<String> portNames() {
        return List.of(PORT);
    }

    /** Its options, and the port of its target: either may name a port, {@code {sut.sip}}. */
    @Override
    public List<String> portReferences() {
        List<String> words = new java.util.ArrayList<>(extra);
        if (placesCalls()) {
            words.add(target.substring(target.lastIndexOf(':') + 1));
        }
        return words;
    }
}
