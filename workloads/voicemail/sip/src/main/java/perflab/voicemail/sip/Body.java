package perflab.voicemail.sip;

import java.nio.charset.StandardCharsets;

/** A message body the application sends: opaque bytes and their Content-Type (an SDP offer passes through as is). */
public record Body(String contentType, byte[] bytes) {
    public static final Body NONE = new Body(null, new byte[0]);

    public Body {
        if (bytes == null || (bytes.length > 0 && (contentType == null || contentType.isEmpty()))) {
            throw new IllegalArgumentException("a body needs bytes, and a Content-Type when not empty");
        }
    }

    public static Body of(String contentType, String text) {
        return new Body(contentType, text.getBytes(StandardCharsets.UTF_8));
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }
}
