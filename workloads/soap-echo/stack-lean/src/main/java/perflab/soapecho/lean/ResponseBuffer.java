package perflab.soapecho.lean;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** A byte buffer the response is serialised into, handed to Jetty without another copy. */
final class ResponseBuffer extends ByteArrayOutputStream {
    ResponseBuffer(int initialCapacity) {
        super(initialCapacity);
    }

    ByteBuffer asByteBuffer() {
        return ByteBuffer.wrap(buf, 0, count);
    }
}
