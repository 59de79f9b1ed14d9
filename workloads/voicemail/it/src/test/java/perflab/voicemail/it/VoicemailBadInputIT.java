package perflab.voicemail.it;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** voicemail's own settings, given wrong or at odds with the run, get one line naming the problem and exit 2. */
class VoicemailBadInputIT {
    @TempDir
    Path work;

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of(List.of("--instances", "3", "--replication", "every-message"),
                        "--replication every-message copies", "--instances 2, 4, 6"),
                Arguments.of(List.of("--agents", "local:2", "--rate", "100", "--users", "1000"),
                        "1000 users are too few for 100.0 new users per second", "raise --users"));
    }

    @ParameterizedTest
    @MethodSource("badSettings")
    void aBadSettingIsOneLineAndExitTwo(List<String> flags, String expected, String hint) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("run", "voicemail"));
        args.addAll(flags);
        PerflabProcess.assertRefused(work, null, expected, hint, args.toArray(String[]::new));
    }
}
