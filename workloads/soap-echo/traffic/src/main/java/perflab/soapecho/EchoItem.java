package perflab.soapecho;

import java.math.BigDecimal;
import java.time.OffsetDateTime;

/**
 * One NestedComplexType item the traffic sends, with the values a correct server must echo.
 * {@code varUnsignedLong} is an unsigned Java long; the QName is given by its namespace and local part.
 */
record EchoItem(String varString, int varUByte, long varUnsignedLong, float varFloat, String varQNameNamespace,
                String varQNameLocalPart, byte[] varBase64Binary, byte[] varHexBinary, Struct varStruct,
                String varEnum) {

    /** The item's SimpleStruct. */
    record Struct(float varFloat, short varShort, String varString, byte varByte, BigDecimal varDecimal,
                  double varDouble, OffsetDateTime varDateTime, String varAttrString) {
    }
}
