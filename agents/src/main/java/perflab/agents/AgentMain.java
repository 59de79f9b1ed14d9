package perflab.agents;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The agent process: {@code perflab.agents.AgentMain --controller HOST:PORT --name NAME}, the run's token on the
 * first line of standard input. It exits when its stream to the controller ends and also when its standard input
 * closes, so that an agent whose controller or SSH session died never keeps driving. Bad arguments get one line
 * and exit status 2.
 */
public final class AgentMain {
    /** Set once the agent is ending of its own accord: its input closing then is the deployer's tidying up. */
    private static volatile boolean ending;

    private AgentMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The agent's exit status; {@code perflab agent} calls this too. */
    public static int run(String[] args) {
        String controller = null;
        String name = null;
        for (int i = 0; i < args.length; i++) {
            if (i + 1 < args.length && args[i].equals("--controller")) {
                controller = args[++i];
            } else if (i + 1 < args.length && args[i].equals("--name")) {
                name = args[++i];
            } else {
                return usage("unknown argument '" + args[i] + "'");
            }
        }
        if (controller == null || name == null) {
            return usage("--controller HOST:PORT and --name NAME are both needed");
        }
        int colon = controller.lastIndexOf(':');
        int port;
        try {
            port = colon < 1 ? -1 : Integer.parseInt(controller.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            return usage("--controller '" + controller + "' is not HOST:PORT");
        }
        String host = controller.substring(0, colon).replace("[", "").replace("]", "");
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String token;
        try {
            token = stdin.readLine();
        } catch (IOException e) {
            token = null;
        }
        if (token == null || token.isBlank()) {
            return usage("no token on standard input (the controller's deployer writes it there)");
        }
        String agent = name;
        Thread watch = new Thread(() -> {
            try {
                while (stdin.read() >= 0) {
                    // the deployer writes nothing more; end of input means it is gone
                }
            } catch (IOException e) {
                // closed
            }
            if (!ending) {
                System.err.println("perflab agent " + agent + ": standard input closed (the controller or its session is gone); exiting");
                Runtime.getRuntime().halt(3);
            }
        }, "perflab-agent-stdin");
        watch.setDaemon(true);
        watch.start();
        try {
            return new Agent(name, token.trim()).run(host, port);
        } catch (InterruptedException e) {
            return 1;
        } finally {
            ending = true;
        }
    }

    private static int usage(String problem) {
        System.err.println("perflab agent: " + problem);
        return 2;
    }
}
