package perflab.voicemail.it;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * voicemail as two instances behind the converged proxy (CI installs haproxy and Kamailio): haproxy sends a user's
 * pages to its home instance, and Kamailio the peers' NOTIFY and BYE in its dialogs. A request on the wrong instance
 * finds no session there (a page: an error; a NOTIFY or BYE: 481, a failed call), so no failed call on either side,
 * both hang-up paths working and both instances carrying operations is the proof that the two proxies agree.
 */
class VoicemailClusterIT {
    @TempDir
    Path work;

    @Test
    void eachUsersPagesAndDialogsReachItsHomeInstance() throws Exception {
        Path out = work.resolve("vm2");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--rate", "6",
                "--hold", "2s", "--users", "1000", "--clients", "4", "--warmup", "3s", "--duration", "8s",
                "--heap", "128m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err() + p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        JsonNode details = VoicemailRunIT.everyCallCompleted(summary);
        assertEquals(0, details.get("failures").size(), details.toString());
        // the users file numbers users from 0: consecutive arrivals alternate homes, so both instances end calls
        // (each instance's counters, asked on its own port: second,phase,epochMs,process,name,value,perSecond)
        java.util.List<String> rows = Files.readAllLines(out.resolve("timeseries-server.csv"));
        for (String instance : new String[]{"sut-0", "sut-1"}) {
            assertTrue(rows.stream().map(r -> r.split(",")).anyMatch(f -> f.length > 5 && f[3].equals(instance)
                    && f[4].startsWith("operations.") && f[4].endsWith("-hangup") && Double.parseDouble(f[5]) > 0),
                    instance + " ended no call");
            assertTrue(summary.get("processes").has(instance), summary.get("processes").toString());
        }
        assertTrue(summary.get("processes").has("http-proxy") && summary.get("processes").has("sip-proxy"),
                summary.get("processes").toString());
        assertTrue(Files.readString(out.resolve("kamailio-dispatcher.list")).lines().count() == 4,
                "two sets, home and partner each");
    }

    /**
     * --replication every-message: each instance's grid pairs with its partner on ports perflab chose, every call
     * is copied there before each message, and the copies cost nothing in failed calls.
     */
    @Test
    void eachInstanceCopiesItsUsersToItsPartner() throws Exception {
        Path out = work.resolve("vm2-replicated");
        try (PerflabProcess p = PerflabProcess.start(work, "run", "voicemail", "--instances", "2", "--replication",
                "every-message", "--rate", "6", "--hold", "2s", "--users", "1000", "--clients", "4", "--warmup", "3s",
                "--duration", "8s", "--heap", "192m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(240)), p.err() + p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.get("errors").toString());
        JsonNode f = summary.get("figures");
        assertEquals(0, f.get("failedCalls").asLong(), f.toString());
        assertEquals(0, f.get("sippFailedCalls").get("total").asLong(), f.toString());
        JsonNode replication = f.get("replication");
        assertTrue(replication != null && replication.get("writes").asLong() > 0, f.toString());
        assertEquals(0, replication.get("failures").asLong(), replication.toString());
        // SUBSCRIBE, first NOTIFY, two INVITEs, connected, two BYEs, the unsubscription: about 8 copies a call
        double perOperation = replication.get("writesPerOperation").asDouble();
        assertTrue(perOperation > 4 && perOperation < 14, replication.toString());
        // each instance paired with the other: 2 members in each one's view, and each wrote its own users' copies
        java.util.List<String[]> rows = Files.readAllLines(out.resolve("timeseries-server.csv")).stream()
                .map(r -> r.split(",")).filter(r -> r.length > 5).toList();
        for (String instance : new String[]{"sut-0", "sut-1"}) {
            assertTrue(rows.stream().anyMatch(r -> r[3].equals(instance) && r[4].equals("sip.replication.members")
                    && Double.parseDouble(r[5]) == 2), instance + " never saw its partner");
            assertTrue(rows.stream().anyMatch(r -> r[3].equals(instance) && r[4].equals("sip.replication.writes")
                    && Double.parseDouble(r[5]) > 0), instance + " wrote no copy");
        }
        assertTrue(Files.readString(out.resolve("run.json")).contains("--partner-replica-port"),
                "run.json records how the instances were paired");
    }
}
