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

    /** {@code locked=1 pending=0 tail=2} for a packed word. */
    static String describe(List<RqSpinlock.Field> fields, long w) {
        StringBuilder b = new StringBuilder();
        for (int f = 0; f < fields.size(); f++) {
            long v = w >> offset(fields, f) & ((1L << fields.get(f).bits()) - 1);
            b.append(f == 0 ? "" : " ").append(fields.get(f).name()).append('=').append(v);
        }
        return b.toString();
    }
}
