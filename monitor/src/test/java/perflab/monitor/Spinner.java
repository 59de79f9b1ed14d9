package perflab.monitor;

/** Child JVM of {@link ProcessSamplerTest}: one thread spins for the given ms, the main thread waits. */
public final class Spinner {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long ms = Long.parseLong(args[0]);
        Thread spin = new Thread(() -> {
            long end = System.nanoTime() + ms * 1_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += x * 31 + 7;
            }
            sink = x;
        });
        System.out.println("SPINNING");
        System.out.flush();
        spin.start();
        spin.join();
    }
}
