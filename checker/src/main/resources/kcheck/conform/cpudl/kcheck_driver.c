/*
 * kcheck's conformance driver: runs cpudl_* calls read from stdin on the kernel's own
 * cpudeadline.c (included below, compiled against kcheck_shim.h) and prints the heap after every
 * call. Written for kcheck. Build (no -I into the kernel tree: kernel/sched/features.h would
 * shadow the C library's): gcc -include kcheck_shim.h -DKCHECK_CPUDEADLINE_H='"DIR/kernel/sched/cpudeadline.h"'
 * -DKCHECK_CPUDEADLINE_C='"DIR/kernel/sched/cpudeadline.c"' -DKCHECK_CLEAR_ONLINE=0|1 kcheck_driver.c
 *
 * Commands, one per line (numbers in decimal, u64 unsigned, masks in hex):
 *   I n                  cpudl_init() for n CPUs, then every runqueue online (as rq_online_dl does)
 *   K c0 c1 ...          CPU capacities (sched_asym_cpucap_active() iff not all equal)
 *   S cpu dl             cpudl_set(cp, cpu, dl)
 *   R cpu online         cpudl_clear(cp, cpu, online)   (cpudl_clear(cp, cpu) before the online argument)
 *   N cpu has dl         rq_online_dl's calls: the runqueue has deadline tasks (has=1, earliest dl) or not
 *   F cpu                rq_offline_dl's calls
 *   Q dl mask cpu dens   cpudl_find(cp, p, later_mask) for a task with that deadline, cpus_mask, task_cpu, dl_density
 *   L size c0 d0 .. idx0 .. free   load a heap state (every slot) and keep it as the snapshot
 *   B                    restore the snapshot
 *   A                    print every slot: "all=c:d,c:d,..." (nr_cpu_ids slots, in use or not)
 *   X                    exit
 * Output: "kcheck-driver ready" once started, then one line after each command except L and B,
 * written as soon as the call returns (stdout is line-buffered, so the caller always knows which
 * call is running and never sees half a line from a driver that is still running):
 *   size=S heap=c:d,.. idx=i,.. free=HEX [find=R mask=HEX]
 * or, if the call wrote over a guard around a kcalloc'd array (kcheck_shim.h), instead of that
 * line "!the C wrote bytes 0..3 past the end of a kcalloc'd array of 64 bytes", and the driver
 * exits (its memory can no longer be trusted).
 */
#include KCHECK_CPUDEADLINE_H
#include KCHECK_CPUDEADLINE_C

#include <stdio.h>
#include <inttypes.h>

#ifndef KCHECK_CLEAR_ONLINE
#define KCHECK_CLEAR_ONLINE 1
#endif

unsigned int nr_cpu_ids = 1;
unsigned long kcheck_capacity[KCHECK_MAX_CPUS];
bool kcheck_asym;

static struct cpudl cp;
static int snap_size;
static struct cpudl_item snap[KCHECK_MAX_CPUS];
static struct cpumask snap_free;
static int ready;

static void clear_call(int cpu, int online)
{
#if KCHECK_CLEAR_ONLINE
	cpudl_clear(&cp, cpu, online);
#else
	(void)online;
	cpudl_clear(&cp, cpu);
#endif
}

/* deadline.c's rq_online_dl()/rq_offline_dl() make these cpudeadline.c calls */
static void rq_online(int cpu, int has, u64 dl)
{
#if KCHECK_CLEAR_ONLINE
	if (has)
		cpudl_set(&cp, cpu, dl);
	else
		cpudl_clear(&cp, cpu, true);
#else
	cpudl_set_freecpu(&cp, cpu);
	if (has)
		cpudl_set(&cp, cpu, dl);
#endif
}

static void rq_offline(int cpu)
{
#if KCHECK_CLEAR_ONLINE
	cpudl_clear(&cp, cpu, false);
#else
	cpudl_clear(&cp, cpu);
	cpudl_clear_freecpu(&cp, cpu);
#endif
}

static void print_state(void)
{
	printf("size=%d heap=", cp.size);
	for (int h = 0; h < cp.size; h++)
		printf("%s%d:%" PRIu64, h ? "," : "", cp.elements[h].cpu, (uint64_t)cp.elements[h].dl);
	printf(" idx=");
	for (unsigned int c = 0; c < nr_cpu_ids; c++)
		printf("%s%d", c ? "," : "", cp.elements[c].idx);
	printf(" free=");
	int top = KCHECK_WORDS - 1;
	while (top > 0 && !cp.free_cpus->bits[top])
		top--;
	printf("%" PRIx64, cp.free_cpus->bits[top]);
	for (int w = top - 1; w >= 0; w--)
		printf("%016" PRIx64, cp.free_cpus->bits[w]);
}

/* after each call: a write outside a kcalloc'd array ends the driver with one line saying where */
static void check_guards(void)
{
	char where[160];
	if (kcheck_guard_broken(where, sizeof(where))) {
		printf("!the C wrote %s\n", where);
		exit(0);
	}
}

static void parse_mask(const char *hex, struct cpumask *m)
{
	memset(m, 0, sizeof(*m));
	size_t len = strlen(hex);
	for (size_t i = 0; i < len; i++) {
		char ch = hex[len - 1 - i];
		unsigned v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : 0;
		for (int b = 0; b < 4; b++)
			if (v & (1u << b)) {
				size_t bit = i * 4 + b;
				if (bit < KCHECK_MAX_CPUS)
					__cpumask_set_cpu((int)bit, m);
			}
	}
}

int main(void)
{
	char line[1 << 16];
	setvbuf(stdout, NULL, _IOLBF, 1 << 16);
	printf("kcheck-driver ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		char *p = line;
		char cmd = *p++;
		if (cmd == '\n' || cmd == 0)
			continue;
		if (cmd == 'I') {
			int n = (int)strtol(p, &p, 10);
			if (n < 1 || n > KCHECK_MAX_CPUS) {
				printf("error: cpus %d\n", n);
				continue;
			}
			if (ready)
				cpudl_cleanup(&cp);
			nr_cpu_ids = (unsigned)n;
			for (int c = 0; c < KCHECK_MAX_CPUS; c++)
				kcheck_capacity[c] = 1024;
			kcheck_asym = false;
			if (cpudl_init(&cp) != 0) {
				printf("error: cpudl_init\n");
				continue;
			}
			ready = 1;
			for (int c = 0; c < n; c++)
				rq_online(c, 0, 0);
			check_guards();
			print_state();
			printf("\n");
		} else if (cmd == 'K') {
			for (unsigned int c = 0; c < nr_cpu_ids; c++)
				kcheck_capacity[c] = strtoul(p, &p, 10);
			kcheck_asym = false;
			for (unsigned int c = 1; c < nr_cpu_ids; c++)
				kcheck_asym |= kcheck_capacity[c] != kcheck_capacity[0];
			check_guards();
			print_state();
			printf("\n");
		} else if (cmd == 'S') {
			int cpu = (int)strtol(p, &p, 10);
			u64 dl = strtoull(p, &p, 10);
			cpudl_set(&cp, cpu, dl);
			check_guards();
			print_state();
			printf("\n");
		} else if (cmd == 'R') {
			int cpu = (int)strtol(p, &p, 10);
			int online = (int)strtol(p, &p, 10);
			clear_call(cpu, online);
			check_guards();
			print_state();
			printf("\n");
		} else if (cmd == 'N') {
			int cpu = (int)strtol(p, &p, 10);
			int has = (int)strtol(p, &p, 10);
			u64 dl = strtoull(p, &p, 10);
			rq_online(cpu, has, dl);
			check_guards();
			print_state();
			printf("\n");
		} else if (cmd == 'F') {
			int cpu = (int)strtol(p, &p, 10);
			rq_offline(cpu);
			check_guards();
			print_state();
			printf("\n");
		} else if (cmd == 'Q') {
			struct task_struct t;
			struct cpumask later;
			char hex[KCHECK_MAX_CPUS / 4 + 2];
			memset(&t, 0, sizeof(t));
			t.dl.deadline = strtoull(p, &p, 10);
			if (sscanf(p, " %65s", hex) != 1)
				hex[0] = 0;
			while (*p == ' ')
				p++;
			while (*p && *p != ' ')
				p++;
			parse_mask(hex, &t.cpus_mask);
			t.cpu = (int)strtol(p, &p, 10);
			t.dl.dl_density = strtoull(p, &p, 10);
			memset(&later, 0, sizeof(later));
			int ret = cpudl_find(&cp, &t, &later);
			check_guards();
			print_state();
			int top = KCHECK_WORDS - 1;
			while (top > 0 && !later.bits[top])
				top--;
			printf(" find=%d mask=%" PRIx64, ret, later.bits[top]);
			for (int w = top - 1; w >= 0; w--)
				printf("%016" PRIx64, later.bits[w]);
			printf("\n");
		} else if (cmd == 'L') {
			cp.size = (int)strtol(p, &p, 10);
			for (unsigned int h = 0; h < nr_cpu_ids; h++) {
				cp.elements[h].cpu = (int)strtol(p, &p, 10);
				cp.elements[h].dl = strtoull(p, &p, 10);
			}
			for (unsigned int c = 0; c < nr_cpu_ids; c++)
				cp.elements[c].idx = (int)strtol(p, &p, 10);
			char hex[KCHECK_MAX_CPUS / 4 + 2];
			if (sscanf(p, " %65s", hex) != 1)
				hex[0] = 0;
			parse_mask(hex, cp.free_cpus);
			snap_size = cp.size;
			memcpy(snap, cp.elements, sizeof(struct cpudl_item) * nr_cpu_ids);
			snap_free = *cp.free_cpus;
		} else if (cmd == 'A') {
			printf("all=");
			for (unsigned int h = 0; h < nr_cpu_ids; h++)
				printf("%s%d:%" PRIu64, h ? "," : "", cp.elements[h].cpu, (uint64_t)cp.elements[h].dl);
			printf("\n");
		} else if (cmd == 'B') {
			cp.size = snap_size;
			memcpy(cp.elements, snap, sizeof(struct cpudl_item) * nr_cpu_ids);
			*cp.free_cpus = snap_free;
		} else if (cmd == 'X') {
			break;
		} else {
			printf("error: command %c\n", cmd);
		}
	}
	fflush(stdout);
	return 0;
}
