package perflab.claims.backend;

import com.ctc.wstx.exc.WstxLazyException;
import perflab.claims.contract.ClaimsContract;
import perflab.claims.contract.MessageSizes;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One regional ClaimServices endpoint, minimal business logic: reads the whole request with StAX (the fields a
 * mediation changes, and a count of claim lines and notes), and answers with the outcome, what it received,
 * and claim history (or repair shops) repeated up to the size the request asked for.
 */
final class ClaimService {
    private static final String NS = ClaimsContract.CLAIMS_NS;
    private static final int MAX_DELAY_MS = 60_000;

    private final String region;
    private final String service;
    private final SoapEnvelopeReader envelopes;

    ClaimService(String region, SoapEnvelopeReader envelopes) {
        this.region = region;
        this.service = ClaimsContract.serviceName(region);
        this.envelopes = envelopes;
    }

    /** What a request said, as far as the answer needs it. */
    private static final class Received {
        String operation;
        String namespace;
        String requestId = "";
        String channel = "";
        String policyNumber = "";
        boolean credentials;
        int responseSize = MessageSizes.DEFAULT_BYTES;
        int lines;
        int notes;
    }

    byte[] invoke(byte[] body, int length) throws SoapFault {
        Received r = read(body, length);
        String policy = r.policyNumber;
        if (policy.startsWith(ClaimsContract.FAULT_POLICY_PREFIX)) {
            throw SoapFault.client("policy " + policy + " is not on file at " + service);
        }
        if (policy.startsWith(ClaimsContract.SLOW_POLICY_PREFIX)) {
            delay(policy.substring(ClaimsContract.SLOW_POLICY_PREFIX.length()));
        }
        return answer(r);
    }

    private Received read(byte[] body, int length) throws SoapFault {
        Received r = new Received();
        try (SoapEnvelopeReader.Envelope envelope = envelopes.open(body, length)) {
            XMLStreamReader in = envelope.reader();
            r.operation = in.getLocalName();
            r.namespace = in.getNamespaceURI();
            if (!NS.equals(r.namespace) || !ClaimsContract.OPERATIONS.contains(r.operation)) {
                throw SoapFault.client("ClaimServices has no operation {" + r.namespace + "}" + r.operation);
            }
            int depth = 1;
            while (depth > 0) {
                int event = in.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    if (NS.equals(in.getNamespaceURI())) {
                        switch (in.getLocalName()) {
                            case "requestId" -> r.requestId = in.getElementText();
                            case "channel" -> r.channel = in.getElementText();
                            case "policyNumber" -> r.policyNumber = in.getElementText();
                            case "responseSize" -> r.responseSize = size(in.getElementText());
                            case "credentials" -> {
                                r.credentials = true;
                                depth++;
                            }
                            case "line" -> {
                                r.lines++;
                                depth++;
                            }
                            case "note" -> {
                                r.notes++;
                                depth++;
                            }
                            default -> depth++;
                        }
                    } else {
                        depth++;
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    depth--;
                } else if (event == XMLStreamConstants.ENTITY_REFERENCE || event == XMLStreamConstants.DTD) {
                    throw SoapFault.client("entities are not allowed");
                }
            }
            envelope.finish();
        } catch (XMLStreamException | WstxLazyException e) {
            throw SoapEnvelopeReader.malformed(e);
        }
        return r;
    }

    private static int size(String text) throws SoapFault {
        try {
            int n = Integer.parseInt(text.trim());
            return Math.max(MessageSizes.MIN_BYTES, Math.min(MessageSizes.MAX_BYTES, n));
        } catch (NumberFormatException e) {
            throw SoapFault.client("responseSize must be a number of bytes, got '" + text + "'");
        }
    }

    private static void delay(String millis) throws SoapFault {
        try {
            Thread.sleep(Math.min(MAX_DELAY_MS, Math.max(0, Integer.parseInt(millis.trim()))));
        } catch (NumberFormatException e) {
            throw SoapFault.client("a slow policy ends in milliseconds, got '" + millis + "'");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String status(String operation) {
        return switch (operation) {
            case ClaimsContract.CREATE_CLAIM -> "OPEN";
            case ClaimsContract.UPDATE_CLAIM -> "UPDATED";
            case ClaimsContract.APPROVE_CLAIM -> "APPROVED";
            case ClaimsContract.DENY_CLAIM -> "DENIED";
            case ClaimsContract.CHECK_COVERAGE -> "COVERED";
            case ClaimsContract.LIST_REPAIR_SHOPS -> "LISTED";
            case ClaimsContract.SELECT_REPAIR_SHOP -> "SHOP_SELECTED";
            default -> "CUSTOMER_INFORMED";
        };
    }

    private static final String[] EVENTS = {"FNOL_RECEIVED", "COVERAGE_CHECKED", "ESTIMATE_RECEIVED",
            "ADJUSTER_ASSIGNED", "PHOTOS_REVIEWED", "CUSTOMER_CALLED", "PAYMENT_SCHEDULED"};
    private static final String[] STREETS = {"High Street", "Station Road", "Mill Lane", "Church Street",
            "Victoria Road", "Park Avenue", "Harbour Way"};

    private byte[] answer(Received r) {
        boolean shops = ClaimsContract.LIST_REPAIR_SHOPS.equals(r.operation)
                || ClaimsContract.SELECT_REPAIR_SHOP.equals(r.operation);
        StringBuilder head = new StringBuilder(512);
        head.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><soap:Envelope xmlns:soap=\"")
                .append(ClaimsContract.SOAP11_NS).append("\"><soap:Body><cs:").append(r.operation)
                .append("Response xmlns:cs=\"").append(NS).append("\">");
        el(head, "requestId", r.requestId);
        el(head, "claimNumber", "CLM-" + region.toUpperCase(Locale.ROOT) + "-" + digits(r.requestId));
        el(head, "status", status(r.operation));
        el(head, "policyNumber", r.policyNumber);
        head.append("<cs:received>");
        el(head, "service", service);
        el(head, "operation", r.operation);
        el(head, "namespace", r.namespace);
        el(head, "channel", r.channel);
        el(head, "credentials", r.credentials ? "present" : "absent");
        el(head, "lines", Integer.toString(r.lines));
        el(head, "notes", Integer.toString(r.notes));
        head.append("</cs:received>");
        String list = shops ? "repairShops" : "history";
        String tail = "</cs:" + list + "></cs:" + r.operation + "Response></soap:Body></soap:Envelope>";
        // itemCount's digits are counted as 4, the most a 4 MB response can need
        int budget = r.responseSize - head.length() - "<cs:itemCount>0000</cs:itemCount>".length()
                - ("<cs:" + list + ">").length() - tail.length();
        StringBuilder items = new StringBuilder(Math.max(256, budget + 256));
        StringBuilder item = new StringBuilder(320);
        int count = 0;
        do {
            item.setLength(0);
            if (shops) {
                shop(item, count);
            } else {
                entry(item, count);
            }
            if (count > 0 && items.length() + item.length() > budget) {
                break;
            }
            items.append(item);
            count++;
        } while (true);
        head.append("<cs:itemCount>").append(count).append("</cs:itemCount><cs:").append(list).append('>')
                .append(items).append(tail);
        return head.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void entry(StringBuilder b, int i) {
        b.append("<cs:entry>");
        el(b, "at", "2024-03-" + padded(1 + i % 28, 2) + "T" + padded(8 + i % 10, 2) + ":" + padded((i * 13) % 60, 2) + ":00Z");
        el(b, "by", service + "/adjuster-" + (100 + i % 50));
        el(b, "event", EVENTS[i % EVENTS.length]);
        el(b, "detail", "Step " + (i + 1) + " of the claim handled by the " + region
                + " regional office; documents checked and filed with the claim record.");
        b.append("</cs:entry>");
    }

    private void shop(StringBuilder b, int i) {
        b.append("<cs:repairShop>");
        el(b, "shopId", "RS-" + region.toUpperCase(Locale.ROOT) + "-" + (1000 + i));
        el(b, "name", "Approved Body Repairs " + region + " " + (i + 1));
        el(b, "address", (10 + i % 90) + " " + STREETS[i % STREETS.length] + ", " + region + " district");
        el(b, "phone", "+44 161 555 " + padded(i % 10000, 4));
        el(b, "rating", tenths(30 + i % 20));
        el(b, "distanceKm", tenths(8 + 7L * i));
        b.append("</cs:repairShop>");
    }

    // String.format was the answer builder's hottest frame (three calls per item); these do the same for
    // the non-negative values the items carry.
    private static String padded(int value, int width) {
        String digits = Integer.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    /** {@code tenths} / 10 with one decimal, as {@code %.1f} prints it. */
    private static String tenths(long tenths) {
        return (tenths / 10) + "." + (tenths % 10);
    }

    private static String digits(String requestId) {
        StringBuilder d = new StringBuilder(requestId.length());
        for (int i = 0; i < requestId.length() && d.length() < 20; i++) {
            char c = requestId.charAt(i);
            if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
                d.append(c);
            }
        }
        return d.length() == 0 ? "0" : d.toString();
    }

    private static void el(StringBuilder b, String name, String value) {
        b.append("<cs:").append(name).append('>');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                default -> b.append(c);
            }
        }
        b.append("</cs:").append(name).append('>');
    }
}
