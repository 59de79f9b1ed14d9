package perflab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher (the {@code perflab} script at the project's root) builds perflab when a pom or a main source is newer
 * than the CLI's jar, and only then: not for the copies of poms a run leaves in its output (an expanded WAR's
 * META-INF/maven, bench/out, results, target), and not under PERFLAB_NO_BUILD, which a bench sets so that all its runs
 * measure one build. A stale check that misses a source runs old code; one that fires on a run's output rebuilds on
 * every call. The script runs here as a user runs it, from a copy in a home of its own whose project is one class
 * laid out as perflab is (its jar at cli/target/perflab-cli.jar): Maven builds that for real, in seconds.
 */
class LauncherTest {
    @TempDir
    Path home;

    @Test
    void buildsWhenAPomOrASourceIsNewerThanTheJarAndOnlyThen() throws Exception {
        Path launcher = home.resolve("perflab");
        Files.copy(PerflabProcess.home().resolve("perflab"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("pom.xml"), POM);
        Path source = home.resolve("src/main/java/perflab/cli/Perflab.java");
        Files.createDirectories(source.getParent());
        writeMain(source, "first build");
        Path jar = home.resolve("cli/target/perflab-cli.jar");

        Launch first = launch(Map.of(), "hello");
        assertEquals(0, first.status, first.err);
        assertTrue(first.built(), "no jar yet: the launcher must build\n" + first.err);
        assertEquals("first build hello", first.out.strip());

        Launch again = launch(Map.of(), "hello");
        assertFalse(again.built(), "nothing changed since the build: " + again.err);
        assertEquals("first build hello", again.out.strip());

        // a run's output holds copies of poms (a Liberty run unpacks the WAR, whose META-INF/maven has perflab's pom);
        // each is newer than the jar here, and none of them is a source
        age(jar);
        for (String copy : List.of("bench/out/run-1/app/META-INF/maven/dev.perflab/trade/pom.xml", "results/run-2/pom.xml",
                "cli/target/classes/pom.xml", "workloads/x/target/src/main/Copy.java", ".git/src/main/Object.java",
                "apps/app.war/META-INF/maven/g/a/pom.xml")) {
            Path p = home.resolve(copy);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "<project/>");
        }
        Launch afterRuns = launch(Map.of(), "hello");
        assertFalse(afterRuns.built(), "poms in a run's output are not sources: " + afterRuns.err);

        // PERFLAB_NO_BUILD: a bench's runs all measure the build it started with, though the sources are edited meanwhile
        writeMain(source, "second build");
        Launch pinned = launch(Map.of("PERFLAB_NO_BUILD", "1"), "hello");
        assertFalse(pinned.built(), pinned.err);
        assertEquals("first build hello", pinned.out.strip());

        Launch edited = launch(Map.of(), "hello");
        assertTrue(edited.built(), "a source newer than the jar: the launcher must build\n" + edited.err);
        assertEquals("second build hello", edited.out.strip());
        assertFalse(launch(Map.of(), "hello").built(), "the jar Maven left must count as new after a build");

        // a pom alone (a dependency's version) is a change too
        age(jar);
        Files.writeString(home.resolve("pom.xml"), POM);
        assertTrue(launch(Map.of(), "hello").built(), "a pom newer than the jar: the launcher must build");
        assertFalse(launch(Map.of(), "hello").built(), "after a build the jar is up to date: no second build");

        Files.delete(jar);
        Launch missing = launch(Map.of("PERFLAB_NO_BUILD", "1"), "hello");
        assertEquals(1, missing.status);
        assertEquals(1, missing.err.strip().lines().count(), missing.err);
        assertTrue(missing.err.startsWith("perflab: PERFLAB_NO_BUILD is set but"), missing.err);
    }

    private record Launch(int status, String out, String err) {
        boolean built() {
            return err.contains("perflab: building");
        }
    }

    private Launch launch(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(home.resolve("perflab").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
        pb.environment().remove("PERFLAB_NO_BUILD");
        pb.environment().remove("PERFLAB_CLASSPATH");
        pb.environment().putAll(env);
        Path out = home.resolve("launch.out");
        Path err = home.resolve("launch.err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the launcher did not finish in 5 minutes: " + Files.readString(err));
        }
        return new Launch(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * The project's pom and source two minutes old and the jar one: the jar is newer than the sources it was built from,
     * and every file written after this call is newer than the jar, with no wait for the clock to move on.
     */
    private void age(Path jar) throws IOException {
        Instant now = Instant.now();
        for (Path p : List.of(home.resolve("pom.xml"), home.resolve("src/main/java/perflab/cli/Perflab.java"))) {
            Files.setLastModifiedTime(p, FileTime.from(now.minusSeconds(120)));
        }
        Files.setLastModifiedTime(jar, FileTime.from(now.minusSeconds(60)));
    }

    private static void writeMain(Path source, String greeting) throws IOException {
        Files.writeString(source, """
                package perflab.cli;

                public class Perflab {
                    public static void main(String[] args) {
                        System.out.println("%s " + String.join(" ", args));
                    }
                }
                """.formatted(greeting), StandardCharsets.UTF_8);
    }

    // the plugins at the versions perflab's own build uses, so that Maven finds them where it found perflab's
    private static final String POM = """
            <?xml version="1.0" encoding="UTF-8"?>
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>dev.perflab.test</groupId>
              <artifactId>launcher-home</artifactId>
              <version>1</version>
              <properties>
                <maven.compiler.release>17</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <build>
                <directory>cli/target</directory>
                <finalName>perflab-cli</finalName>
                <plugins>
                  <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                  <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
                  <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version></plugin>
                  <plugin>
                    <artifactId>maven-jar-plugin</artifactId><version>3.4.2</version>
                    <configuration><archive><manifest><mainClass>perflab.cli.Perflab</mainClass></manifest></archive></configuration>
                  </plugin>
                </plugins>
              </build>
            </project>
            """;
}
