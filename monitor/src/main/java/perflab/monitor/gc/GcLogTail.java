package perflab.monitor.gc;

import perflab.core.result.gc.GcSecond;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Follows a GC log that the JVM is still writing: each {@link #poll()} reads only the bytes appended since the
 * last one (the file position is kept; nothing is re-read) and feeds the complete lines to a
 * {@link GcLogAccumulator} over the whole log. A line still being written waits for its newline. A file that
 * turns out not to be a GC log stops the tail (see {@link #failure()}); it never throws into the caller.
 */
public final class GcLogTail implements AutoCloseable {
    private static final int MAX_LINE = 1 << 16;

    private final Path file;
    private final GcLogAccumulator accumulator;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private final StringBuilder partial = new StringBuilder();
    private FileChannel channel;
    private String failure;
    private boolean closed;

    public GcLogTail(Path file) {
        this.file = file;
        this.accumulator = new GcLogAccumulator(file.toString(), Long.MIN_VALUE, Long.MAX_VALUE,
                perflab.core.result.gc.GcAnalysis.DEFAULT_CASCADE_THRESHOLD);
    }

    /** Reads what was appended since the last poll; returns false once the tail has failed. */
    public boolean poll() {
        if (failure != null || closed) {
            return false;
        }
        try {
            if (channel == null) {
                try {
                    channel = FileChannel.open(file, StandardOpenOption.READ);
                } catch (NoSuchFileException e) {
                    return true; // not created yet
                }
            }
            while (true) {
                buffer.clear();
                int n = channel.read(buffer);
                if (n <= 0) {
                    return true;
                }
                buffer.flip();
                feed(buffer);
            }
        } catch (UnknownGcLogFormatException e) {
            failure = e.getMessage();
        } catch (IOException | RuntimeException e) {
            failure = file + ": " + e;
        }
        close();
        return false;
    }

    private void feed(ByteBuffer bytes) {
        String chunk = StandardCharsets.ISO_8859_1.decode(bytes).toString();
        int start = 0;
        for (int nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
            partial.append(chunk, start, nl);
            int len = partial.length();
            accumulator.accept(len > 0 && partial.charAt(len - 1) == '\r' ? partial.substring(0, len - 1) : partial.toString());
            partial.setLength(0);
            start = nl + 1;
        }
        partial.append(chunk, start, chunk.length());
        if (partial.length() > MAX_LINE) {
            partial.setLength(0); // not a log line; the accumulator's recognition decides about the file
        }
    }

    /** The GC in one epoch second of what was read so far; null while the log has no gc line or has failed. */
    public GcSecond second(long epochMs) {
        return failure == null && accumulator.recognized() ? accumulator.secondAt(epochMs) : null;
    }

    /** The accumulator over the whole log read so far (for {@link GcLogAccumulator#result()}). */
    public GcLogAccumulator accumulator() {
        return accumulator;
    }

    /** Why the tail stopped, or null while it is following the log. */
    public String failure() {
        return failure;
    }

    @Override
    public void close() {
        closed = true;
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing to do
            }
            channel = null;
        }
    }
}
