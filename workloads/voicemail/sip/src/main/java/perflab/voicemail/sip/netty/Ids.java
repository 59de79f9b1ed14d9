package perflab.voicemail.sip.netty;

import java.util.concurrent.ThreadLocalRandom;

/** Random branches, tags and Call-IDs: unique enough over a run (64 random bits), cheap, no shared lock. */
final class Ids {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Ids() {
    }

    static String branch() {
        return Via.MAGIC_COOKIE + hex(ThreadLocalRandom.current().nextLong());
    }

    static String tag() {
        return hex(ThreadLocalRandom.current().nextLong());
    }

    static String callId(String host) {
        return hex(ThreadLocalRandom.current().nextLong()) + hex(ThreadLocalRandom.current().nextLong()) + "@" + host;
    }

    private static String hex(long v) {
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (v & 0xf)];
            v >>>= 4;
        }
        return new String(out);
    }
}
