package perflab.experiment;

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
