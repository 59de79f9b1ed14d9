package perflab.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Headless Chromium (Debian's {@code chromium} package) opening a report file: the DOM after the page's scripts
 * ran, and a screenshot. Network features are off, so a page that needed the network would show it.
 */
final class HtmlBrowser {
    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");

    private HtmlBrowser() {
    }

    /** The browser's executable, or null when none is installed. */
    static String executable() {
        for (String name : new String[]{"chromium", "chromium-browser"}) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    /** The page's DOM once its scripts ran (5 s of virtual time). */
    static String dumpDom(Path page) throws IOException, InterruptedException {
        return run(page, "--dump-dom");
    }

    static void screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
        run(page, "--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height, "--hide-scrollbars");
        if (!Files.isRegularFile(png) || Files.size(png) == 0) {
            throw new IOException("chromium wrote no screenshot " + png);
        }
    }

    /** An attribute of the page's body element in a dumped DOM, or null. */
    static String bodyAttribute(String dom, String name) {
        Matcher body = BODY.matcher(dom);
        if (!body.find()) {
            return null;
        }
        Matcher attr = Pattern.compile("\\s" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(body.group(1));
        return attr.find() ? attr.group(1) : null;
    }

    private static String run(Path page, String... what) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("perflab-chromium-");
        try {
            List<String> cmd = new ArrayList<>(List.of(executable(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--user-data-dir=" + profile, "--virtual-time-budget=5000"));
            cmd.addAll(List.of(what));
            cmd.add(page.toAbsolutePath().toUri().toString());
            Path out = profile.resolve("stdout");
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("chromium did not finish in 90 s: " + cmd);
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
