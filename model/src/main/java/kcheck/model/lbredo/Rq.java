package kcheck.model.lbredo;

/**
 * The parts of {@code struct rq} that {@code load_balance()} reads here: {@code nr_running},
 * {@code curr} and the {@code cfs_tasks} list. Every modelled task is a CFS task, so
 * {@code nr_running} equals the length of {@code cfs_tasks}.
 *
 * <p>{@code cfs_tasks} is kept head first: index 0 is the head (where {@code list_add} and
 * {@code list_move} put a task), index {@code len - 1} the tail ({@code list_last_entry}, the
 * task {@code detach_tasks()} looks at next).
 */
public final class Rq {
    public final int cpu;
    public int nrRunning;
    /**
     * Tasks on this runqueue the model does not name: the task a busy CPU runs
     * ({@code CPU_NOT_IDLE}) and tasks pulled here whose order no longer matters. They count in
     * {@link #nrRunning} but are not on {@code cfs_tasks} here.
     */
    int extra;
    /** {@code rq->curr}: the running task, or -1 when the CPU is idle. */
    public int curr = -1;
    private final int[] cfsTasks;
    private int len;
    /** Held by the CPU running {@code load_balance()} (the model checks the locking discipline). */
    boolean locked;

    Rq(int cpu, int capacity) {
        this.cpu = cpu;
        this.cfsTasks = new int[Math.max(1, capacity)];
    }

    public boolean listEmpty() {
        return len == 0;
    }

    /** {@code list_last_entry(&rq->cfs_tasks, ...)}: the tail. */
    public int listLastEntry() {
        return cfsTasks[len - 1];
    }

    /** {@code list_move(&p->se.group_node, &rq->cfs_tasks)}: moves p to the head. */
    public void listMove(int p) {
        int i = indexOf(p);
        System.arraycopy(cfsTasks, 0, cfsTasks, 1, i);
        cfsTasks[0] = p;
    }

    /** {@code list_add(&p->se.group_node, &rq->cfs_tasks)}: adds p at the head. */
    void listAdd(int p) {
        System.arraycopy(cfsTasks, 0, cfsTasks, 1, len);
        cfsTasks[0] = p;
        len++;
    }

    /** {@code list_del_init(&p->se.group_node)}. */
    void listDel(int p) {
        int i = indexOf(p);
        System.arraycopy(cfsTasks, i + 1, cfsTasks, i, len - i - 1);
        len--;
    }

    /** Number of tasks on {@code cfs_tasks}. */
    public int length() {
        return len;
    }

    /** The task at position {@code i} (0 = head). */
    public int task(int i) {
        return cfsTasks[i];
    }

    boolean contains(int p) {
        for (int i = 0; i < len; i++) {
            if (cfsTasks[i] == p) {
                return true;
            }
        }
        return false;
    }

    /** Empties the runqueue (no lock held, idle). */
    void reset() {
        len = 0;
        extra = 0;
        nrRunning = 0;
        curr = -1;
        locked = false;
    }

    /** Appends at the tail: used to build a runqueue in list order, head first. */
    void append(int p) {
        cfsTasks[len++] = p;
        nrRunning = len + extra;
    }

    /** Sets the number of unnamed tasks ({@link #extra}). */
    void setExtra(int e) {
        extra = e;
        nrRunning = len + extra;
    }

    private int indexOf(int p) {
        for (int i = 0; i < len; i++) {
            if (cfsTasks[i] == p) {
                return i;
            }
        }
        throw new LbCheck.Failed(LbCheck.TASK_GONE, "task " + p + " is not on rq " + cpu);
    }
}
