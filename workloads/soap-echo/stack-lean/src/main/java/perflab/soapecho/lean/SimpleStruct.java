package perflab.soapecho.lean;

import javax.xml.datatype.XMLGregorianCalendar;
import java.math.BigDecimal;

/** The contract's SimpleStruct, as a JAX-WS stack would bind it. */
record SimpleStruct(float varFloat, short varShort, String varString, byte varByte, BigDecimal varDecimal,
                    double varDouble, XMLGregorianCalendar varDateTime, String varAttrString) {
}
