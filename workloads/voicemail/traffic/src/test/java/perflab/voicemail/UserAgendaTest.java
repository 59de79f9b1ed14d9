package perflab.voicemail;

import org.junit.jupiter.api.Test;
import perflab.core.workload.TrafficPart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class UserAgendaTest {
    private final UsersFile users = new UsersFile(100, 0.5, 1000, 3);

    @Test
    void usersArriveAtTheRateInFileOrder() {
        UserAgenda agenda = new UserAgenda(new UserRange(users, TrafficPart.WHOLE), 10, false, 1);
        agenda.start(1_000);
        for (int i = 0; i < 5; i++) {
            assertEquals(1_000 + i * 100_000_000L, agenda.nextDue());
            agenda.release();
            BrowserStep step = agenda.take();
            assertEquals(BrowserStep.Kind.PAGE, step.kind());
            assertEquals(users.user(i), step.visit().user);
        }
        assertEquals(5, agenda.arrivals());
    }

    @Test
    void aScheduledStepDueFirstGoesFirstAndReleasedStepsGoOutInOrder() {
        UserAgenda agenda = new UserAgenda(new UserRange(users, TrafficPart.WHOLE), 10, false, 1);
        agenda.start(0);
        agenda.release(); // user 0 at 0
        Visit v = agenda.take().visit();
        BrowserStep click = new BrowserStep(50_000_000, BrowserStep.Kind.CHECK, v);
        BrowserStep hangup = new BrowserStep(250_000_000, BrowserStep.Kind.HANGUP, v);
        agenda.schedule(hangup);
        agenda.schedule(click);
        assertEquals(50_000_000, agenda.nextDue());
        agenda.release();
        agenda.release(); // the arrival at 100 ms
        agenda.release(); // the arrival at 200 ms
        assertEquals(250_000_000, agenda.nextDue());
        agenda.release();
        assertSame(click, agenda.take());
        assertEquals(1, agenda.take().visit().user.index());
        agenda.expired(); // the arrival at 200 ms waited too long: dropped
        assertSame(hangup, agenda.take());
        assertEquals(1, agenda.dropped());
        assertThrows(IllegalStateException.class, agenda::take);
    }

    @Test
    void poissonArrivalsKeepTheMeanRate() {
        UserAgenda agenda = new UserAgenda(new UserRange(users, TrafficPart.WHOLE), 100, true, 9);
        agenda.start(0);
        for (int i = 0; i < 10_000; i++) {
            agenda.release();
            agenda.take();
        }
        double seconds = agenda.nextDue() / 1e9;
        assertEquals(100, 10_000 / seconds, 5);
    }
}
