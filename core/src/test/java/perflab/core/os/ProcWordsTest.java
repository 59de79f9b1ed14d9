package perflab.core.os;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class ProcWordsTest {
    @Test
    void splitsOnRunsOfSpacesAndTabsAsProcWritesThem() {
        // /proc/stat's cpu line has two spaces after "cpu"; /proc/net/dev pads its columns; status uses a tab
        assertArrayEquals(new String[] {"cpu", "4705", "150", "1120"}, ProcWords.of("cpu  4705 150 1120\n"));
        assertArrayEquals(new String[] {"1234", "5", "0"}, ProcWords.of("   1234      5    0"));
        assertArrayEquals(new String[] {"11852", "kB"}, ProcWords.of("\t   11852 kB"));
    }

    @Test
    void aBlankLineHasNoWords() {
        assertArrayEquals(new String[0], ProcWords.of(""));
        assertArrayEquals(new String[0], ProcWords.of(" \t\n"));
    }
}
