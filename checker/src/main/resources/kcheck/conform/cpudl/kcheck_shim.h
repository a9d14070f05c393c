/*
 * kcheck's shim for compiling kernel/sched/cpudeadline.c (and cpudeadline.h) of a kernel tree as
 * a user-space program: the types, cpumask operations, locking no-ops and scheduler accessors
 * that file uses, written for kcheck (no kernel header is included or copied). The CPU
 * capacities and the asymmetric-capacity key are variables the driver sets.
 */
#ifndef KCHECK_SHIM_H
#define KCHECK_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;

#define KCHECK_MAX_CPUS 256
#define KCHECK_WORDS (KCHECK_MAX_CPUS / 64)

extern unsigned int nr_cpu_ids;

/* struct cpumask: nr_cpu_ids bits */
struct cpumask {
	uint64_t bits[KCHECK_WORDS];
};
typedef struct cpumask cpumask_var_t[1];

static inline bool zalloc_cpumask_var(cpumask_var_t *mask, int flags)
{
	(void)flags;
	memset(*mask, 0, sizeof(**mask));
	return true;
}

static inline bool alloc_cpumask_var(cpumask_var_t *mask, int flags)
{
	return zalloc_cpumask_var(mask, flags);
}

static inline void free_cpumask_var(struct cpumask *mask)
{
	(void)mask;
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return cpu >= 0 && cpu < (int)nr_cpu_ids && ((m->bits[cpu / 64] >> (cpu % 64)) & 1);
}

static inline void __cpumask_set_cpu(int cpu, struct cpumask *m)
{
	m->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

static inline void __cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	m->bits[cpu / 64] &= ~((uint64_t)1 << (cpu % 64));
}

#define cpumask_set_cpu(cpu, m) __cpumask_set_cpu((cpu), (m))
#define cpumask_clear_cpu(cpu, m) __cpumask_clear_cpu((cpu), (m))

/* dst = a & b over nr_cpu_ids bits; true if the result is not empty */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	bool any = false;
	for (unsigned int w = 0; w < KCHECK_WORDS; w++) {
		dst->bits[w] = a->bits[w] & b->bits[w];
		any |= dst->bits[w] != 0;
	}
	return any;
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	for (unsigned int w = 0; w < KCHECK_WORDS; w++)
		if (m->bits[w])
			return false;
	return true;
}

static inline void cpumask_setall(struct cpumask *m)
{
	memset(m, 0, sizeof(*m));
	for (unsigned int c = 0; c < nr_cpu_ids; c++)
		__cpumask_set_cpu(c, m);
}

/* the lowest CPU above n that is set, or nr_cpu_ids */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	for (int c = n + 1; c < (int)nr_cpu_ids; c++)
		if (cpumask_test_cpu(c, m))
			return c;
	return nr_cpu_ids;
}

static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return cpumask_next(-1, m);
}

#define cpumask_any(m) cpumask_first(m)
#define for_each_cpu(cpu, m) for ((cpu) = cpumask_next(-1, (m)); (cpu) < (int)nr_cpu_ids; (cpu) = cpumask_next((cpu), (m)))
#define for_each_possible_cpu(i) for ((i) = 0; (i) < (int)nr_cpu_ids; (i)++)

/* locking: one caller at a time, nothing to do */
typedef struct {
	int unused;
} raw_spinlock_t;
#define raw_spin_lock_init(l) ((void)(l))
#define raw_spin_lock_irqsave(l, flags) ((void)(l), (flags) = 0)
#define raw_spin_unlock_irqrestore(l, flags) ((void)(l), (void)(flags))

#define WARN_ON(x) ((void)(x))
#define likely(x) (x)
#define unlikely(x) (x)
#define GFP_KERNEL 0
#ifndef ENOMEM
#define ENOMEM 12
#endif
#define CONFIG_SMP 1

/*
 * kcalloc'd arrays sit between two guards of KCHECK_GUARD bytes of KCHECK_GUARD_BYTE: the driver
 * checks them after every call (kcheck_guard_broken), so a write just outside an array is seen
 * even when it changes nothing the driver prints.
 */
#define KCHECK_GUARD 1024
#define KCHECK_GUARD_BYTE 0xa5
#define KCHECK_ALLOCATIONS 16

struct kcheck_allocation {
	unsigned char *start;
	size_t bytes;
};

static struct kcheck_allocation kcheck_allocations[KCHECK_ALLOCATIONS];

static inline void *kcalloc(size_t n, size_t size, int flags)
{
	(void)flags;
	size_t bytes = n * size;
	unsigned char *b = malloc(bytes + 2 * KCHECK_GUARD);
	if (!b)
		return NULL;
	memset(b, KCHECK_GUARD_BYTE, KCHECK_GUARD);
	memset(b + KCHECK_GUARD, 0, bytes);
	memset(b + KCHECK_GUARD + bytes, KCHECK_GUARD_BYTE, KCHECK_GUARD);
	for (int i = 0; i < KCHECK_ALLOCATIONS; i++) {
		if (!kcheck_allocations[i].start) {
			kcheck_allocations[i].start = b + KCHECK_GUARD;
			kcheck_allocations[i].bytes = bytes;
			break;
		}
	}
	return b + KCHECK_GUARD;
}

static inline void kfree(void *p)
{
	if (!p)
		return;
	for (int i = 0; i < KCHECK_ALLOCATIONS; i++)
		if (kcheck_allocations[i].start == p)
			kcheck_allocations[i].start = NULL;
	free((unsigned char *)p - KCHECK_GUARD);
}

/* true if a byte of the guard g was overwritten: the lowest and highest such offsets in *lo, *hi */
static inline bool kcheck_overwritten(const unsigned char *g, int *lo, int *hi)
{
	*lo = -1;
	for (int k = 0; k < KCHECK_GUARD; k++)
		if (g[k] != KCHECK_GUARD_BYTE) {
			if (*lo < 0)
				*lo = k;
			*hi = k;
		}
	return *lo >= 0;
}

/*
 * Writes into buf (of len bytes) where the C wrote over a guard ("bytes 0..3 past the end of a
 * kcalloc'd array of 64 bytes", counted from 0 after the end and from 1 before the start) and
 * returns 1; 0 if every guard is intact.
 */
static inline int kcheck_guard_broken(char *buf, size_t len)
{
	for (int i = 0; i < KCHECK_ALLOCATIONS; i++) {
		const unsigned char *s = kcheck_allocations[i].start;
		size_t bytes = kcheck_allocations[i].bytes;
		int lo, hi;
		if (!s)
			continue;
		if (kcheck_overwritten(s + bytes, &lo, &hi)) {
			snprintf(buf, len, "bytes %d..%d past the end of a kcalloc'd array of %zu bytes", lo, hi, bytes);
			return 1;
		}
		if (kcheck_overwritten(s - KCHECK_GUARD, &lo, &hi)) {
			snprintf(buf, len, "bytes %d..%d before the start of a kcalloc'd array of %zu bytes", KCHECK_GUARD - hi,
				 KCHECK_GUARD - lo, bytes);
			return 1;
		}
	}
	return 0;
}

static inline bool cpu_present(int cpu)
{
	return cpu >= 0 && cpu < (int)nr_cpu_ids;
}

/* the task fields cpudl_find() reads */
struct sched_dl_entity {
	u64 deadline;
	u64 dl_density;
};

struct task_struct {
	struct sched_dl_entity dl;
	struct cpumask cpus_mask;
	int cpu;
};

#define task_cpu(p) ((p)->cpu)

static inline bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* capacities: set by the driver */
extern unsigned long kcheck_capacity[KCHECK_MAX_CPUS];
extern bool kcheck_asym;

#define BW_SHIFT 20
#define SCHED_CAPACITY_SHIFT 10

static inline unsigned long arch_scale_cpu_capacity(int cpu)
{
	return kcheck_capacity[cpu];
}

static inline unsigned long capacity_orig_of(int cpu)
{
	return kcheck_capacity[cpu];
}

static inline bool sched_asym_cpucap_active(void)
{
	return kcheck_asym;
}

/*
 * dl_task_fits_capacity() is the tree's own: kcheck conform takes its definition out of the tree's
 * kernel/sched/sched.h (by parsing) into the file KCHECK_TREE_HELPERS names. Without it (a driver
 * built by hand), kcheck's copy of v6.12's.
 */
#ifdef KCHECK_TREE_HELPERS
#include KCHECK_TREE_HELPERS
#else
static inline bool dl_task_fits_capacity(struct task_struct *p, int cpu)
{
	unsigned long cap = arch_scale_cpu_capacity(cpu);

	return cap >= p->dl.dl_density >> (BW_SHIFT - SCHED_CAPACITY_SHIFT);
}
#endif

#endif
