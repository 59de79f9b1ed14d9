package perflab.trade.lean.jpa;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Instants in the TIMESTAMP (without time zone) columns as UTC, as the JDBC mode writes them (its UtcTime). Left to
 * itself Hibernate maps an Instant to TIMESTAMP WITH TIME ZONE, which the schema does not have, and would shift
 * DayTrader's epoch-0 in-flight marker by the JVM's zone.
 */
@Converter(autoApply = true)
public class UtcTimestamps implements AttributeConverter<Instant, LocalDateTime> {
    @Override
    public LocalDateTime convertToDatabaseColumn(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public Instant convertToEntityAttribute(LocalDateTime time) {
        return time == null ? null : time.toInstant(ZoneOffset.UTC);
    }
}
