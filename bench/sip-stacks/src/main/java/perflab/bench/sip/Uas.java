package perflab.bench.sip;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/** What both UAS mains share: the SDP answer, counters, and running until SIGTERM (the script's kill). */
final class Uas {
    static final String SDP = "v=0\r\n"
            + "o=uas 1 1 IN IP4 127.0.0.1\r\n"
            + "s=-\r\n"
            + "c=IN IP4 127.0.0.1\r\n"
            + "t=0 0\r\n"
            + "m=audio 6000 RTP/AVP 0\r\n"
            + "a=rtpmap:0 PCMU/8000\r\n";

    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private Uas() {
    }

    static void count(String what) {
        COUNTS.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    static Map<String, Long> counts() {
        Map<String, Long> out = new TreeMap<>();
        COUNTS.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Prints "ready PORT" and blocks until the JVM is told to stop; {@code onStop} prints the final counters. */
    static void serve(String name, int port, Runnable onStop) throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            onStop.run();
            System.out.println(name + " application counters " + counts());
            System.out.flush();
            stop.countDown();
        }));
        System.out.println("ready " + port);
        System.out.flush();
        stop.await();
    }
}
