package perflab.soap;

/**
 * A SOAP 1.1 fault to send back: the fault code (a local name in the envelope namespace) and a one-line
 * reason. Thrown by the readers in this package and by services; written by {@link SoapFaultWriter}.
 */
public final class SoapFault extends Exception {

    /** SOAP 1.1 fault codes (section 4.4.1). */
    public enum Code {
        VERSION_MISMATCH("VersionMismatch"),
        MUST_UNDERSTAND("MustUnderstand"),
        CLIENT("Client"),
        SERVER("Server");

        private final String localName;

        Code(String localName) {
            this.localName = localName;
        }

        public String localName() {
            return localName;
        }
    }

    private final Code code;

    public SoapFault(Code code, String reason) {
        this(code, reason, null);
    }

    public SoapFault(Code code, String reason, Throwable cause) {
        super(reason, cause, false, false); // faults are expected answers: no stack trace to fill in
        this.code = code;
    }

    public static SoapFault client(String reason) {
        return new SoapFault(Code.CLIENT, reason);
    }

    public static SoapFault client(String reason, Throwable cause) {
        return new SoapFault(Code.CLIENT, reason, cause);
    }

    public static SoapFault server(String reason, Throwable cause) {
        return new SoapFault(Code.SERVER, reason, cause);
    }

    public Code code() {
        return code;
    }

    public String reason() {
        return getMessage();
    }
}
