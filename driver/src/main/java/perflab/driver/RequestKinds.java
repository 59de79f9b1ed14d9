package perflab.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * The request kinds of a run, each with an index into the loops' per-kind statistics: the traffic's
 * {@code requestKinds()} in its order, then {@link #NONE} for failures that had no request (an open-model request
 * that timed out in the queue before the traffic chose it) and for kinds the traffic did not list, so that the
 * kinds always add up to the totals. Immutable.
 */
final class RequestKinds {
    static final String NONE = "(none)";

    private final List<String> names;

    RequestKinds(List<String> listed) {
        List<String> n = new ArrayList<>();
        for (String k : listed) {
            if (!n.contains(k) && !NONE.equals(k)) {
                n.add(k);
            }
        }
        n.add(NONE);
        this.names = List.copyOf(n);
    }

    int size() {
        return names.size();
    }

    String name(int index) {
        return names.get(index);
    }

    /** The index of a kind; {@link #none()} for one the traffic did not list. Not on the hot path (once per template). */
    int indexOf(String kind) {
        int i = names.indexOf(kind);
        return i < 0 ? none() : i;
    }

    int none() {
        return names.size() - 1;
    }
}
