package perflab.trade;

import perflab.core.traffic.Request;
import perflab.core.traffic.UrlEncoding;

import java.util.SplittableRandom;

/**
 * Profile values in the shape of DayTrader's population (full name "first:N last:M", address "N Oak St.", e-mail
 * from the user id, a card number of four groups), for a new user's registration and a profile update. Every value
 * is plain ASCII that HTML shows unescaped, so a page's copy of it is found by a byte search.
 */
final class RandomProfile {
    static final String FULL_NAME = "fullname";
    static final String ADDRESS = "address";
    static final String EMAIL = "email";
    static final String CREDIT_CARD = "creditcard";

    private RandomProfile() {
    }

    /** Sets the four profile slots of {@code request}; returns the full name, which the pages show. */
    static String fill(Request request, SplittableRandom random, String userId) {
        String fullName = "first:" + random.nextInt(1000) + " last:" + random.nextInt(5000);
        request.set(FULL_NAME, UrlEncoding.formValue(fullName))
                .set(ADDRESS, UrlEncoding.formValue(random.nextInt(1000) + " Oak St."))
                .set(EMAIL, UrlEncoding.formValue(userId.replace(":", "") + "@" + random.nextInt(100) + ".com"))
                .set(CREDIT_CARD, UrlEncoding.formValue(random.nextInt(100) + "-" + random.nextInt(1000) + "-"
                        + random.nextInt(1000) + "-" + random.nextInt(1000)));
        return fullName;
    }
}
