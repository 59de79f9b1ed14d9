package perflab.agents.wire;

import io.grpc.MethodDescriptor;

/**
 * The one gRPC method between an agent and the controller: a bidirectional stream the agent opens, so that only
 * the controller listens. Its life is the agent's: when it closes, the agent stops driving and exits.
 */
public final class AgentService {
    public static final String NAME = "perflab.Agents";

    public static final MethodDescriptor<ToController, ToAgent> CONNECT = MethodDescriptor.<ToController, ToAgent>newBuilder()
            .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(NAME, "Connect"))
            .setRequestMarshaller(WireCodec.marshaller(ToController.class))
            .setResponseMarshaller(WireCodec.marshaller(ToAgent.class))
            .build();

    private AgentService() {
    }
}
