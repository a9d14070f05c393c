package kcheck.model.rwsem;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Property;

/** An rwsem-owner model's layout, monitors and properties, for unit tests on real and hand-built states. */
final class RwsemRig {
    final RwsemOwnerModel model;
    final RwsemLayout l;
    final RwsemMonitors monitors;
    final RwsemProperties props;

    RwsemRig(String variant, Set<String> selected, String... params) {
        Map<String, String> p = new HashMap<>();
        p.put("rounds", "1");
        for (int i = 0; i < params.length; i += 2) {
            p.put(params[i], params[i + 1]);
        }
        RwsemOwnerFactory f = new RwsemOwnerFactory();
        this.model = (RwsemOwnerModel) f.create(variant, f.params(p), selected);
        this.l = model.layout();
        this.monitors = new RwsemMonitors(l);
        this.props = new RwsemProperties(l, new RwsemDecoder(l));
    }

    Property property(String id) {
        return props.build(Set.of(id)).get(0);
    }

    /** The initial state. */
    long[] initial() {
        long[] s = new long[l.width];
        for (int t = 0; t < l.n; t++) {
            l.pc[t].set(s, l.prog[t].root);
        }
        return s;
    }

    /** Every reachable state (not canonicalized). */
    List<long[]> reachable() {
        List<long[]> out = new ArrayList<>();
        Set<List<Long>> seen = new HashSet<>();
        ArrayDeque<long[]> todo = new ArrayDeque<>();
        long[] init = initial();
        seen.add(key(init));
        todo.add(init);
        while (!todo.isEmpty()) {
            long[] s = todo.poll();
            out.add(s);
            model.successors(s, (actor, action, next) -> {
                if (seen.add(key(next))) {
                    todo.add(next.clone());
                }
            });
        }
        return out;
    }

    private static List<Long> key(long[] s) {
        return Arrays.stream(s).boxed().toList();
    }

    /** A program node of task {@code t} with attribute {@code attr}. */
    int nodeWith(int t, int attr) {
        for (int p = 0; p < l.prog[t].size; p++) {
            if (l.prog[t].has(p, attr)) {
                return p;
            }
        }
        throw new AssertionError("no node with attribute " + attr);
    }

    /** A program node of task {@code t} whose op is {@code op}. */
    int nodeOf(int t, Op op) {
        for (int p = 0; p < l.prog[t].size; p++) {
            if (l.prog[t].op[p] == op) {
                return p;
            }
        }
        throw new AssertionError("no node " + op);
    }

    /** Sets {@code count} to the index of the first encoded value {@code ok} accepts. */
    void setCount(long[] s, java.util.function.LongPredicate ok) {
        for (int i = 0; i < l.dom.countSize(); i++) {
            if (ok.test(l.dom.countValue(i))) {
                l.count.set(s, i);
                return;
            }
        }
        throw new AssertionError("no such count");
    }
}
