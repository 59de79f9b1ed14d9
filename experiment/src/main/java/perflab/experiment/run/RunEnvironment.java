package perflab.experiment.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The machine and software a run was measured on, for run.json. */
public final class RunEnvironment {
    private RunEnvironment() {
    }

    public static Map<String, Object> describe(Path perflabHome) {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("perflabRevision", revision(perflabHome));
        env.put("driverJavaVersion", System.getProperty("java.version"));
        env.put("driverJavaVm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        env.put("cpuModel", cpuModel());
        env.put("host", host());
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        env.put("distribution", distribution());
        env.put("hostname", hostname());
        env.put("transparentHugePages", firstLine(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")));
        return env;
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    /**
     * The processor beyond its model name, as lscpu shows it: an absolute figure is the host's (one bench gave 0.99x
     * on an AMD EPYC and 1.64x on an Intel Xeon of the same size, issue 36), so a reader comparing two runs needs
     * the family, model and stepping, the clock, whether it is a guest, and the memory. Read from /proc, not lscpu,
     * so that a run starts no process for it.
     */
    static Map<String, Object> host() {
        Map<String, Object> host = new LinkedHashMap<>();
        Map<String, String> cpu = new LinkedHashMap<>();
        int processors = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String key = line.substring(0, colon).trim();
                if (key.equals("processor")) {
                    processors++;
                }
                cpu.putIfAbsent(key, line.substring(colon + 1).trim());
            }
        } catch (IOException e) {
            // not Linux: the model name from os.arch is all there is
        }
        host.put("vendor", cpu.get("vendor_id"));
        host.put("family", cpu.get("cpu family"));
        host.put("model", cpu.get("model"));
        host.put("stepping", cpu.get("stepping"));
        host.put("mhz", cpu.get("cpu MHz"));
        host.put("cpus", processors > 0 ? processors : Runtime.getRuntime().availableProcessors());
        String siblings = cpu.get("siblings");
        String cores = cpu.get("cpu cores");
        if (siblings != null && cores != null) {
            try {
                host.put("threadsPerCore", Integer.parseInt(siblings) / Math.max(1, Integer.parseInt(cores)));
            } catch (NumberFormatException e) {
                // leave it out
            }
        }
        String flags = cpu.getOrDefault("flags", "");
        host.put("virtual", (" " + flags + " ").contains(" hypervisor "));
        host.put("cacheSize", cpu.get("cache size"));
        host.put("memTotal", meminfo("MemTotal"));
        return host;
    }

    private static String meminfo(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith(key + ":")) {
                    return line.substring(key.length() + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return null;
    }

    private static String distribution() {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith("PRETTY_NAME=")) {
                    return line.substring(12).replace("\"", "");
                }
            }
        } catch (IOException e) {
            // not there
        }
        return null;
    }

    private static String hostname() {
        return firstLine(Path.of("/etc/hostname"));
    }

    private static String firstLine(Path file) {
        try {
            return Files.readAllLines(file).stream().findFirst().map(String::trim).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** The git revision of perflab's checkout, with "-dirty" when it has uncommitted changes. */
    static String revision(Path home) {
        try {
            String rev = git(home, "rev-parse", "--short=12", "HEAD");
            if (rev == null) {
                return "unknown";
            }
            String status = git(home, "status", "--porcelain", "--untracked-files=no");
            return status == null || status.isEmpty() ? rev : rev + "-dirty";
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    private static String git(Path home, String... args) {
        try {
            String[] command = new String[args.length + 3];
            command[0] = "git";
            command[1] = "-C";
            command[2] = home.toString();
            System.arraycopy(args, 0, command, 3, args.length);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
