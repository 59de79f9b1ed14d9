package perflab.trade.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a run with a database outage must show at its end, whichever stack served it: the server serves again. */
final class OutageAftermath {
    private OutageAftermath() {
    }

    /**
     * The last five whole seconds of the measured window (timeseries.csv; the very last second is partial) served
     * pages and had no error: the server came back by itself once the database did.
     */
    static void assertLastSecondsServeWithoutError(Path timeseries) throws IOException {
        List<String[]> measured = new ArrayList<>();
        for (String line : Files.readAllLines(timeseries).stream().skip(1).toList()) {
            String[] cells = line.split(",");
            if (cells[1].equals("measure")) {
                measured.add(cells);
            }
        }
        for (String[] second : measured.subList(measured.size() - 6, measured.size() - 1)) {
            assertEquals("0", second[5], "no error in second " + second[0] + " once the database is back");
            assertTrue(Long.parseLong(second[4]) > 0, "pages served in second " + second[0]);
        }
    }
}
