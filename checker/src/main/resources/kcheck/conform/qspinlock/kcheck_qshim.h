/*
 * kcheck's shim for compiling a kernel tree's kernel/locking/qspinlock.c with
 * include/asm-generic/qspinlock.h outside the kernel (kcheck conform rq-lock). Written for
 * kcheck; no kernel code. Force-included; the kernel headers qspinlock.c names (<linux/smp.h>,
 * <linux/percpu.h>, ...) are empty files that kcheck creates, so everything they would provide
 * is here, and what the file includes by quotes (mcs_spinlock.h, qspinlock_stat.h,
 * lock_events.h) and asm-generic/qspinlock*.h are the tree's own.
 *
 * Every access to shared memory (the lock word, an MCS node) becomes an operation handed to the
 * driver (kcheck_qdriver.c), which supplies the value every load or read-modify-write finds (the
 * other CPUs are the environment: every value is tried) and records what is written, with its
 * memory ordering:
 *   atomic_read, READ_ONCE, WRITE_ONCE: ONCE;  smp_store_release: RELEASE;
 *   smp_cond_load_acquire, atomic_cond_read_acquire: ACQUIRE;  *_relaxed loads: ONCE;
 *   atomic_try_cmpxchg_acquire: RMW_ACQUIRE;  atomic_try_cmpxchg_relaxed, xchg_relaxed: RMW_RELAXED;
 *   smp_wmb: a wmb fence.
 * A spin loop (smp_cond_load_*) whose condition fails on the supplied value ends the path: the
 * CPU would keep spinning, which is no step (the port's BLOCKED). Plain stores to an MCS node
 * (node->locked = 0, node->next = NULL) are found by comparing the nodes' memory at the next
 * operation. The per-CPU nesting count (node->count) is CPU-local and not compared.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(i) { (i) }

#define __LITTLE_ENDIAN 1234
#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS 64
#endif
#define KCHECK_MAX_CPUS 8

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((always_inline))
#define __pure __attribute__((pure))
#define __lockfunc
#define __init
#define __user
#include <sys/types.h>
#define __setup(a, b)
#define EXPORT_SYMBOL(x)
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON")
#define barrier() __asm__ __volatile__("" ::: "memory")
#define cpu_relax() do { } while (0)
#define prefetchw(x) do { (void)(x); } while (0)
#define in_task() 1
#define trace_contention_begin(l, f) do { } while (0)
#define trace_contention_end(l, r) do { } while (0)
#define LCB_F_SPIN 0

/* per-CPU data: the driver keeps every CPU's copy; the variable itself only names the layout */
extern int kcheck_cpu;
void *kcheck_percpu(void *p, int cpu);
#define DEFINE_PER_CPU_ALIGNED(type, name) type name
#define this_cpu_ptr(p) ((__typeof__(p))kcheck_percpu((p), kcheck_cpu))
#define per_cpu_ptr(p, cpu) ((__typeof__(p))kcheck_percpu((p), (cpu)))
#define __this_cpu_dec(x) ((*(__typeof__(&(x)))kcheck_percpu(&(x), kcheck_cpu))--)
#define smp_processor_id() kcheck_cpu

/* orderings, as kcheck.model.MemoryOrder names them */
#define KO_ONCE "ONCE"
#define KO_ACQUIRE "ACQUIRE"
#define KO_RELEASE "RELEASE"
#define KO_RMW_ACQUIRE "RMW_ACQUIRE"
#define KO_RMW_RELAXED "RMW_RELAXED"
#define KO_RMW_FULL "RMW_FULL"

/* the driver's side: each returns the value found (loads) or the old value (read-modify-writes) */
u64 kcheck_load(const volatile void *p, int size, const char *order, const char *file, int line);
void kcheck_store(volatile void *p, int size, u64 v, const char *order, const char *file, int line);
int kcheck_cmpxchg(volatile void *p, int size, u64 *expected, u64 v, const char *order, const char *file, int line);
u64 kcheck_xchg(volatile void *p, int size, u64 v, const char *order, const char *file, int line);
int kcheck_btsl(volatile void *p, int bit, const char *order, const char *file, int line);
void kcheck_fence(const char *fence, const char *file, int line);
void kcheck_spins(const char *file, int line);

#define KCHECK_AS_U64(x) ((u64)(uintptr_t)(x))
#define READ_ONCE(x) ((__typeof__(x))(uintptr_t)kcheck_load(&(x), sizeof(x), KO_ONCE, __FILE__, __LINE__))
#define WRITE_ONCE(x, v) kcheck_store(&(x), sizeof(x), KCHECK_AS_U64(v), KO_ONCE, __FILE__, __LINE__)
#define smp_store_release(p, v) kcheck_store((p), sizeof(*(p)), KCHECK_AS_U64(v), KO_RELEASE, __FILE__, __LINE__)
#define smp_wmb() kcheck_fence("wmb", __FILE__, __LINE__)
#define smp_rmb() kcheck_fence("rmb", __FILE__, __LINE__)
#define smp_mb() kcheck_fence("mb", __FILE__, __LINE__)

#define kcheck_cond_load(ptr, cond_expr, order) ({                                                  \
	__typeof__(ptr) __PTR = (ptr);                                                              \
	__typeof__(*__PTR) VAL;                                                                     \
	VAL = (__typeof__(*__PTR))(uintptr_t)kcheck_load(__PTR, sizeof(*__PTR), order, __FILE__, __LINE__); \
	if (!(cond_expr))                                                                           \
		kcheck_spins(__FILE__, __LINE__);                                                   \
	VAL;                                                                                        \
})
#define smp_cond_load_acquire(ptr, cond_expr) kcheck_cond_load(ptr, cond_expr, KO_ACQUIRE)
#define smp_cond_load_relaxed(ptr, cond_expr) kcheck_cond_load(ptr, cond_expr, KO_ONCE)

#define atomic_read(v) ((int)kcheck_load(&(v)->counter, 4, KO_ONCE, __FILE__, __LINE__))
#define atomic_cond_read_acquire(v, c) smp_cond_load_acquire(&(v)->counter, (c))
#define atomic_cond_read_relaxed(v, c) smp_cond_load_relaxed(&(v)->counter, (c))
static inline bool kcheck_try_cmpxchg(atomic_t *v, int *old, int new, const char *order, const char *file, int line)
{
	u64 e = (u32)*old;
	int ok = kcheck_cmpxchg(&v->counter, 4, &e, (u32)new, order, file, line);
	*old = (int)(u32)e;
	return ok;
}
#define atomic_try_cmpxchg_acquire(v, o, n) kcheck_try_cmpxchg((v), (int *)(o), (n), KO_RMW_ACQUIRE, __FILE__, __LINE__)
#define atomic_try_cmpxchg_relaxed(v, o, n) kcheck_try_cmpxchg((v), (int *)(o), (n), KO_RMW_RELAXED, __FILE__, __LINE__)
#define atomic_try_cmpxchg(v, o, n) kcheck_try_cmpxchg((v), (int *)(o), (n), KO_RMW_FULL, __FILE__, __LINE__)
#define xchg_relaxed(p, v) ((__typeof__(*(p)))kcheck_xchg((p), sizeof(*(p)), KCHECK_AS_U64(v), KO_RMW_RELAXED, __FILE__, __LINE__))
#define atomic_fetch_or_acquire(i, v) kcheck_unsupported("atomic_fetch_or_acquire", __FILE__, __LINE__)
#define atomic_andnot(i, v) kcheck_unsupported("atomic_andnot", __FILE__, __LINE__)
#define atomic_cmpxchg_relaxed(v, o, n) kcheck_unsupported("atomic_cmpxchg_relaxed", __FILE__, __LINE__)
int kcheck_unsupported(const char *what, const char *file, int line);
