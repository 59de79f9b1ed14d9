package perflab.core.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where perflab chooses the ports it names ahead of a program's start: outside the kernel's ephemeral range, the
 * ports it gives to a bind to port 0 and to outgoing connections. Below the range when there is room (Linux's
 * default 32768-60999 leaves 20000-32767), above it otherwise. Ports under 20000 are left alone: services
 * configured by hand live there (5432, 8080, 9090...).
 */
final class ChosenPortRange {
    static final int LOWEST = 20000;
    /** Fewer ports than this outside the range and perflab chooses inside it after all: better a race than none. */
    static final int ENOUGH = 2000;
    private static final Path EPHEMERAL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private ChosenPortRange() {
    }

    /** The inclusive range to choose from on this machine, read each time: a host may change its ephemeral range. */
    static int[] current() {
        return outside(ephemeral());
    }

    /** The kernel's ephemeral range; Linux's default when it cannot be read (not Linux). */
    static int[] ephemeral() {
        try {
            String[] f = Files.readString(EPHEMERAL).trim().split("\\s+");
            return new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])};
        } catch (IOException | RuntimeException e) {
            return new int[] {32768, 60999};
        }
    }

    /** Ports to choose from given the ephemeral range {@code [low, high]}. */
    static int[] outside(int[] ephemeral) {
        int low = ephemeral[0];
        int high = ephemeral[1];
        if (low - LOWEST >= ENOUGH) {
            return new int[] {LOWEST, low - 1};
        }
        if (65535 - high >= ENOUGH) {
            return new int[] {high + 1, 65535};
        }
        return new int[] {Math.max(1024, Math.min(low, LOWEST)), 65535};
    }
}
