package kcheck.litmus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values each shared location can hold: its initial value and every value some path of some thread
 * writes to it. Grown to a fixpoint by {@link Candidates} (each round runs the threads with the values
 * found so far), as herd7 does; a value no write of an execution produces is later refused by rf's
 * value check.
 */
final class ValueDomains {
    private final Map<String, Val> init;
    private final Map<String, Set<Val>> values = new HashMap<>();

    ValueDomains(Map<String, Val> init) {
        this.init = init;
    }

    List<Val> values(String loc) {
        Set<Val> s = values.get(loc);
        if (s == null) {
            return List.of(initial(loc));
        }
        return new ArrayList<>(s);
    }

    Val initial(String loc) {
        return init.getOrDefault(loc, Val.ZERO);
    }

    /** Adds every value the paths write (lock events excepted); true if something was new. */
    boolean addWrites(List<List<ThreadPath>> paths) {
        boolean grew = false;
        for (List<ThreadPath> thread : paths) {
            for (ThreadPath p : thread) {
                grew |= addWrites(p.events());
            }
        }
        return grew;
    }

    /** Adds every value these events write (lock events excepted); true if something was new. */
    boolean addWrites(Iterable<Event> events) {
        boolean grew = false;
        for (Event e : events) {
            if (e.kind == Event.Kind.W && !e.isLockOp()) {
                Set<Val> s = values.computeIfAbsent(e.loc, l -> new LinkedHashSet<>(List.of(initial(l))));
                grew |= s.add(e.value);
            }
        }
        return grew;
    }
}
