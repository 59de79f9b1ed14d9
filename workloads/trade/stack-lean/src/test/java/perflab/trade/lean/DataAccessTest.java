package perflab.trade.lean;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataAccessTest {
    @Test
    void aModeIsNamedJdbcOrJpaInAnyCase() {
        assertEquals(DataAccess.JDBC, DataAccess.parse("jdbc"));
        assertEquals(DataAccess.JPA, DataAccess.parse(" JPA "));
        assertEquals("jpa", DataAccess.JPA.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DataAccess.parse("ejb"));
        assertTrue(e.getMessage().contains("use jdbc or jpa"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DataAccess.parse(null));
    }
}
