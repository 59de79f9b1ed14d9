package perflab.voicemail.sip;

import java.util.List;

/** A header the application adds to a message it sends; the stack writes the ones RFC 3261 requires itself. */
public record Header(String name, String value) {
    public Header {
        if (name == null || name.isEmpty() || value == null || name.indexOf('\r') >= 0 || name.indexOf('\n') >= 0
                || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a header needs a name and a value on one line: " + name);
        }
    }

    public static List<Header> of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs");
        }
        Header[] headers = new Header[namesAndValues.length / 2];
        for (int i = 0; i < headers.length; i++) {
            headers[i] = new Header(namesAndValues[2 * i], namesAndValues[2 * i + 1]);
        }
        return List.of(headers);
    }
}
