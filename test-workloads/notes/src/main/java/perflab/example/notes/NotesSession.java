package perflab.example.notes;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.CookieJar;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.HtmlExtract;
import perflab.core.traffic.Request;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.UrlEncoding;
import perflab.core.traffic.Verdict;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * One user: logs in first (and again when the session is lost), lists the notes to learn the form's CSRF token
 * and the latest note's id, then follows the mix: a read carries an id from an earlier page, an add the token.
 */
final class NotesSession implements ClientSession {
    private static final byte[] TABLE = "<table>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOTE = "id=\"note\"".getBytes(StandardCharsets.US_ASCII);

    private final NotesTraffic traffic;
    private final SplittableRandom random;
    private final CookieJar cookies = new CookieJar();
    private final Request login;
    private final Request list;
    private final Request view;
    private final Request add;
    private boolean loggedIn;
    private byte[] csrf;
    private long latestNote = -1;
    private long notesAdded;
    private final String user;

    NotesSession(NotesTraffic traffic, ClientContext context) {
        this.traffic = traffic;
        this.random = new SplittableRandom(context.seed());
        this.user = "user" + context.clientIndex();
        this.login = new Request(traffic.login).set("user", user);
        this.list = new Request(traffic.list);
        this.view = new Request(traffic.view).thinkTime(traffic.readingTime);
        this.add = new Request(traffic.add);
    }

    @Override
    public Request next() {
        if (!loggedIn) {
            return login;
        }
        String kind = csrf == null ? NotesTraffic.LIST : traffic.mix.pick(random);
        if (kind.equals(NotesTraffic.VIEW) && latestNote < 0) {
            kind = NotesTraffic.LIST; // nothing to read yet
        }
        byte[] cookie = cookies.header("/notes");
        return switch (kind) {
            case NotesTraffic.VIEW -> view.set("cookie", cookie).set("note", latestNote);
            case NotesTraffic.ADD -> add.set("cookie", cookie).set("csrf", csrf)
                    .set("text", UrlEncoding.formValue(user + " wrote note " + (++notesAdded) + " & more"));
            default -> list.set("cookie", cookie);
        };
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        String kind = request.template().kind();
        int status = response.status();
        if (status == 401 && !kind.equals(NotesTraffic.LOGIN)) {
            loggedIn = false; // the session is gone: log in again
            return Verdict.fail(ErrorKind.HTTP_STATUS, kind + ": 401, the session was lost");
        }
        switch (kind) {
            case NotesTraffic.LOGIN -> {
                if (status != 303) {
                    return Verdict.fail(ErrorKind.HTTP_STATUS, "login: status " + status + ", expected 303");
                }
                cookies.receive(response, "/login");
                if (cookies.value(NotesApp.SESSION_COOKIE) == null) {
                    return Verdict.fail(ErrorKind.VALIDATION, "login: no " + NotesApp.SESSION_COOKIE + " cookie");
                }
                loggedIn = true;
                csrf = null;
                return Verdict.OK;
            }
            case NotesTraffic.LIST -> {
                if (status != 200 || response.indexOf(TABLE, 0) < 0) {
                    return Verdict.fail(ErrorKind.HTTP_STATUS, "list: status " + status + " or no table");
                }
                String token = HtmlExtract.inputValue(response, "csrf");
                if (token == null) {
                    return Verdict.fail(ErrorKind.VALIDATION, "list: the page has no csrf token");
                }
                csrf = token.getBytes(StandardCharsets.US_ASCII);
                String latest = response.textBetween("<td class=\"id\">", "</td>", 20);
                if (latest != null) {
                    latestNote = Long.parseLong(latest);
                }
                return Verdict.OK;
            }
            case NotesTraffic.VIEW -> {
                if (status != 200 || response.indexOf(NOTE, 0) < 0) {
                    return Verdict.fail(ErrorKind.HTTP_STATUS, "view: status " + status + " or no note");
                }
                if (deep && !response.bodyText().contains("data-id=\"" + request.number(request.template().slot("note")) + "\"")) {
                    return Verdict.fail(ErrorKind.VALIDATION, "view: another note than the one asked for");
                }
                return Verdict.OK;
            }
            default -> {
                if (status != 201) {
                    return Verdict.fail(ErrorKind.HTTP_STATUS, "add: status " + status + ", expected 201");
                }
                String id = response.textBetween("<p id=\"created\">", "</p>", 20);
                if (id == null || !id.matches("\\d+")) {
                    return Verdict.fail(ErrorKind.VALIDATION, "add: no id of the created note");
                }
                latestNote = Long.parseLong(id); // carried into the next read
                return Verdict.OK;
            }
        }
    }

    @Override
    public void failed(Request request, ErrorKind kind) {
        if (request.template().kind().equals(NotesTraffic.LOGIN)) {
            loggedIn = false;
        }
    }
}
