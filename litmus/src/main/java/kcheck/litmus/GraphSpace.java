package kcheck.litmus;

import java.util.List;
import java.util.Map;

import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Part;

/** The locations a {@link GraphSearch} knows: their names, parts and initial values. */
final class GraphSpace {
    final List<String> locations;
    /** Per location, its parts (none: one LKMM location). */
    final List<List<Part>> parts;
    final Map<String, Long> init;

    GraphSpace(List<String> locations, List<List<Part>> parts, Map<String, Long> init) {
        this.locations = locations;
        this.parts = parts;
        this.init = init;
    }

    int locId(String loc) {
        int l = locations.indexOf(loc);
        if (l < 0) {
            throw new IllegalStateException("location " + loc + " was not declared to the search");
        }
        return l;
    }

    /** The whole value of the write {@code code} (an initial write's: the initial value). */
    long value(SearchGraph g, int code) {
        if (code < 0) {
            return init.getOrDefault(locations.get(-code - 1), 0L);
        }
        return g.access(code).value();
    }

    Access access(SearchGraph g, int code) {
        return g.access(code);
    }
}
