/**
 * The rwsem-owner reference code on real JVM threads: {@link kcheck.model.rwsem.threads.ThreadRwSem}
 * is a {@link kcheck.model.rwsem.RwSem} that real threads share (count and owner in atomics, the
 * osq and {@code wait_lock} as CAS locks, the wait list under {@code wait_lock}, sleeping as a
 * bounded wait for a wake-up), and {@link kcheck.model.rwsem.threads.RwsemTask} runs one task's
 * workload through a catalogue variant ({@code RwsemV47}, {@code RwsemV48}, unchanged: one
 * instance per task, since their {@code @FrameLocal} fields are that task's locals).
 */
package kcheck.model.rwsem.threads;
