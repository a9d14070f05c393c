/*
 * kcheck's shim for compiling a kernel tree's kernel/locking/rwsem.c outside the kernel (kcheck
 * conform rwsem-owner). Written for kcheck; no kernel code. Force-included; the kernel headers
 * rwsem.c names (<linux/sched.h>, <linux/rwsem.h>, ...) are empty files kcheck creates, so what
 * they would provide is here; lock_events.h (included by quotes) is the tree's own.
 *
 * Every access to the semaphore (sem->count, sem->owner, the osq, wait_lock) and every call into
 * the rest of the kernel that the lock paths make (owner_on_cpu, need_resched, signal_pending_state,
 * jiffies, sched_clock, schedule, set_current_state, wake_q_*) is an operation handed to the driver
 * (kcheck_rwdriver.c), which supplies what each read finds and records what is written. Preemption
 * is counted (not an operation): lockdep_assert_preemption_disabled() and lockdep_assert_held() are
 * checked against it and a failure is an operation ("warn ..."), as the port records it. The wait
 * list is plain memory (list_* below); struct rw_semaphore, struct task_struct and struct
 * wake_q_head are kcheck's (only the fields rwsem.c names).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct file;
#define __user

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef struct { long counter; } atomic_long_t;
typedef struct { int counter; } atomic_t;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __sched
#define __init
#define __must_check
#define EXPORT_SYMBOL(x) struct kcheck_export_##x
#define __releases(x)
#define __acquires(x)
#define EXPORT_SYMBOL_GPL(x) struct kcheck_export_##x
#define barrier() __asm__ __volatile__("" ::: "memory")
#define cpu_relax() barrier()
#define might_sleep() do { } while (0)
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON")
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define HZ 250
#define NSEC_PER_USEC 1000L
#define EINTR 4
#define ERR_PTR(e) ((void *)(long)(e))
#define IS_ERR(p) ((unsigned long)(void *)(p) >= (unsigned long)-4095)
#define _RET_IP_ 0UL
#define SINGLE_DEPTH_NESTING 1
#define BITS_PER_LONG 64
/* include/linux/rwsem.h */
#define RWSEM_UNLOCKED_VALUE 0UL

#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_WAKEKILL 0x0100
#define TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)

struct list_head { struct list_head *next, *prev; };
struct task_struct { long kcheck_id; } __attribute__((aligned(64)));
struct optimistic_spin_queue { atomic_t tail; };
typedef struct { int kcheck_held; } raw_spinlock_t;
struct lockdep_map { int unused; };
struct lock_class_key { int unused; };
struct wake_q_node { struct wake_q_node *next; };
struct wake_q_head { int kcheck_count; };
struct rw_semaphore {
	atomic_long_t count;
	atomic_long_t owner;
	struct optimistic_spin_queue osq;
	raw_spinlock_t wait_lock;
	struct list_head wait_list;
};

/* the driver's side */
struct task_struct *kcheck_current(void);
void kcheck_op(const char *text, const char *file, int line);
long kcheck_read(const char *kind, const char *text, const char *file, int line);
long kcheck_atomic(atomic_long_t *v, const char *what, long a, long b, int *ok, const char *order, const char *file, int line);
void kcheck_preempt(int d);
void kcheck_assert_preempt_off(const char *file, int line);
void kcheck_assert_held(raw_spinlock_t *l, const char *file, int line);
void kcheck_wait_lock(raw_spinlock_t *l, int lock, const char *file, int line);
int kcheck_rt(void);
int kcheck_warn(int c, const char *what, const char *file, int line);

#define current kcheck_current()
#define preempt_disable() kcheck_preempt(1)
#define preempt_enable() kcheck_preempt(-1)
#define lockdep_assert_preemption_disabled() kcheck_assert_preempt_off(__FILE__, __LINE__)
#define lockdep_assert_held(l) kcheck_assert_held((l), __FILE__, __LINE__)
#define WARN_ON_ONCE(c) kcheck_warn(!!(c), "WARN_ON_ONCE", __FILE__, __LINE__)
#define WARN_ONCE(c, ...) kcheck_warn(!!(c), "WARN_ONCE", __FILE__, __LINE__)
#define WARN_ON(c) kcheck_warn(!!(c), "WARN_ON", __FILE__, __LINE__)

/*
 * atomics on sem->count and sem->owner: each an operation (the driver knows which word by its address), with its
 * ordering as kcheck.model.MemoryOrder names it (tools/memory-model: atomic_long_read and atomic_long_set are
 * READ_ONCE/WRITE_ONCE; the RMWs that return nothing are relaxed, those that return a value fully ordered unless
 * a suffix says otherwise)
 */
#define KO_ONCE "ONCE"
#define KO_ACQUIRE "ACQUIRE"
#define KO_RELEASE "RELEASE"
#define KO_RMW_RELAXED "RMW_RELAXED"
#define KO_RMW_ACQUIRE "RMW_ACQUIRE"
#define KO_RMW_RELEASE "RMW_RELEASE"
#define KO_RMW_FULL "RMW_FULL"
#define KA(v, what, a, b, o) kcheck_atomic((v), (what), (long)(a), (long)(b), NULL, (o), __FILE__, __LINE__)
#define atomic_long_read(v) KA((v), "load", 0, 0, KO_ONCE)
#define atomic_long_read_acquire(v) KA((v), "load", 0, 0, KO_ACQUIRE)
#define atomic_long_set(v, i) ((void)KA((v), "store", (i), 0, KO_ONCE))
#define atomic_long_set_release(v, i) ((void)KA((v), "store", (i), 0, KO_RELEASE))
#define atomic_long_add(i, v) ((void)KA((v), "add", (i), 0, KO_RMW_RELAXED))
#define atomic_long_add_return(i, v) (KA((v), "add_return", (i), 0, KO_RMW_FULL) + (long)(i))
#define atomic_long_add_return_acquire(i, v) (KA((v), "add_return", (i), 0, KO_RMW_ACQUIRE) + (long)(i))
#define atomic_long_add_return_release(i, v) (KA((v), "add_return", (i), 0, KO_RMW_RELEASE) + (long)(i))
#define atomic_long_add_return_relaxed(i, v) (KA((v), "add_return", (i), 0, KO_RMW_RELAXED) + (long)(i))
#define atomic_long_fetch_add(i, v) KA((v), "fetch_add", (i), 0, KO_RMW_FULL)
#define atomic_long_fetch_add_acquire(i, v) KA((v), "fetch_add", (i), 0, KO_RMW_ACQUIRE)
#define atomic_long_fetch_add_release(i, v) KA((v), "fetch_add", (i), 0, KO_RMW_RELEASE)
#define atomic_long_fetch_add_relaxed(i, v) KA((v), "fetch_add", (i), 0, KO_RMW_RELAXED)
#define atomic_long_or(i, v) ((void)KA((v), "or", (i), 0, KO_RMW_RELAXED))
#define atomic_long_andnot(i, v) ((void)KA((v), "andnot", (i), 0, KO_RMW_RELAXED))
#define atomic_long_cmpxchg(v, o, n) KA((v), "cmpxchg", (o), (n), KO_RMW_FULL)
#define atomic_long_cmpxchg_acquire(v, o, n) KA((v), "cmpxchg", (o), (n), KO_RMW_ACQUIRE)
#define atomic_long_cmpxchg_release(v, o, n) KA((v), "cmpxchg", (o), (n), KO_RMW_RELEASE)
#define atomic_long_cmpxchg_relaxed(v, o, n) KA((v), "cmpxchg", (o), (n), KO_RMW_RELAXED)
static inline bool kcheck_try_cmpxchg(atomic_long_t *v, long *old, long new, const char *order, const char *file, int line)
{
	int ok;
	long cur = kcheck_atomic(v, "cmpxchg", *old, new, &ok, order, file, line);
	if (!ok)
		*old = cur;
	return ok;
}
#define atomic_long_try_cmpxchg(v, o, n) kcheck_try_cmpxchg((v), (long *)(o), (long)(n), KO_RMW_FULL, __FILE__, __LINE__)
#define atomic_long_try_cmpxchg_acquire(v, o, n) kcheck_try_cmpxchg((v), (long *)(o), (long)(n), KO_RMW_ACQUIRE, __FILE__, __LINE__)
#define atomic_long_try_cmpxchg_release(v, o, n) kcheck_try_cmpxchg((v), (long *)(o), (long)(n), KO_RMW_RELEASE, __FILE__, __LINE__)
#define atomic_long_try_cmpxchg_relaxed(v, o, n) kcheck_try_cmpxchg((v), (long *)(o), (long)(n), KO_RMW_RELAXED, __FILE__, __LINE__)
#define ATOMIC_LONG_INIT(i) { (i) }

/* the rest of the kernel, as the lock paths call it */
#define owner_on_cpu(o) ((bool)kcheck_read("b", kcheck_owner_text("on_cpu", (o)), __FILE__, __LINE__))
const char *kcheck_owner_text(const char *what, struct task_struct *t);
#define need_resched() ((bool)kcheck_read("b", "need_resched", __FILE__, __LINE__))
#define osq_lock(q) ((bool)kcheck_read("b", "osq_lock", __FILE__, __LINE__))
#define osq_unlock(q) kcheck_op("osq_unlock", __FILE__, __LINE__)
#define osq_is_locked(q) ((bool)kcheck_read("b", "osq_is_locked", __FILE__, __LINE__))
#define osq_lock_init(q) do { } while (0)
#define rt_task(p) kcheck_rt()
#define rt_or_dl_task(p) kcheck_rt()
#define signal_pending_state(state, p) \
	(((state) & (TASK_INTERRUPTIBLE | TASK_WAKEKILL)) ? (int)kcheck_read("b", "signal_pending", __FILE__, __LINE__) : 0)
#define jiffies ((unsigned long)kcheck_read("t", "jiffies", __FILE__, __LINE__))
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define sched_clock() ((u64)kcheck_read("t", "sched_clock", __FILE__, __LINE__))
#define schedule() kcheck_op("schedule", __FILE__, __LINE__)
#define schedule_preempt_disabled() kcheck_op("schedule", __FILE__, __LINE__)
#define set_current_state(s) kcheck_op("set_current_state", __FILE__, __LINE__)
/* after the wait loops, back to TASK_RUNNING: a store to the task's own state, not compared (the port keeps it as a comment) */
#define __set_current_state(s) do { } while (0)
#define DEFINE_WAKE_Q(name) struct wake_q_head name = { 0 }
#define wake_q_init(q) ((q)->kcheck_count = 0)
#define wake_q_empty(q) ((q)->kcheck_count == 0)
#define wake_q_add(q, t) ((q)->kcheck_count++, kcheck_op(kcheck_owner_text("wake_q_add", (t)), __FILE__, __LINE__))
#define wake_q_add_safe(q, t) ((q)->kcheck_count++, kcheck_op(kcheck_owner_text("wake_q_add", (t)), __FILE__, __LINE__))
#define wake_up_q(q) kcheck_op("wake_up_q", __FILE__, __LINE__)
#define get_task_struct(t) ((void)(t))
#define put_task_struct(t) ((void)(t))
#define smp_load_acquire(p) ((__typeof__(*(p)))(uintptr_t)kcheck_read("b", "waiter.task load " KO_ACQUIRE, __FILE__, __LINE__))
#define smp_store_release(p, v) (*(p) = (v), kcheck_op("waiter.task store " KO_RELEASE, __FILE__, __LINE__))
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
/* barriers: each an operation named as linux-kernel.bell names the fence (smp_acquire__after_ctrl_dep() is smp_rmb()) */
#define smp_mb() kcheck_op("barrier mb", __FILE__, __LINE__)
#define smp_rmb() kcheck_op("barrier rmb", __FILE__, __LINE__)
#define smp_wmb() kcheck_op("barrier wmb", __FILE__, __LINE__)
#define smp_acquire__after_ctrl_dep() kcheck_op("barrier rmb", __FILE__, __LINE__)
#define smp_mb__before_atomic() kcheck_op("barrier before-atomic", __FILE__, __LINE__)
#define smp_mb__after_atomic() kcheck_op("barrier after-atomic", __FILE__, __LINE__)
#define smp_mb__after_spinlock() kcheck_op("barrier after-spinlock", __FILE__, __LINE__)

#define raw_spin_lock_irq(l) kcheck_wait_lock((l), 1, __FILE__, __LINE__)
#define raw_spin_unlock_irq(l) kcheck_wait_lock((l), 0, __FILE__, __LINE__)
#define raw_spin_lock_irqsave(l, f) ((f) = 0, kcheck_wait_lock((l), 1, __FILE__, __LINE__))
#define raw_spin_unlock_irqrestore(l, f) ((void)(f), kcheck_wait_lock((l), 0, __FILE__, __LINE__))
#define raw_spin_lock_init(l) ((l)->kcheck_held = 0)
#define lockdep_init_map_wait(...) do { } while (0)
#define debug_check_no_locks_freed(...) do { } while (0)

/* lockdep's annotations: nothing without CONFIG_DEBUG_LOCK_ALLOC */
#define rwsem_acquire(...) do { } while (0)
#define rwsem_acquire_read(...) do { } while (0)
#define rwsem_release(...) do { } while (0)
#define lock_downgrade(...) do { } while (0)
#define LOCK_CONTENDED(_lock, try, lock) lock(_lock)
#define LOCK_CONTENDED_RETURN(_lock, try, lock) lock(_lock)
#define trace_contention_begin(...) do { } while (0)
#define trace_contention_end(...) do { } while (0)

/* include/linux/list.h, as plain memory */
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l; l->prev = l; }
static inline int list_empty(const struct list_head *h) { return h->next == h; }
static inline int list_is_singular(const struct list_head *h) { return !list_empty(h) && h->next == h->prev; }
static inline void __kcheck_list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n; n->next = next; n->prev = prev; prev->next = n;
}
static inline void list_add_tail(struct list_head *n, struct list_head *h) { __kcheck_list_add(n, h->prev, h); }
static inline void list_del(struct list_head *e) { e->next->prev = e->prev; e->prev->next = e->next; e->next = e->prev = NULL; }
static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	e->next->prev = e->prev; e->prev->next = e->next; list_add_tail(e, h);
}
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_next_entry(pos, member) list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_for_each_entry_safe(pos, n, head, member)                         \
	for (pos = list_first_entry(head, __typeof__(*pos), member), n = list_next_entry(pos, member); \
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))
