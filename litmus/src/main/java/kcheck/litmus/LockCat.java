package kcheck.litmus;

import java.util.ArrayList;
import java.util.List;

/**
 * lock.cat: spinlock events as reads and writes. Its axioms that depend on program order only
 * ({@code lock-nest}, {@code nested-is-locked}, {@code unmatched-locks}), the {@code critical} relation
 * (each LKW to its UL), the rf choices of LF/RL ({@code rfi-lf}, {@code rfe-lf}) and RU ({@code rf-ru}) events,
 * the constraint on co generation ({@code co0}: an unmatched LKW is co-last), the merge of UL events into
 * co, and each LKR's rf from the IW or UL co-immediately before its LKW.
 */
final class LockCat {
    private LockCat() {
    }

    /** {@code critical = ([LKW] ; po-loc ; [UL]) \ (po-loc ; [LKW | UL] ; po-loc)}. */
    static Rel critical(Skeleton s) {
        Rel between = s.poLoc.to(s.lkw.or(s.ul)).seq(s.poLoc);
        return s.poLoc.restrict(s.lkw, s.ul).minus(between);
    }

    /** {@code UNMATCHED-LKW = LKW \ domain(critical)}. */
    static Bits unmatched(Skeleton s, Rel critical) {
        return s.lkw.andNot(critical.domain());
    }

    /** The axioms lock-nest, nested-is-locked and unmatched-locks, which need no rf or co. */
    static boolean programOrderAxiomsHold(Skeleton s, Rel critical) {
        Rel released = s.poLoc.to(s.ul).seq(s.poLoc);
        if (!s.poLoc.restrict(s.lkw, s.lkr).minus(released).isEmpty()) {
            return false;
        }
        if (!s.poLoc.restrict(s.lkw, s.ru).minus(released).isEmpty()) {
            return false;
        }
        Bits un = unmatched(s, critical);
        Rel pairs = s.loc.restrict(un, un).minus(Rel.identity(s.n, s.all));
        return pairs.isEmpty();
    }

    /** The writes an LF/RL ({@code rf-lf}) or RU ({@code rf-ru}) event {@code e} may read from. */
    static List<Integer> lockReadSources(Skeleton s, int e) {
        List<Integer> out = new ArrayList<>();
        Bits self = Bits.of(e);
        if (s.lf.has(e)) {
            Rel rfiLf = s.poLoc.restrict(s.lkw, self).minus(s.poLoc.restrict(s.lkw, s.ul).seq(s.poLoc));
            Bits inside = rfiLf.inverse().row(e);
            if (!inside.isEmpty()) {
                out.add(inside.first());
                return out;
            }
            for (int j = 0; j < s.n; j++) {
                if (s.lkw.has(j) && s.loc.has(j, e) && s.ext.has(j, e)) {
                    out.add(j);
                }
            }
            return out;
        }
        Rel internal = s.poLoc.restrict(s.ul, self).minus(s.poLoc.restrict(s.ul, s.ul).seq(s.poLoc));
        Bits in = internal.inverse().row(e);
        if (!in.isEmpty()) {
            out.add(in.first());
        }
        for (int j = 0; j < s.n; j++) {
            if ((s.ul.has(j) || s.iw.has(j)) && s.loc.has(j, e) && s.ext.has(j, e)) {
                out.add(j);
            }
        }
        return out;
    }

    /** {@code co = (co | critical | (critical^-1 ; co))+}: each UL right after its LKW. */
    static Rel mergeUnlocks(Rel co, Rel critical) {
        return co.union(critical).union(critical.inverse().seq(co)).plus();
    }

    /** {@code rf |= [IW | UL] ; singlestep(co) ; lk-rmw^-1}: what each LKR reads. */
    static Rel lockReads(Skeleton s, Rel co) {
        return co.immediate().from(s.iw.or(s.ul)).seq(s.lkRmw.inverse());
    }
}
