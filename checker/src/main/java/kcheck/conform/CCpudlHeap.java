package kcheck.conform;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import kcheck.model.ModelInputException;
import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlFault;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.model.cpudl.Cpumask;
import kcheck.model.cpudl.DlTask;

/**
 * A kernel tree's own cpudeadline.c as the heap of the cpudl model, for
 * {@code kcheck check cpudl --kernel-tree DIR}: every call the model makes is made by the compiled C
 * (the conform driver, {@code kcheck_driver.c}), on the model's state loaded into it, and the state
 * the C leaves (size, every slot, every idx, free_cpus; a find's return value and later_mask) is
 * the model's next state. No Java port is involved. A call of the C that writes outside a
 * kcalloc'd array or crashes is the sanity-bounds fault; one that does not return is the
 * bounded-work fault (the driver is restarted after either).
 */
public final class CCpudlHeap implements CpudlHeap, AutoCloseable {
    private final CDriver program;
    private final CpudlHeap port;
    private final boolean clearOnline;
    private final String tree;
    private final long callTimeoutMillis;
    /** One driver per thread: the engine's workers call the heap concurrently. */
    private final ThreadLocal<Session> session = ThreadLocal.withInitial(Session::new);
    private final List<Session> sessions = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final class Session {
        DriverProcess driver;
        int cpus = -1;

        Session() {
            sessions.add(this);
        }

        void restart() {
            stop();
            try {
                driver = program.start(StopCondition.NEVER);
            } catch (IOException | DriverProcess.Stopped e) {
                throw new ModelInputException("the C of " + tree + " does not start: " + e.getMessage());
            }
        }

        void stop() {
            if (driver != null) {
                driver.close();
                driver = null;
            }
        }
    }

    CCpudlHeap(CDriver program, CpudlConformance.Port port, String tree, long callTimeoutMillis) {
        this.program = program;
        this.port = port.heap();
        this.clearOnline = port.clearOnline();
        this.tree = tree;
        this.callTimeoutMillis = callTimeoutMillis;
    }

    @Override
    public String version() {
        return "C of " + tree;
    }

    /** The tree's cpudl_find returns what the matching port's returns (a CPU before v4.16's capacity change, else 1/0). */
    @Override
    public boolean findReturnsCpu() {
        return port.findReturnsCpu();
    }

    @Override
    public void set(Cpudl cp, int cpu, long dl) {
        call(cp, "S " + cpu + " " + Long.toUnsignedString(dl), null);
    }

    @Override
    public void clear(Cpudl cp, int cpu) {
        call(cp, "R " + cpu + " 1", null);
    }

    @Override
    public void clear(Cpudl cp, int cpu, boolean online) {
        call(cp, "R " + cpu + " " + (online ? 1 : 0), null);
    }

    @Override
    public int find(Cpudl cp, DlTask p, Cpumask laterMask) {
        return call(cp, "Q " + Long.toUnsignedString(p.deadline) + " " + p.cpusMask.toHex() + " " + p.cpu + " " + p.dlDensity, laterMask);
    }

    @Override
    public int find(Cpudl cp, long deadline, Cpumask allowed, Cpumask laterMask) {
        return call(cp, "Q " + Long.toUnsignedString(deadline) + " " + allowed.toHex() + " 0 0", laterMask);
    }

    @Override
    public void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
        call(cp, "N " + cpu + " " + (dlTasks ? 1 : 0) + " " + Long.toUnsignedString(earliest), null);
    }

    @Override
    public void rqOfflineDl(Cpudl cp, int cpu) {
        call(cp, "F " + cpu, null);
    }

    /** Loads {@code cp} into the driver, makes the call, and puts the state the C left into {@code cp}. */
    private int call(Cpudl cp, String command, Cpumask laterMask) {
        int n = cp.nrCpus();
        StringBuilder caps = new StringBuilder("K");
        for (int c = 0; c < n; c++) {
            caps.append(' ').append(cp.archScaleCpuCapacity(c));
        }
        List<String> cmds = new ArrayList<>();
        Session x = session.get();
        if (x.driver == null || x.cpus != n) {
            x.restart();
            cmds.add("I " + n);
            x.cpus = n;
        }
        cmds.add(caps.toString());
        cmds.add(CpudlRunner.loadCommand(cp, n));
        cmds.add(command);
        cmds.add("A");
        DriverProcess.Answers a;
        try {
            a = x.driver.run(cmds, cmds.size() - 1, callTimeoutMillis, StopCondition.NEVER);
        } catch (DriverProcess.Stopped e) {
            throw new ModelInputException("the C of " + tree + ": " + e.getMessage());
        }
        List<String> lines = a.lines();
        String state = lines.size() >= cmds.size() - 2 ? lines.get(cmds.size() - 3) : null;
        if (a.fault() != null || state == null || state.startsWith("!") || lines.size() < cmds.size() - 1) {
            x.stop();
            if (a.fault() != null && a.fault().kind() == DriverProcess.Fault.Kind.HANG) {
                throw CpudlFault.runaway(0);
            }
            throw CpudlFault.outOfBounds(-1);
        }
        String all = lines.get(cmds.size() - 2);
        if (!state.startsWith("size=") || !all.startsWith("all=")) {
            throw new IllegalStateException("the cpudl driver answered " + lines + " to " + cmds);
        }
        return apply(cp, state, all, laterMask);
    }

    /** Puts "size=S heap=.. idx=i,.. free=HEX [find=R mask=HEX]" and "all=c:d,.." into {@code cp}; the find's return value (or 0). */
    static int apply(Cpudl cp, String state, String all, Cpumask laterMask) {
        int n = cp.nrCpus();
        String[] f = state.split(" ");
        cp.size = Integer.parseInt(f[0].substring("size=".length()));
        String[] slots = all.substring("all=".length()).split(",");
        for (int h = 0; h < n; h++) {
            String[] cd = slots[h].split(":");
            int c = Integer.parseInt(cd[0]);
            long d = Long.parseUnsignedLong(cd[1]);
            if (cp.cpu(h) != c) {
                cp.setCpu(h, c);
            }
            if (cp.dl(h) != d) {
                cp.setDl(h, d);
            }
        }
        int ret = 0;
        for (String x : f) {
            if (x.startsWith("idx=")) {
                String[] idx = x.substring(4).split(",");
                for (int c = 0; c < n; c++) {
                    int v = Integer.parseInt(idx[c]);
                    if (cp.idx(c) != v) {
                        cp.setIdx(c, v);
                    }
                }
            } else if (x.startsWith("free=")) {
                setHex(cp.freeCpus, x.substring(5));
            } else if (x.startsWith("find=")) {
                ret = Integer.parseInt(x.substring(5));
            } else if (x.startsWith("mask=") && laterMask != null) {
                setHex(laterMask, x.substring(5));
            }
        }
        return ret;
    }

    private static void setHex(Cpumask m, String hex) {
        m.clearAll();
        int bit = 0;
        for (int i = hex.length() - 1; i >= 0; i--, bit += 4) {
            int v = Character.digit(hex.charAt(i), 16);
            for (int b = 0; b < 4; b++) {
                if ((v >> b & 1) != 0 && bit + b < m.nrCpus()) {
                    m.setCpu(bit + b);
                }
            }
        }
    }

    @Override
    public void close() {
        for (Session x : sessions) {
            x.stop();
        }
    }

    /** Whether the C's clear takes the online argument (the tree's version of cpudl_clear). */
    boolean clearOnline() {
        return clearOnline;
    }
}
