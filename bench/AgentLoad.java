import com.sun.tools.attach.VirtualMachine;

/**
 * Loads a native agent into a running JVM with the attach API: `java bench/AgentLoad.java PID LIBRARY OPTIONS`.
 * bench/driver-profile.sh starts and stops async-profiler in the driver's JVM with it. Not `jcmd PID
 * JVMTI.agent_load`: with async-profiler 4.1 that answered "return code: 100" and loaded nothing.
 */
public class AgentLoad {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java bench/AgentLoad.java PID LIBRARY OPTIONS");
            System.exit(2);
        }
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }
}
