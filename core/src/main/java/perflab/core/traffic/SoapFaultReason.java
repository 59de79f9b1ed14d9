package perflab.core.traffic;

/**
 * The one-line reason of a SOAP fault in a response, for error reports of SOAP workloads' traffic. Only on
 * the error path, where allocating is fine.
 */
public final class SoapFaultReason {
    private static final int MAX = 200;

    private SoapFaultReason() {
    }

    /** "SOAP fault: &lt;faultstring&gt;" (cut at 200 characters), or "SOAP fault" when there is none. */
    public static String of(ResponseView response) {
        String body = response.bodyText();
        int start = body.indexOf("<faultstring>");
        int end = body.indexOf("</faultstring>");
        if (start < 0 || end < start) {
            return "SOAP fault";
        }
        String reason = body.substring(start + "<faultstring>".length(), end).replaceAll("\\s+", " ");
        return "SOAP fault: " + (reason.length() > MAX ? reason.substring(0, MAX) + "..." : reason);
    }
}
