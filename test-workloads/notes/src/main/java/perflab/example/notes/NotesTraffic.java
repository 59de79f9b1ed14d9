package perflab.example.notes;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.WeightedMix;

import java.time.Duration;
import java.util.List;

/** The notes scenario's request templates, encoded once, and the page mix every user follows. */
final class NotesTraffic implements Traffic {
    static final String LOGIN = "login";
    static final String LIST = "list";
    static final String VIEW = "view";
    static final String ADD = "add";
    private static final String FORM = "application/x-www-form-urlencoded";

    final RequestTemplate login = RequestTemplate.builder(LOGIN, "POST").path("/login")
            .header("Content-Type", FORM).body("user=${user}&password=" + NotesApp.PASSWORD).build();
    final RequestTemplate list = RequestTemplate.builder(LIST, "GET").path("/notes")
            .header("Cookie", "${cookie}").build();
    final RequestTemplate view = RequestTemplate.builder(VIEW, "GET").path("/notes/${note}")
            .header("Cookie", "${cookie}").build();
    final RequestTemplate add = RequestTemplate.builder(ADD, "POST").path("/notes")
            .header("Content-Type", FORM).header("Cookie", "${cookie}").body("csrf=${csrf}&text=${text}").build();
    final WeightedMix<String> mix;
    final Duration readingTime;

    NotesTraffic(int addShare, Duration readingTime) {
        WeightedMix.Builder<String> b = WeightedMix.<String>builder()
                .add(LIST, (100 - addShare) / 3.0).add(VIEW, 2 * (100 - addShare) / 3.0);
        if (addShare > 0) {
            b.add(ADD, addShare);
        }
        this.mix = b.build();
        this.readingTime = readingTime;
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        return new NotesSession(this, context);
    }

    @Override
    public List<String> requestKinds() {
        return List.of(LOGIN, LIST, VIEW, ADD);
    }
}
