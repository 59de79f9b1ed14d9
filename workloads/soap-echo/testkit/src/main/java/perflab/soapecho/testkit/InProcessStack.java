package perflab.soapecho.testkit;

import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;

/** A soap-echo stack's in-process entry point ({@code LeanSoapEchoServer::start}, {@code CxfSoapEchoServer::start}). */
@FunctionalInterface
public interface InProcessStack {
    StartedServer start(SutArgs args) throws Exception;

    /** Starts the stack on 127.0.0.1 and an ephemeral port, with {@code settings} ({@code --name value}) besides. */
    default StartedServer startOnLoopback(String... settings) throws Exception {
        String[] args = new String[settings.length + 4];
        System.arraycopy(new String[] {"--host", "127.0.0.1", "--port", "0"}, 0, args, 0, 4);
        System.arraycopy(settings, 0, args, 4, settings.length);
        return start(SutArgs.parse(args, ServerSettings.NAMES));
    }
}
