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
 * the duration of every pause that starts inside the window. Beans that report concurrent work rather than
 * pauses are skipped: ZGC and Shenandoah report pauses on their "... Pauses" beans and concurrent cycles on
 * "... Cycles"; G1 (JDK 20+) reports concurrent marking on "G1 Concurrent GC".
 */
final class DriverGcWatch implements NotificationListener, AutoCloseable {
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private long windowStartUptimeMs = Long.MAX_VALUE;
    private long windowEndUptimeMs = Long.MAX_VALUE;
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

    synchronized void windowStart() {
        windowStartUptimeMs = ManagementFactory.getRuntimeMXBean().getUptime();
    }

    synchronized void windowEnd() {
        windowEndUptimeMs = ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /** Pause time (ms) of pauses that started inside the window, as far as they have been notified. */
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
        long start = info.getGcInfo().getStartTime();
        long duration = info.getGcInfo().getDuration();
        synchronized (this) {
            if (start >= windowStartUptimeMs && start <= windowEndUptimeMs) {
                pauseMs += duration;
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
