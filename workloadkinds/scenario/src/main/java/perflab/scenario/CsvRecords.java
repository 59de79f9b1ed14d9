package perflab.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * A CSV text's records (RFC 4180: comma separated, a field in double quotes may hold commas, line breaks and "" for
 * a quote; CRLF or LF between records); blank lines are skipped. A quote that is not closed is an
 * IllegalArgumentException naming the record.
 */
final class CsvRecords {
    private CsvRecords() {
    }

    static List<List<String>> parse(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean fieldStarted = false;
        int line = 1;
        int recordLine = 1;
        int i = text.startsWith("\uFEFF") ? 1 : 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i += 2;
                        continue;
                    }
                    quoted = false;
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    field.append(c);
                }
                i++;
                continue;
            }
            switch (c) {
                case '"' -> {
                    quoted = true;
                    fieldStarted = true;
                }
                case ',' -> {
                    record.add(field.toString());
                    field.setLength(0);
                    fieldStarted = true;
                }
                case '\r' -> {
                }
                case '\n' -> {
                    end(records, record, field, fieldStarted);
                    record = new ArrayList<>();
                    fieldStarted = false;
                    line++;
                    recordLine = line;
                }
                default -> {
                    field.append(c);
                    fieldStarted = true;
                }
            }
            i++;
        }
        if (quoted) {
            throw new IllegalArgumentException("line " + recordLine + ": a quoted field is not closed");
        }
        end(records, record, field, fieldStarted);
        return records;
    }

    private static void end(List<List<String>> records, List<String> record, StringBuilder field, boolean started) {
        if (!started && record.isEmpty()) {
            return; // a blank line
        }
        record.add(field.toString());
        field.setLength(0);
        records.add(record);
    }
}
