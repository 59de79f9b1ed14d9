package perflab.cli;

import org.junit.jupiter.api.Test;
import org.xml.sax.SAXParseException;
import perflab.core.server.ServerFile;
import perflab.core.workload.StackInfo;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every server file shipped in servers/ reads, and one that declares a workload's stack (such as trade's liberty) takes
 * every server setting that workload always gives its stacks: a setting it lacked would refuse every run of the stack.
 */
class ShippedServerFilesTest {
    private static final Path HOME = Path.of(System.getProperty("basedir", ".")).resolve("..").normalize();

    @Test
    void everyShippedServerFileReadsAndAStacksFileTakesItsWorkloadsSettings() throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(HOME.resolve("servers"))) {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no server files in " + HOME.resolve("servers"));
        int stackFiles = 0;
        for (Path file : files) {
            ServerFile server = ServerFileReader.read(file);
            assertNotNull(server.description(), file.toString());
            for (String template : server.templates().values()) {
                if (template.endsWith(".xml")) {
                    assertWellFormed(Path.of(template));
                }
            }
            if (server.workload() == null) {
                continue;
            }
            Workload workload = Workloads.named(server.workload());
            for (StackInfo stack : workload.stacks()) {
                if (stack.serverFile() == null || !HOME.resolve(stack.serverFile()).normalize().equals(file.normalize())) {
                    continue;
                }
                stackFiles++;
                for (WorkloadSetting s : workload.settings()) {
                    if (s.use() != WorkloadSetting.Use.TRAFFIC && s.defaultValue() != null) {
                        assertNotNull(server.setting(s.name()), file + " declares stack " + stack.name() + " of "
                                + workload.name() + " but not its setting " + s.name());
                    }
                }
            }
        }
        long declared = Workloads.all().stream().flatMap(w -> w.stacks().stream())
                .filter(stack -> stack.serverFile() != null && stack.serverFile().startsWith("servers/")).count();
        assertEquals(declared, stackFiles, "every stack declared by a file in servers/ finds it there naming its workload");
        assertTrue(stackFiles > 0, "no workload has a stack declared by a shipped server file: nothing was checked");
    }

    /**
     * A product's configuration template must be well-formed XML with its placeholders in it: a product that cannot
     * parse its configuration starts without it (Liberty with no features), and perflab then only sees a server that
     * never gets ready.
     */
    private static void assertWellFormed(Path template) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(null);
        try {
            builder.parse(template.toFile());
        } catch (SAXParseException e) {
            throw new AssertionError(template + ":" + e.getLineNumber() + ": " + e.getMessage(), e);
        }
    }
}
