package perflab.core.traffic;

import java.util.List;

/**
 * One request to send: a template, the id written into its slot, and headers that vary per client (a
 * session cookie). {@code extraHeaders} is empty for stateless traffic.
 */
public record Request(RequestTemplate template, long id, List<RequestTemplate.Header> extraHeaders) {
    public Request(RequestTemplate template, long id) {
        this(template, id, List.of());
    }
}
