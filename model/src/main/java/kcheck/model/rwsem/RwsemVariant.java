package kcheck.model.rwsem;

/**
 * The variant contract of the rwsem-owner model: one version of the xadd rwsem (its public entry
 * points, kernel/locking/rwsem.c, and behind them the fast paths, the slow paths and the writer's
 * optimistic spinning of kernel/locking/rwsem-xadd.c), written against {@link RwSem}.
 *
 * <p>The model runs each task's workload ({@code down_read; up_read} or {@code down_write;
 * up_write}, forever or for some rounds) through this code, step by step: every {@link RwSem}
 * call that touches shared memory is one atomic step. The code is recorded into a finite
 * program graph ({@link ProgramRecorder}), so it may loop like the kernel does, with one rule:
 * <b>a value that is used after a later {@link RwSem} call must be kept in a field annotated
 * {@link FrameLocal}</b> (the Java stack is not visible to the recorder), unless it is a
 * parameter whose value a {@code FrameLocal} of the caller determines. The recorder checks the
 * rule on random paths and rejects code that breaks it.
 *
 * <p>To check your own patch, copy {@link RwsemV48}, change it, and build the model with
 * {@link RwsemOwnerFactory#create(String, RwsemVariant, kcheck.model.Params, java.util.Set)}.
 */
public interface RwsemVariant {

    /** {@code down_read(sem)}. */
    void downRead(RwSem sem);

    /** {@code up_read(sem)}. */
    void upRead(RwSem sem);

    /** {@code down_write(sem)}. */
    void downWrite(RwSem sem);

    /** {@code up_write(sem)}. */
    void upWrite(RwSem sem);
}
