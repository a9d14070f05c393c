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

static inline void *kcalloc(size_t n, size_t size, int flags)
{
	(void)flags;
	return calloc(n, size);
}

static inline void kfree(void *p)
{
	free(p);
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

static inline bool dl_task_fits_capacity(struct task_struct *p, int cpu)
{
	unsigned long cap = arch_scale_cpu_capacity(cpu);

	return cap >= p->dl.dl_density >> (BW_SHIFT - SCHED_CAPACITY_SHIFT);
}

#endif
