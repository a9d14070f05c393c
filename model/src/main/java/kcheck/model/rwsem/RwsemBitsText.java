package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

/** Short forms of rwsem.c (v5.3+) count deltas and masks for traces, e.g. {@code += READER_BIAS - WAITERS}. */
final class RwsemBitsText {
    private RwsemBitsText() {
    }

    /** The bit names of a count mask, e.g. {@code WAITERS|HANDOFF}. */
    static String countMask(long mask) {
        List<String> parts = new ArrayList<>();
        int r = (int) (mask >> RwsemBits.RWSEM_READER_SHIFT);
        if (mask == RwsemBits.RWSEM_READER_MASK) {
            parts.add("READER_MASK");
        } else if (r != 0) {
            parts.add(r == 1 ? "READER_BIAS" : r + "*READER_BIAS");
        }
        if ((mask & RwsemBits.RWSEM_WRITER_LOCKED) != 0) {
            parts.add("WRITER_LOCKED");
        }
        if ((mask & RwsemBits.RWSEM_FLAG_WAITERS) != 0) {
            parts.add("WAITERS");
        }
        if ((mask & RwsemBits.RWSEM_FLAG_HANDOFF) != 0) {
            parts.add("HANDOFF");
        }
        return parts.isEmpty() ? "0" : String.join("|", parts);
    }

    /** A count delta as {@code += ...} or {@code -= ...} in READER_BIAS units and flag bits. */
    static String signed(long delta) {
        long r = Math.round((double) delta / RwsemBits.RWSEM_READER_BIAS);
        long low = delta - r * RwsemBits.RWSEM_READER_BIAS;
        boolean negative = r < 0 || (r == 0 && low < 0);
        long rr = negative ? -r : r;
        long ll = negative ? -low : low;
        StringBuilder b = new StringBuilder(negative ? "-= " : "+= ");
        boolean first = true;
        if (rr != 0) {
            b.append(rr == 1 ? "READER_BIAS" : rr + "*READER_BIAS");
            first = false;
        }
        if (ll != 0) {
            if (!first) {
                b.append(ll > 0 ? " + " : " - ");
            }
            b.append(countMask(Math.abs(ll)));
        }
        if (rr == 0 && ll == 0) {
            b.append('0');
        }
        return b.toString();
    }
}
