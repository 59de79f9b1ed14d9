package perflab.voicemail.lean.web;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Refuses new work at the door when the server is full, so that the calls it admitted stay fast (a server that
 * takes everything past its capacity makes every call slow and then fails them all): at most {@code maxSetups}
 * clicks being set up at once and {@code maxCalls} users in a call. Only new clicks are counted and refused;
 * hang-ups and in-dialog SIP requests never are.
 */
final class Admission {
    private final int maxSetups;
    private final int maxCalls;
    private final IntSupplier liveCalls;
    private final AtomicInteger settingUp = new AtomicInteger();

    /** @param maxSetups 0 for no limit; @param maxCalls 0 for no limit */
    Admission(int maxSetups, int maxCalls, IntSupplier liveCalls) {
        this.maxSetups = maxSetups;
        this.maxCalls = maxCalls;
        this.liveCalls = liveCalls;
    }

    /** Admits a click (then {@link #setupDone()} must follow) or refuses it. */
    boolean tryAdmit() {
        if (maxCalls > 0 && liveCalls.getAsInt() >= maxCalls) {
            return false;
        }
        int now = settingUp.incrementAndGet();
        if (maxSetups > 0 && now > maxSetups) {
            settingUp.decrementAndGet();
            return false;
        }
        return true;
    }

    void setupDone() {
        settingUp.decrementAndGet();
    }

    int settingUp() {
        return settingUp.get();
    }
}
