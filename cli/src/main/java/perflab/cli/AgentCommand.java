package perflab.cli;

import perflab.agents.AgentMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"The driver as an agent of a controller (`run` or `drive` with --agents starts these itself).",
                "It dials the controller, takes its part of the run, drives, and streams its figures back; the run's",
                "token comes on the first line of standard input, and the agent exits when its input or its stream closes."})
final class AgentCommand implements Callable<Integer> {
    @Option(names = "--controller", required = true, paramLabel = "HOST:PORT", description = "The controller to dial.")
    String controller;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "This agent's name in the run.")
    String name;

    @Override
    public Integer call() {
        return AgentMain.run(new String[]{"--controller", controller, "--name", name});
    }
}
