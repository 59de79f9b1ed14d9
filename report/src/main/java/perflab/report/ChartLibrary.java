package perflab.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;

/**
 * Chart.js, read from its WebJar on the classpath when a report is rendered and inlined into the page, so that a
 * report needs no network when it is viewed. Read once per process.
 */
public final class ChartLibrary {
    private static final String WEBJAR = "META-INF/resources/webjars/chart.js/";
    private static final String POM = "META-INF/maven/org.webjars.npm/chart.js/pom.properties";
    private static volatile ChartLibrary loaded;

    private final String version;
    private final String script;

    private ChartLibrary(String version, String script) {
        this.version = version;
        this.script = script;
    }

    public static ChartLibrary get() {
        ChartLibrary lib = loaded;
        if (lib == null) {
            lib = load();
            loaded = lib;
        }
        return lib;
    }

    public String version() {
        return version;
    }

    /** The minified UMD bundle (defines the global {@code Chart}), safe to put inside a script element. */
    public String script() {
        return script;
    }

    private static ChartLibrary load() {
        ClassLoader cl = ChartLibrary.class.getClassLoader();
        Properties pom = new Properties();
        try (InputStream in = cl.getResourceAsStream(POM)) {
            if (in == null) {
                throw new IllegalStateException("the Chart.js WebJar is not on the classpath (" + POM + "); rebuild perflab");
            }
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = pom.getProperty("version");
        String path = WEBJAR + version + "/dist/chart.umd.min.js";
        try (InputStream in = cl.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the Chart.js WebJar has no " + path + "; rebuild perflab");
            }
            String js = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            // A literal "</script" would end the inlined element early; in JS source "<\/" means the same.
            if (js.toLowerCase(Locale.ROOT).contains("</script")) {
                js = js.replaceAll("(?i)</script", "<\\\\/script");
            }
            return new ChartLibrary(version, js);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
