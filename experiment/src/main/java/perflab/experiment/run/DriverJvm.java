package perflab.experiment.run;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The driver's own JVM (the one running perflab): its GC log goes into each run directory, and it can be
 * pinned to the driver's CPUs, so that the driver's costs are visible and kept apart from the SUT's.
 */
public final class DriverJvm {
    private DriverJvm() {
    }

    /** Starts HotSpot GC logging of this JVM into {@code file} (the jcmd VM.log command, run in-process). */
    public static boolean logGcTo(Path file) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            String[] args = {"output=" + file.toAbsolutePath(), "what=gc*,safepoint",
                    "decorators=time,uptime,level,tags", "output_options=filecount=0"};
            server.invoke(name, "vmLog", new Object[]{args}, new String[]{String[].class.getName()});
            return true;
        } catch (Exception e) {
            return false; // not HotSpot: the run goes on without the driver's GC log
        }
    }

    /** Stops the GC log to {@code file} so that the next run gets its own. */
    public static void stopGcLog(Path file) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            String[] args = {"output=" + file.toAbsolutePath(), "what=disable"};
            server.invoke(name, "vmLog", new Object[]{args}, new String[]{String[].class.getName()});
        } catch (Exception e) {
            // nothing to stop
        }
    }

    /** Pins every thread of this JVM (and the threads it starts later) to {@code cpus}, with taskset. */
    public static void pinTo(String cpus) {
        try {
            Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalArgumentException("--driver-cpus " + cpus + ": taskset refused it: " + out);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("--driver-cpus needs taskset (util-linux): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
