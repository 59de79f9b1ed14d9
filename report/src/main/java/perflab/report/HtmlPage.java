package perflab.report;

import perflab.core.result.AtomicFiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A self-contained report page: CSS, Chart.js and the page's own script inlined, the charts' data embedded as
 * JSON, nothing fetched when the page is viewed. Everything given as text is escaped; only {@link HtmlTable}
 * output and this class's own markup go in as HTML.
 *
 * <p>When the page has drawn its charts, {@code <body data-rendered="N">} holds how many; any script error is
 * recorded in {@code <body data-errors>} (both read by the browser test).
 */
public final class HtmlPage {
    private final String title;
    private final StringBuilder body = new StringBuilder();
    private final List<Chart> charts = new ArrayList<>();

    public HtmlPage(String title) {
        this.title = title;
    }

    public HtmlPage heading(String text) {
        body.append("<h2>").append(HtmlText.escape(text)).append("</h2>\n");
        return this;
    }

    public HtmlPage subheading(String text) {
        body.append("<h3>").append(HtmlText.escape(text)).append("</h3>\n");
        return this;
    }

    public HtmlPage paragraph(String text) {
        body.append("<p>").append(HtmlText.escape(text)).append("</p>\n");
        return this;
    }

    /** A paragraph that is a link to a file beside the page ({@code href} relative to it). */
    public HtmlPage link(String text, String href) {
        body.append("<p><a href=\"").append(HtmlText.escape(href)).append("\">").append(HtmlText.escape(text))
                .append("</a></p>\n");
        return this;
    }

    /** A highlighted line: {@code kind} is {@code warn} or {@code info}. */
    public HtmlPage notice(String kind, String text) {
        body.append("<p class=\"notice ").append(HtmlText.escape(kind)).append("\">").append(HtmlText.escape(text))
                .append("</p>\n");
        return this;
    }

    public HtmlPage code(String text) {
        body.append("<pre>").append(HtmlText.escape(text)).append("</pre>\n");
        return this;
    }

    public HtmlPage table(HtmlTable table) {
        body.append(table.html());
        return this;
    }

    /** Name-value pairs (null values are left out). */
    public HtmlPage facts(Map<String, String> facts) {
        body.append("<dl class=\"facts\">\n");
        facts.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                body.append("<dt>").append(HtmlText.escape(k)).append("</dt><dd>").append(HtmlText.escape(v))
                        .append("</dd>\n");
            }
        });
        body.append("</dl>\n");
        return this;
    }

    /** Starts a row of side-by-side blocks (fact lists); close it with {@link #endColumns()}. */
    public HtmlPage columns() {
        body.append("<div class=\"columns\">\n<div>\n");
        return this;
    }

    public HtmlPage nextColumn() {
        body.append("</div>\n<div>\n");
        return this;
    }

    public HtmlPage endColumns() {
        body.append("</div>\n</div>\n");
        return this;
    }

    public HtmlPage chart(Chart chart) {
        charts.add(chart);
        body.append("<figure class=\"chart\" id=\"fig-").append(chart.id()).append("\">\n<figcaption>")
                .append(HtmlText.escape(chart.title())).append("</figcaption>\n");
        if (chart.note() != null) {
            body.append("<p class=\"note\">").append(HtmlText.escape(chart.note())).append("</p>\n");
        }
        body.append("<div class=\"canvas\"><canvas id=\"chart-").append(chart.id()).append("\"></canvas></div>\n</figure>\n");
        return this;
    }

    public int chartCount() {
        return charts.size();
    }

    public String render() {
        ChartLibrary lib = ChartLibrary.get();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("charts", charts);
        StringBuilder out = new StringBuilder(lib.script().length() + body.length() + 64 * 1024);
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"perflab; charts: Chart.js ").append(HtmlText.escape(lib.version()))
                .append("\">\n<title>").append(HtmlText.escape(title)).append("</title>\n<style>\n")
                .append(resource("report.css")).append("</style>\n</head>\n<body data-rendered=\"0\" data-errors=\"\">\n")
                // First, so that an error anywhere below (the library included) is recorded.
                .append("<script>window.onerror=function(m,s,l){var b=document.body;b.setAttribute('data-errors',")
                .append("(b.getAttribute('data-errors')||'')+m+' (line '+l+'); ');};</script>\n")
                .append("<main>\n<h1>").append(HtmlText.escape(title)).append("</h1>\n")
                .append(body)
                .append("<footer>Made by perflab. Charts drawn with Chart.js ").append(HtmlText.escape(lib.version()))
                .append(" (MIT licence), inlined: this page needs no network.</footer>\n</main>\n")
                .append("<script type=\"application/json\" id=\"perflab-data\">").append(HtmlText.scriptJson(data))
                .append("</script>\n<script>\n").append(lib.script()).append("\n</script>\n<script>\n")
                .append(resource("charts.js")).append("\n</script>\n</body>\n</html>\n");
        return out.toString();
    }

    /** Renders the page into {@code file} atomically. */
    public Path write(Path file) throws IOException {
        AtomicFiles.write(file, render().getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static String resource(String name) {
        try (InputStream in = HtmlPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource perflab/report/" + name + "; rebuild perflab");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
