package perflab.voicemail;

/** One user's visit: who, and the HTTP session's cookie once the page set it. */
final class Visit {
    final UsersFile.User user;
    /** {@code VMSESSION=...}, as the Cookie header sends it; null until the page answered. */
    byte[] cookie;

    Visit(UsersFile.User user) {
        this.user = user;
    }
}
