package perflab.claims.contract;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Builds ClaimServices request envelopes of a given size in each of the workload's three schemas, by repeating
 * realistic elements (claim lines and adjuster notes), never by padding one string. The request id sits in a
 * slot of {@link #ID_WIDTH} digits so the driver can write a new one per request by copying bytes.
 * Used by the traffic and by the tests of the back end and of every gateway stack.
 */
public final class ClaimMessages {
    public static final int ID_WIDTH = 10;

    /** Which schema a request is written in. */
    public enum Dialect {
        /** ClaimServices' own (CLAIMS_NS): passthrough, transform-value, route-on-body, composite. */
        CLAIMS(ClaimsContract.CLAIMS_NS, "cs", "policyNumber"),
        /** transform-namespace's client side: another namespace, policyNumber named policyId. */
        CLAIMS_V2(ClaimsContract.CLAIMS_V2_NS, "cl", "policyId"),
        /** transform-schema's client side: the partner's FirstNoticeOfLoss. */
        PARTNER(ClaimsContract.PARTNER_NS, "fn", null);

        public final String namespace;
        public final String prefix;
        public final String policyElement;

        Dialect(String namespace, String prefix, String policyElement) {
            this.namespace = namespace;
            this.prefix = prefix;
            this.policyElement = policyElement;
        }
    }

    /** Where the routing field sits: in the message head (where the schema puts it) or after the bulk. */
    public enum RoutingPosition {
        EARLY, LATE;

        public static RoutingPosition parse(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "early" -> EARLY;
                case "late" -> LATE;
                default -> throw new IllegalArgumentException("routing-field-position must be early or late, got '" + value + "'");
            };
        }
    }

    /**
     * What to build.
     *
     * @param operation     the ClaimServices operation (CLAIMS and CLAIMS_V2; PARTNER is always createClaim)
     * @param requestBytes  the size of the whole envelope to aim at (it ends within one repeated element below)
     * @param responseBytes the size the back end is asked to answer with (responseSize / ReplySize)
     * @param region        the routing field's value, or null for no routing field
     * @param password      the credentials' password, or null for no credentials
     * @param policyNumber  the policy (its prefix selects the back end's test hooks)
     */
    public record Spec(String operation, Dialect dialect, int requestBytes, int responseBytes, String region,
                       RoutingPosition position, String password, String policyNumber, long seed) {
        public Spec {
            if (dialect == Dialect.PARTNER && !ClaimsContract.CREATE_CLAIM.equals(operation)) {
                throw new IllegalArgumentException("the partner schema has first notice of loss (createClaim) only");
            }
        }

        public static Spec of(String operation, Dialect dialect, int requestBytes, int responseBytes) {
            return new Spec(operation, dialect, requestBytes, responseBytes, null, RoutingPosition.EARLY, null,
                    "POL-2024-004711", 42L);
        }

        public Spec withRegion(String r, RoutingPosition p) {
            return new Spec(operation, dialect, requestBytes, responseBytes, r, p, password, policyNumber, seed);
        }

        public Spec withPassword(String p) {
            return new Spec(operation, dialect, requestBytes, responseBytes, region, position, p, policyNumber, seed);
        }

        public Spec withPolicy(String p) {
            return new Spec(operation, dialect, requestBytes, responseBytes, region, position, password, p, seed);
        }

        public Spec withSeed(long s) {
            return new Spec(operation, dialect, requestBytes, responseBytes, region, position, password, policyNumber, s);
        }
    }

    /**
     * A built request: the envelope around the id slot, and what it holds (for the response checks).
     *
     * @param before    envelope text before the id slot
     * @param after     envelope text after the id slot
     * @param lines     claim lines (damage items) sent
     * @param notes     notes (remarks) sent
     * @param messageId PARTNER only: the message id that reaches the back end as requestId (the slot holds the
     *                  tracking reference, which must not reach it)
     */
    public record Request(Spec spec, String before, String after, int lines, int notes, String channel,
                          String messageId) {
        public String withId(long id) {
            return before + id(id) + after;
        }

        public int length() {
            return before.length() + ID_WIDTH + after.length();
        }
    }

    private static final String[] PARTS = {"BMP-FR", "BMP-RR", "HDL-LH", "HDL-RH", "DOR-FL", "DOR-FR", "WSH-FR",
            "MIR-LH", "FND-FR", "RAD-CL", "GRL-FR", "HOD-01", "TRK-LD", "WHL-AL", "SUS-FL"};
    private static final String[] DESCRIPTIONS = {"Front bumper cover, replace and refinish",
            "Rear bumper reinforcement, repair", "Headlamp assembly left, replace", "Headlamp assembly right, replace",
            "Front door shell left, repair dent and blend", "Front door shell right, replace moulding",
            "Windscreen, replace with OEM glass and recalibrate camera", "Exterior mirror left, replace glass",
            "Front fender, pull and refinish", "Radiator core support, straighten", "Radiator grille, replace",
            "Bonnet, repair crease and refinish", "Boot lid, realign hinges", "Alloy wheel front left, refurbish",
            "Front left suspension arm, replace and align"};
    private static final String[] NOTE_TEXTS = {
            "Customer reports low speed collision in a supermarket car park, no injuries, other party insured.",
            "Photos received from the customer app, damage consistent with the reported circumstances.",
            "Vehicle inspected at the approved shop, estimate agreed with the body shop manager.",
            "Police report not required; third party details verified against the insurer database.",
            "Hire car authorised for up to seven days while repairs are carried out.",
            "Supplement requested for hidden damage found after strip down, photos attached to the file."};
    private static final String[] NAMES = {"Maria Keller", "John Brennan", "Aiko Tanaka", "Pedro Alvarez",
            "Fatima Ndiaye", "Lars Olsen", "Chloe Martin", "Ravi Sharma"};
    private static final String[] MAKES = {"Volkswagen Golf", "Toyota Corolla", "Ford Focus", "Renault Clio",
            "Skoda Octavia", "Honda Civic"};

    private ClaimMessages() {
    }

    /** Writes {@code id} as the slot's zero-padded decimal digits. */
    public static String id(long id) {
        String digits = Long.toString(id);
        return "0".repeat(Math.max(0, ID_WIDTH - digits.length())) + digits;
    }

    public static Request build(Spec spec) {
        SplittableRandom random = new SplittableRandom(spec.seed());
        Content content = new Content(random);
        Request request = render(spec, content, 1, 1);
        // jump close to the size (line, line, note units), then step one element at a time
        int unit = render(spec, content, 3, 2).length() - request.length();
        int units = Math.max(0, (spec.requestBytes() - request.length()) / unit - 1);
        int lines = 1 + 2 * units;
        int notes = 1 + units;
        if (units > 0) {
            request = render(spec, content, lines, notes);
        }
        // add line, line, note, ... while the envelope stays within the requested size
        for (int step = 0; ; step++) {
            boolean line = step % 3 != 2;
            Request next = render(spec, content, lines + (line ? 1 : 0), notes + (line ? 0 : 1));
            if (next.length() > spec.requestBytes()) {
                return request;
            }
            request = next;
            if (line) {
                lines++;
            } else {
                notes++;
            }
        }
    }

    /** The text of repeated elements, drawn once per message so that re-rendering is repeatable. */
    private static final class Content {
        final String claimant;
        final String make;
        final String vin;
        final int start;
        final int year;

        Content(SplittableRandom random) {
            claimant = NAMES[random.nextInt(NAMES.length)];
            make = MAKES[random.nextInt(MAKES.length)];
            StringBuilder v = new StringBuilder("WVW");
            for (int i = 0; i < 14; i++) {
                v.append("ABCDEFGHJKLMNPRSTUVWXYZ0123456789".charAt(random.nextInt(33)));
            }
            vin = v.toString();
            start = random.nextInt(1000);
            year = 2012 + random.nextInt(12);
        }

        String part(int i) {
            return PARTS[(start + i) % PARTS.length] + "-" + String.format(Locale.ROOT, "%04d", (start * 7 + i) % 10000);
        }

        String description(int i) {
            return DESCRIPTIONS[(start + i) % DESCRIPTIONS.length];
        }

        String hours(int i) {
            return String.format(Locale.ROOT, "%.1f", 0.5 + ((start + i * 3) % 16) * 0.5);
        }

        String amount(int i) {
            return String.format(Locale.ROOT, "%.2f", 35 + ((start + i * 37) % 1200) * 1.25);
        }

        String noteText(int i) {
            return NOTE_TEXTS[(start + i) % NOTE_TEXTS.length];
        }

        String author(int i) {
            return "adjuster-" + String.format(Locale.ROOT, "%03d", (start + i * 11) % 200);
        }

        String written(int i) {
            return String.format(Locale.ROOT, "2024-03-%02dT%02d:%02d:00Z", 14 + i % 14, 8 + i % 10, (i * 7) % 60);
        }
    }

    private static Request render(Spec spec, Content c, int lines, int notes) {
        return spec.dialect() == Dialect.PARTNER ? renderPartner(spec, c, lines, notes) : renderClaims(spec, c, lines, notes);
    }

    private static final String ENVELOPE_START = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<soap:Envelope xmlns:soap=\"" + ClaimsContract.SOAP11_NS + "\"><soap:Body>";
    private static final String ENVELOPE_END = "</soap:Body></soap:Envelope>";

    private static Request renderClaims(Spec spec, Content c, int lines, int notes) {
        Dialect d = spec.dialect();
        String p = d.prefix + ":";
        String op = spec.operation();
        String channel = "web";
        StringBuilder b = new StringBuilder(spec.requestBytes() + 256);
        b.append(ENVELOPE_START).append('<').append(p).append(op).append(" xmlns:").append(d.prefix).append("=\"")
                .append(d.namespace).append("\">");
        b.append('<').append(p).append("requestId>");
        String before = b.toString();
        b.setLength(0);
        b.append("</").append(p).append("requestId>");
        if (spec.password() != null) {
            b.append('<').append(p).append("credentials><").append(p).append("user>agent-0042</").append(p).append("user><")
                    .append(p).append("password>").append(spec.password()).append("</").append(p).append("password></")
                    .append(p).append("credentials>");
        }
        if (spec.region() != null && spec.position() == RoutingPosition.EARLY) {
            el(b, p, "region", spec.region());
        }
        el(b, p, "channel", channel);
        el(b, p, "responseSize", Integer.toString(spec.responseBytes()));
        b.append('<').append(p).append("claim>");
        el(b, p, d.policyElement, spec.policyNumber());
        b.append('<').append(p).append("claimant>");
        el(b, p, "name", c.claimant);
        el(b, p, "phone", "+44 20 7946 0" + String.format(Locale.ROOT, "%03d", c.start));
        el(b, p, "email", c.claimant.toLowerCase(Locale.ROOT).replace(' ', '.') + "@example.org");
        b.append("</").append(p).append("claimant><").append(p).append("vehicle>");
        el(b, p, "vin", c.vin);
        el(b, p, "model", c.make);
        el(b, p, "year", Integer.toString(c.year));
        b.append("</").append(p).append("vehicle>");
        el(b, p, "lossDate", "2024-03-1" + (c.start % 10));
        b.append('<').append(p).append("lines>");
        for (int i = 0; i < lines; i++) {
            b.append('<').append(p).append("line>");
            el(b, p, "lineNo", Integer.toString(i + 1));
            el(b, p, "partCode", c.part(i));
            el(b, p, "description", c.description(i));
            el(b, p, "labourHours", c.hours(i));
            b.append('<').append(p).append("amount currency=\"EUR\">").append(c.amount(i)).append("</").append(p).append("amount>");
            b.append("</").append(p).append("line>");
        }
        b.append("</").append(p).append("lines><").append(p).append("notes>");
        for (int i = 0; i < notes; i++) {
            b.append('<').append(p).append("note>");
            el(b, p, "author", c.author(i));
            el(b, p, "written", c.written(i));
            el(b, p, "text", c.noteText(i));
            b.append("</").append(p).append("note>");
        }
        b.append("</").append(p).append("notes></").append(p).append("claim>");
        if (spec.region() != null && spec.position() == RoutingPosition.LATE) {
            el(b, p, "region", spec.region());
        }
        b.append("</").append(p).append(op).append('>').append(ENVELOPE_END);
        return new Request(spec, before, b.toString(), lines, notes, channel, null);
    }

    private static Request renderPartner(Spec spec, Content c, int lines, int notes) {
        String messageId = "MSG-" + String.format(Locale.ROOT, "%08d", c.start * 7919L % 100_000_000L);
        StringBuilder b = new StringBuilder(spec.requestBytes() + 256);
        b.append(ENVELOPE_START).append("<fn:FirstNoticeOfLoss xmlns:fn=\"").append(ClaimsContract.PARTNER_NS)
                .append("\"><fn:Header><fn:TrackingRef>");
        String before = b.toString();
        b.setLength(0);
        b.append("</fn:TrackingRef><fn:MessageId>").append(messageId).append("</fn:MessageId>")
                .append("<fn:Partner>broker-17</fn:Partner><fn:ReplySize>").append(spec.responseBytes())
                .append("</fn:ReplySize></fn:Header>");
        b.append("<fn:Policy id=\"").append(spec.policyNumber()).append("\"/>");
        b.append("<fn:Driver fullName=\"").append(c.claimant).append("\" phone=\"+44 20 7946 0")
                .append(String.format(Locale.ROOT, "%03d", c.start)).append("\" email=\"")
                .append(c.claimant.toLowerCase(Locale.ROOT).replace(' ', '.')).append("@example.org\"/>");
        b.append("<fn:Car vin=\"").append(c.vin).append("\" model=\"").append(c.make).append("\" year=\"")
                .append(c.year).append("\"/>");
        b.append("<fn:Incident date=\"2024-03-1").append(c.start % 10).append("\"/>");
        b.append("<fn:Damage>");
        for (int i = 0; i < lines; i++) {
            b.append("<fn:Item seq=\"").append(i + 1).append("\" part=\"").append(c.part(i)).append("\" hours=\"")
                    .append(c.hours(i)).append("\" cost=\"").append(c.amount(i)).append("\" currency=\"EUR\">")
                    .append(c.description(i)).append("</fn:Item>");
        }
        b.append("</fn:Damage><fn:Remarks>");
        for (int i = 0; i < notes; i++) {
            b.append("<fn:Remark by=\"").append(c.author(i)).append("\" time=\"").append(c.written(i)).append("\">")
                    .append(c.noteText(i)).append("</fn:Remark>");
        }
        b.append("</fn:Remarks></fn:FirstNoticeOfLoss>").append(ENVELOPE_END);
        return new Request(spec, before, b.toString(), lines, notes, "partner:broker-17", messageId);
    }

    private static void el(StringBuilder b, String p, String name, String value) {
        b.append('<').append(p).append(name).append('>').append(value).append("</").append(p).append(name).append('>');
    }
}
