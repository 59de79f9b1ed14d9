package perflab.agents.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.grpc.MethodDescriptor;
import org.HdrHistogram.Histogram;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * The messages' encoding on the stream: JSON (readable in a capture, and a second's report is a few kilobytes, which
 * a protobuf schema and its code generator would not make cheaper in any way that shows), with each histogram as
 * HdrHistogram's compressed form in base64, which keeps every count, so that added histograms are exact.
 */
public final class WireCodec {
    static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule())
            .registerModule(new SimpleModule("histograms")
                    .addSerializer(Histogram.class, new HistogramOut())
                    .addDeserializer(Histogram.class, new HistogramIn()))
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private WireCodec() {
    }

    public static byte[] encode(Object message) {
        try {
            return MAPPER.writeValueAsBytes(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T decode(byte[] bytes, Class<T> type) {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("a message perflab cannot read: " + e.getMessage(), e);
        }
    }

    /** gRPC's marshaller for one direction's messages. */
    static <T> MethodDescriptor.Marshaller<T> marshaller(Class<T> type) {
        return new MethodDescriptor.Marshaller<>() {
            @Override
            public InputStream stream(T value) {
                return new ByteArrayInputStream(encode(value));
            }

            @Override
            public T parse(InputStream stream) {
                try {
                    return decode(stream.readAllBytes(), type);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    private static final class HistogramOut extends JsonSerializer<Histogram> {
        @Override
        public void serialize(Histogram h, JsonGenerator out, SerializerProvider serializers) throws IOException {
            ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int length = h.encodeIntoCompressedByteBuffer(buffer, 1); // fast level: a report goes out every second
            out.writeBinary(buffer.array(), 0, length);
        }
    }

    private static final class HistogramIn extends JsonDeserializer<Histogram> {
        @Override
        public Histogram deserialize(JsonParser in, DeserializationContext context) throws IOException {
            try {
                Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(in.getBinaryValue()), 0);
                h.setAutoResize(true); // adding another agent's histogram must never lose a value
                return h;
            } catch (DataFormatException e) {
                throw new IOException("a histogram that does not decode: " + e.getMessage(), e);
            }
        }
    }
}
