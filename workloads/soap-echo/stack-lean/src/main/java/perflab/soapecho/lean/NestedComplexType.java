package perflab.soapecho.lean;

import javax.xml.namespace.QName;

/**
 * The contract's NestedComplexType. {@code varUnsignedLong} holds the full xs:unsignedLong range as an
 * unsigned Java long.
 */
record NestedComplexType(String varString, short varUByte, long varUnsignedLong, float varFloat, QName varQName,
                         byte[] varBase64Binary, byte[] varHexBinary, SimpleStruct varStruct, Colour varEnum) {
}
