package perflab.core.traffic;

/** Why a request did not count as throughput. The JSON names are the keys of summary.json's "errors". */
public enum ErrorKind {
    /** The connection could not be opened. */
    CONNECT("connect"),
    /** No complete response within the request timeout. */
    TIMEOUT("timeout"),
    /** The connection broke (reset, closed early, unparseable HTTP) during an exchange. */
    IO("io"),
    /** The HTTP status was not the one the traffic expects. */
    HTTP_STATUS("httpStatus"),
    /** The server answered with an application fault the traffic recognizes: a SOAP fault, an error page. */
    FAULT("fault"),
    /** The response arrived but its content was wrong (e.g. a wrong idout). */
    VALIDATION("validation");

    private final String jsonName;

    ErrorKind(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }
}
