package perflab.report;

import java.util.ArrayList;
import java.util.List;

/** A table of text cells, escaped when rendered; numeric columns are right-aligned. */
public final class HtmlTable {
    private final List<String> header;
    private final boolean[] numeric;
    private final List<List<String>> rows = new ArrayList<>();
    private final List<String> rowClasses = new ArrayList<>();

    /** @param header column names; a name ending in {@code "#"} marks a numeric column (the mark is not shown) */
    public HtmlTable(String... header) {
        this.header = new ArrayList<>();
        this.numeric = new boolean[header.length];
        for (int i = 0; i < header.length; i++) {
            String h = header[i];
            numeric[i] = h.endsWith("#");
            this.header.add(numeric[i] ? h.substring(0, h.length() - 1) : h);
        }
    }

    public HtmlTable row(String... cells) {
        return styledRow(null, cells);
    }

    /** @param cssClass e.g. {@code "bad"}, {@code "good"}, {@code "muted"}; null for none */
    public HtmlTable styledRow(String cssClass, String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("row of " + cells.length + " cells in a table of " + header.size() + " columns");
        }
        rows.add(List.of(cells));
        rowClasses.add(cssClass);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public String html() {
        StringBuilder out = new StringBuilder("<table>\n<thead><tr>");
        for (int i = 0; i < header.size(); i++) {
            out.append(numeric[i] ? "<th class=\"num\">" : "<th>").append(HtmlText.escape(header.get(i))).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (int r = 0; r < rows.size(); r++) {
            String cls = rowClasses.get(r);
            out.append(cls == null ? "<tr>" : "<tr class=\"" + HtmlText.escape(cls) + "\">");
            List<String> cells = rows.get(r);
            for (int i = 0; i < cells.size(); i++) {
                out.append(numeric[i] ? "<td class=\"num\">" : "<td>").append(HtmlText.escape(cells.get(i))).append("</td>");
            }
            out.append("</tr>\n");
        }
        return out.append("</tbody>\n</table>\n").toString();
    }
}
