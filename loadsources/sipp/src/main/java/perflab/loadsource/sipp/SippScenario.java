package perflab.loadsource.sipp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * What a SIPp instance plays: one of the scenarios built into the executable ({@code -sn uac}) or a scenario XML
 * file ({@code -sf}). {@link #name()} is what SIPp calls it in the files it names itself ({@code <name>_<pid>_rtt.csv}).
 */
public record SippScenario(String builtIn, Path file) {
    /** The scenarios `sipp -h` lists as embedded in SIPp 3.6 (-sn). */
    public static final Set<String> BUILT_IN = Set.of("uac", "uas", "regexp", "branchc", "branchs",
            "3pcc-C-A", "3pcc-C-B", "3pcc-A", "3pcc-B", "uac_pcap");

    public SippScenario {
        if ((builtIn == null) == (file == null)) {
            throw new IllegalArgumentException("a SIPp scenario is either built in (uac, uas, ...) or a file, not both or neither");
        }
        if (builtIn != null && !BUILT_IN.contains(builtIn)) {
            throw new IllegalArgumentException("unknown built-in SIPp scenario '" + builtIn + "': use one of "
                    + BUILT_IN.stream().sorted().toList() + " or a scenario file");
        }
        if (file != null) {
            file = file.toAbsolutePath().normalize(); // SIPp runs in the run directory, not perflab's
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new IllegalArgumentException("SIPp scenario file " + file + " does not exist or cannot be read");
            }
        }
    }

    public static SippScenario builtIn(String name) {
        return new SippScenario(name, null);
    }

    public static SippScenario file(Path xml) {
        return new SippScenario(null, xml);
    }

    /** SIPp's own name for it: the built-in name, or the file name without its directory and ".xml". */
    public String name() {
        if (builtIn != null) {
            return builtIn;
        }
        String n = file.getFileName().toString();
        return n.endsWith(".xml") ? n.substring(0, n.length() - 4) : n;
    }

    /** Built-in scenarios that place calls, and so need a target to call. */
    boolean placesCalls() {
        return builtIn != null && Set.of("uac", "uac_pcap", "branchc", "3pcc-C-A").contains(builtIn);
    }

    @Override
    public String toString() {
        return builtIn != null ? "-sn " + builtIn : "-sf " + file;
    }
}
