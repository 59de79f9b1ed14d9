package perflab.soap;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoapAdmissionTest {
    private static final String ENVELOPE = "<s:Envelope xmlns:s='" + SoapEnvelopeReader.SOAP11_NS + "'><s:Body>"
            + "<p:echo xmlns:p='urn:p'>x</p:echo></s:Body></s:Envelope>";
    private final SoapAdmission admission = new SoapAdmission(4096);

    private static ByteArrayInputStream stream(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void admitsAPostWithinTheLimitAndOpensItsEnvelope() throws Exception {
        BoundedBody body = admission.admit("POST", stream(ENVELOPE), -1);
        try (SoapEnvelopeReader.Envelope envelope = admission.envelopes().open(body.array(), body.length())) {
            assertEquals("echo", envelope.payloadName().getLocalPart());
        }
        assertEquals(ENVELOPE.length(), admission.admit(null, stream(ENVELOPE), ENVELOPE.length()).length());
    }

    @Test
    void refusesOtherMethodsBeforeReadingAnything() {
        ByteArrayInputStream in = stream(ENVELOPE);
        SoapFault fault = assertThrows(SoapFault.class, () -> admission.admit("PUT", in, -1));
        assertEquals("PUT is not supported here: POST a SOAP 1.1 envelope", fault.reason());
        assertEquals(ENVELOPE.length(), in.available());
    }

    @Test
    void anOversizedBodyClosesTheConnection() {
        SoapFault fault = assertThrows(SoapFault.class, () -> admission.admit("POST", stream("x".repeat(5000)), -1));
        assertEquals(SoapFault.Code.CLIENT, fault.code());
        assertTrue(SoapAdmission.closesConnection(fault), fault.reason());
    }

    @Test
    void hostileEnvelopesAreRefusedByTheHardenedReader() throws Exception {
        String bomb = "<!DOCTYPE s [<!ENTITY a 'aaaa'><!ENTITY b '&a;&a;&a;&a;'>]>" + ENVELOPE.replace(">x<", ">&b;<");
        BoundedBody body = admission.admit("POST", stream(bomb), -1);
        SoapFault fault = assertThrows(SoapFault.class, () -> admission.envelopes().open(body.array(), body.length()));
        assertEquals(SoapFault.Code.CLIENT, fault.code());
        assertFalse(SoapAdmission.closesConnection(fault), "the body was read to its end: the connection goes on");
    }

    @Test
    void failuresBecomeFaultsThatSayWhetherTheConnectionCloses() {
        SoapFault own = SoapFault.client("unknown operation");
        assertEquals(own, SoapAdmission.asFault(own));
        assertFalse(SoapAdmission.closesConnection(own));

        SoapFault unreadable = SoapAdmission.asFault(new IOException("reset"));
        assertEquals("could not read the request body: reset", unreadable.reason());
        assertEquals(SoapFault.Code.CLIENT, unreadable.code());
        assertTrue(SoapAdmission.closesConnection(unreadable));

        SoapFault internal = SoapAdmission.asFault(new IllegalStateException("bug"));
        assertEquals("internal error: IllegalStateException", internal.reason());
        assertEquals(SoapFault.Code.SERVER, internal.code());
        assertTrue(SoapAdmission.closesConnection(internal));
    }
}
