package perflab.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfileFramesTest {
    @Test
    void selfSharesComeFromTheLeafFrames(@TempDir Path dir) throws Exception {
        Path collapsed = dir.resolve("p.collapsed");
        Files.writeString(collapsed, """
                Thread.run;Handler.handle;Parser.next 60
                Thread.run;Handler.handle;Writer.write 30
                Thread.run;Handler.handle 5
                C2Compiler::compile;Optimizer::run 5
                not a stack line
                """);
        List<ProfileFrames.Frame> top = ProfileFrames.top(collapsed, 3);
        assertEquals(List.of(new ProfileFrames.Frame("Parser.next", 60.0), new ProfileFrames.Frame("Writer.write", 30.0),
                new ProfileFrames.Frame("Handler.handle", 5.0)).subList(0, 2), top.subList(0, 2));
        assertEquals(3, top.size());
        Files.writeString(collapsed, "");
        assertTrue(ProfileFrames.top(collapsed, 3).isEmpty());
    }
}
