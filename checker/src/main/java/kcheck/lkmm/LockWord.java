package kcheck.lkmm;

import java.util.List;

import kcheck.model.rqlock.RqSpinlock;

/** The lock word as one LKMM location: its fields packed in {@link RqSpinlock.Shape} order, the first in the low bits. */
final class LockWord {
    static final String LOC = "lock";

    private LockWord() {
    }

    static int offset(List<RqSpinlock.Field> fields, int f) {
        int off = 0;
        for (int i = 0; i < f; i++) {
            off += fields.get(i).bits();
        }
        return off;
    }
}
