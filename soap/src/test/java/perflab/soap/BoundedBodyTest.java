package perflab.soap;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BoundedBodyTest {
    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void anOversizedBodyIsDrainedBeforeTheFaultSoItsSenderIsNotReset() {
        ByteArrayInputStream declared = new ByteArrayInputStream(bytes(300_000));
        SoapFault f = assertThrows(SoapFault.class, () -> BoundedBody.read(declared, 300_000, 100_000));
        assertTrue(f.reason().startsWith("request body exceeds the limit of 100000 bytes"), f.reason());
        assertEquals(0, declared.available(), "the rest of the body was read and discarded");

        ByteArrayInputStream chunked = new ByteArrayInputStream(bytes(300_000));
        assertThrows(SoapFault.class, () -> BoundedBody.read(chunked, -1, 100_000));
        assertEquals(0, chunked.available());

        // beyond the allowance the connection is given up rather than read for ever
        ByteArrayInputStream huge = new ByteArrayInputStream(new byte[(int) BoundedBody.DRAIN_LIMIT + 1000]);
        assertThrows(SoapFault.class, () -> BoundedBody.read(huge, BoundedBody.DRAIN_LIMIT + 1000, 100_000));
        assertEquals(1000, huge.available());
    }

    @Test
    void readsAChunkedBodyUpToTheLimit() throws Exception {
        byte[] data = bytes(100_000);
        BoundedBody body = BoundedBody.read(new ByteArrayInputStream(data), -1, 100_000);
        assertEquals(100_000, body.length());
        assertArrayEquals(data, java.util.Arrays.copyOf(body.array(), body.length()));
    }

    @Test
    void readsADeclaredBody() throws Exception {
        BoundedBody body = BoundedBody.read(new ByteArrayInputStream(bytes(10)), 10, 100);
        assertEquals(10, body.length());
    }

    @Test
    void refusesADeclaredLengthOverTheLimitWithoutReading() {
        SoapFault fault = assertThrows(SoapFault.class,
                () -> BoundedBody.read(new ByteArrayInputStream(new byte[0]), 1_000_000, 1000));
        assertTrue(fault.reason().contains("exceeds"), fault.reason());
    }

    @Test
    void refusesAnUndeclaredBodyOverTheLimit() {
        SoapFault fault = assertThrows(SoapFault.class,
                () -> BoundedBody.read(new ByteArrayInputStream(bytes(1001)), -1, 1000));
        assertEquals(SoapFault.Code.CLIENT, fault.code());
    }
}
