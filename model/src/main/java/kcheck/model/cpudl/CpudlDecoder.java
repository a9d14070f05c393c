package kcheck.model.cpudl;

import java.util.List;

import kcheck.model.FieldSink;
import kcheck.model.StepInfo;

/**
 * What a cpudl state and step look like in a trace: step labels (the same in every variant, so a
 * counterexample replays on another one) with the kernel function each runs, and the named
 * fields of a state. See {@link #LEGEND} for the notation.
 */
final class CpudlDecoder {
    /** One line per notation of cpudl traces (printed by renderers and in docs/models/cpudl.md). */
    static final List<String> LEGEND = List.of(
            "heap = op k: [c:d ...]  the heap slots in use after call k, each as cpu:deadline, slot 0 (the root, the latest deadline) first",
            "idx = op k: [i ...]     elements[c].idx by CPU c: the heap slot holding CPU c, - for IDX_INVALID",
            "free_cpus = {..}        cp->free_cpus: the CPUs cpudl_find may pick without looking at the heap",
            "reference = {c:d ..}    what the caller has told the heap: each CPU's earliest deadline while it is in the heap",
            "runqueues = [..]        (hotplug=on) per CPU: online, down (rq offline, CPU inactive) or away (rq in another root "
                    + "domain), and dl=d when the runqueue has deadline tasks",
            "capacity = [..]         (capacity=big-little|any) arch_scale_cpu_capacity per CPU",
            "cpudl_find(...) = r     a find step's answer: the CPU (v4.x, -1 none) or the return value and later_mask (v4.15 on)",
            "2^63+1, 2^64-2          u64 deadlines near a power of two; small values in decimal");

    private final CpudlModel m;

    CpudlDecoder(CpudlModel m) {
        this.m = m;
    }

    StepInfo describe(int action) {
        int dn = m.dn;
        if (action < m.clearBase) {
            return new StepInfo("cpudl_set(cpu=" + action / dn + ", dl=" + Deadlines.format(m.dom.value(action % dn)) + ")", m.setCite);
        }
        if (action < m.clearOffBase) {
            return new StepInfo("cpudl_clear(cpu=" + (action - m.clearBase) + ")", m.clearCite);
        }
        if (action < m.hotplugBase) {
            return new StepInfo("cpudl_clear(cpu=" + (action - m.clearOffBase) + ") on an offline runqueue", m.clearCite);
        }
        if (action >= m.raceBase && action < m.findBase) {
            StepInfo w = describe(action - m.raceBase);
            return new StepInfo(w.label() + " with a lockless cpudl_find racing", w.kernelFunction());
        }
        if (action < m.findBase) {
            int c = (action - m.hotplugBase) / 4;
            int h = (action - m.hotplugBase) % 4;
            return switch (h) {
                case 0 -> new StepInfo("rq_offline_dl(cpu=" + c + "): CPU going down", m.offlineCite);
                case 1 -> new StepInfo("rq_offline_dl(cpu=" + c + "): leaves the root domain", m.offlineCite);
                case 2 -> new StepInfo("rq_online_dl(cpu=" + c + "): CPU up", m.onlineCite);
                default -> new StepInfo("rq_online_dl(cpu=" + c + "): rejoins the root domain", m.onlineCite);
            };
        }
        long f = action - m.findBase;
        long code = f % m.codeCount;
        long taskIndex = f / m.codeCount;
        int tc = (int) (taskIndex % m.taskCpus);
        long rest = taskIndex / m.taskCpus;
        int di = (int) (rest % m.densities.length);
        rest /= m.densities.length;
        int a = (int) (rest % m.affCount);
        int t = (int) (rest / m.affCount);
        String task = "dl=" + Deadlines.format(m.dom.value(t)) + ", allowed=" + m.aff[a]
                + (m.asymDims ? ", task_cpu=" + tc + ", density=" + DlTask.densityName(m.densities[di]) : "");
        String ans;
        if (m.findCpu) {
            ans = code == m.n + 1 ? "invalid" : Long.toString(code - 1);
        } else {
            ans = (code & 1) + ", later_mask=" + CpudlInvariants.maskString(code >>> 1, m.n);
        }
        return new StepInfo("cpudl_find(" + task + ") = " + ans, m.findCite);
    }

    /** The find step's task and answer, decoded (for the find properties). */
    record Find(DlTask task, int ret, long mask) {
    }

    Find find(int action) {
        long f = action - m.findBase;
        long code = f % m.codeCount;
        long taskIndex = f / m.codeCount;
        int tc = (int) (taskIndex % m.taskCpus);
        long rest = taskIndex / m.taskCpus;
        int di = (int) (rest % m.densities.length);
        rest /= m.densities.length;
        int a = (int) (rest % m.affCount);
        int t = (int) (rest / m.affCount);
        DlTask p = new DlTask(m.dom.value(t), m.aff[a], tc, m.densities[di]);
        if (m.findCpu) {
            int cpu = code == m.n + 1 ? m.n : (int) code - 1;
            return new Find(p, cpu, cpu >= 0 && cpu < 64 ? 1L << cpu : 0);
        }
        return new Find(p, (int) (code & 1), code >>> 1);
    }

    void decode(long[] s, FieldSink out) {
        CpudlLayout l = m.layout;
        Cpudl c = Cpudl.init(m.n);
        l.decodeMain(s, c, m.asymDims ? m.fixedCapacities() : null);
        CpudlReference r = new CpudlReference(m.n);
        l.decodeRef(s, r);
        String op = "op " + l.depth.getInt(s) + ": ";
        if (l.faultCode(s) != CpudlFault.NONE) {
            /* the call was stopped where the kernel would flag it: the heap is shown as it was before the call */
            op = "before op " + l.depth.getInt(s) + ": ";
            out.field(FieldSink.SHARED, "flagged", CpudlFault.property(l.faultCode(s)) + ": " + l.faultExplanation(s));
        }
        out.field(FieldSink.SHARED, "heap", op + c.heapString());
        out.field(FieldSink.SHARED, "idx", op + c.idxString());
        out.field(FieldSink.SHARED, "free_cpus", c.freeCpus.toString());
        out.field(FieldSink.SHARED, "reference", r.toString());
        if (m.hotplug) {
            StringBuilder b = new StringBuilder("[");
            for (int x = 0; x < m.n; x++) {
                int st = l.state(s, x);
                int code = l.rqdl[x].getInt(s);
                b.append(x == 0 ? "" : " ").append(x).append(':').append(st == CpudlLayout.ON ? "online" : st == CpudlLayout.OFF ? "down" : "away");
                if (code != 0) {
                    b.append(" dl=").append(Deadlines.format(m.dom.value(code - 1)));
                }
            }
            out.field(FieldSink.SHARED, "runqueues", b.append(']').toString());
        }
        if (m.asymDims) {
            out.field(FieldSink.SHARED, "capacity", CpudlInvariants.capacities(c));
        }
        if (m.writesOn) {
            int kind = l.opKind.getInt(s);
            out.field(FieldSink.SHARED, "writes", l.writes.get(s) + (l.depth.getInt(s) == 0 ? ""
                    : kind == 0 ? " (cpudl_set)" : kind == 1 ? " (cpudl_clear)" : " (rq_online_dl/rq_offline_dl)"));
        }
        if (m.same) {
            String p = m.partner.version();
            if (l.premiseOff.get(s) != 0) {
                out.field(FieldSink.SHARED, p + ".heap", "not compared: live keys not distinct in (0, 2^63)");
                out.field(FieldSink.SHARED, p + ".idx", "-");
            } else {
                Cpudl o = Cpudl.init(m.n);
                l.decodeHeap(s, o, true);
                out.field(FieldSink.SHARED, p + ".heap", op + o.heapString());
                out.field(FieldSink.SHARED, p + ".idx", op + o.idxString());
            }
        }
    }
}
