package perflab.driver;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver JVM's own GC pauses inside the measured window: a driver that pauses delays sends and reads,
 * which the user must be able to tell from a slow server. Listens to the collectors' notifications and adds
 * the part of every pause that overlaps the window. Beans that report concurrent work rather than
 * pauses are skipped: ZGC and Shenandoah report pauses on their "... Pauses" beans and concurrent cycles on
 * "... Cycles"; G1 (JDK 20+) reports concurrent marking on "G1 Concurrent GC".
 *
 * <p>Times are wall-clock: a notification's time stamp is taken when the collection ends, so a pause starts
 * at time stamp minus duration. Both are whole milliseconds rounded separately, so a pause that began just
 * after the window opened can compute as starting a millisecond before it; overlap, not "starts inside",
 * is what keeps such a pause counted (a CI run lost one that way). (GcInfo's own start time counts from the management agent's start, not the
 * JVM's, so it cannot be compared with RuntimeMXBean uptime.)
 */
final class DriverGcWatch implements NotificationListener, AutoCloseable {
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private long windowStartEpochMs = Long.MAX_VALUE;
    private long windowEndEpochMs = Long.MAX_VALUE;
    private long pauseMs;
    private long pauses;

    DriverGcWatch() {
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter && isPauseBean(bean.getName())) {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
    }

    static boolean isPauseBean(String name) {
        return !name.contains("Cycles") && !name.contains("Concurrent");
    }

    synchronized void windowStart(long epochMs) {
        windowStartEpochMs = epochMs;
    }

    synchronized void windowEnd(long epochMs) {
        windowEndEpochMs = epochMs;
    }

    /** Pause time (ms) inside the window, as far as pauses have been notified. */
    synchronized double pauseMs() {
        return pauseMs;
    }

    synchronized long pauses() {
        return pauses;
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long duration = info.getGcInfo().getDuration();
        long end = notification.getTimeStamp();
        long start = end - duration;
        synchronized (this) {
            if (end >= windowStartEpochMs && start <= windowEndEpochMs) {
                pauseMs += Math.min(end, windowEndEpochMs) - Math.max(start, windowStartEpochMs);
                pauses++;
            }
        }
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // already gone: nothing to undo
            }
        }
        emitters.clear();
    }
}
