package perflab.driver;

import perflab.core.traffic.Agenda;

/**
 * The open model's send times taken from traffic that paces itself ({@link Agenda}). A step that becomes due as a
 * response is handled (a user's next page) is released by the same client's {@code clientReady}, at once; one
 * scheduled from elsewhere is seen within {@link #MAX_SLEEP_NANOS}, which bounds how late it can go out.
 */
final class AgendaSchedule implements SendSchedule {
    static final long MAX_SLEEP_NANOS = 2_000_000;

    private final Agenda agenda;

    AgendaSchedule(Agenda agenda) {
        this.agenda = agenda;
    }

    @Override
    public long next() {
        return agenda.nextDue();
    }

    @Override
    public void advance() {
        agenda.release();
    }

    @Override
    public void expired() {
        agenda.expired();
    }

    @Override
    public long maxSleepNanos() {
        return MAX_SLEEP_NANOS;
    }
}
