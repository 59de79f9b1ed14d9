package perflab.experiment.run;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The READY line announces the main port and any further ones by name. */
class ProtocolLinesTest {
    @Test
    void readyLineGivesEveryNamedPort() {
        assertEquals(Map.of("port", 8080), ProtocolLines.readyPorts("PERFLAB-READY port=8080"));
        assertEquals(Map.of("port", 8080, "sip", 5060), ProtocolLines.readyPorts("PERFLAB-READY port=8080 sip=5060"));
    }

    @Test
    void factLinesGiveNumbersAsNumbersAndTheRestAsText() {
        Map<String, Object> facts = new java.util.LinkedHashMap<>();
        ProtocolLines.fact("PERFLAB-FACT database restored", facts);
        ProtocolLines.fact("PERFLAB-FACT restoreSeconds 0.03", facts);
        ProtocolLines.fact("PERFLAB-FACT users 15000", facts);
        ProtocolLines.fact("PERFLAB-FACT restoredFrom template database trade_u1_q2", facts);
        ProtocolLines.fact("PERFLAB-FACT lonely", facts);
        ProtocolLines.fact("PERFLAB-FACT bad-name 1", facts);
        assertEquals(Map.of("database", "restored", "restoreSeconds", 0.03, "users", 15000L,
                "restoredFrom", "template database trade_u1_q2"), facts);
        assertEquals(java.util.List.of("database", "restoreSeconds", "users", "restoredFrom"),
                java.util.List.copyOf(facts.keySet()), "in the order said");
    }

    @Test
    void wordsThatAreNotPortsAreIgnored() {
        assertEquals(Map.of("sip", 5060), ProtocolLines.readyPorts("PERFLAB-READY mode=fast sip=5060 port=x big=1234567"));
        assertEquals(Map.of(), ProtocolLines.readyPorts("PERFLAB-READY"));
    }
}
