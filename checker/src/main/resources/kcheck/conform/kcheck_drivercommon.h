/*
 * What kcheck's drivers for concurrent code share (written for kcheck, no kernel code): the hash a
 * run's text is compared by, and the basic blocks -fsanitize-coverage=trace-pc records, printed at a
 * divergence so that kcheck can name the tree's lines the C ran before each operation.
 *
 * Included once by a driver (kcheck_qdriver.c, kcheck_rwdriver.c, kcheck_lbdriver.c), after the shim
 * that defines u64. A driver that records blocks defines KCHECK_TRACED_OPS (the most operations whose
 * blocks it keeps) first, sets kcheck_op_pcs[n] = kcheck_npcs at its n-th operation, and calls
 * kcheck_print_blocks(nops) after the run's text.
 */
#ifndef KCHECK_DRIVERCOMMON_H
#define KCHECK_DRIVERCOMMON_H

#include <stdio.h>
#include <string.h>

/* the 64-bit FNV-1a of a run's text: the Java side sends the port's, the driver compares the C's */
static u64 kcheck_fnv1a(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* appends s to the text in buf (n bytes in all), cut at the end of buf */
static void kcheck_add(char *buf, size_t n, const char *s)
{
	size_t l = strlen(buf);
	if (l + 1 < n)
		snprintf(buf + l, n - l, "%s", s);
}

#ifdef KCHECK_TRACED_OPS
#define KCHECK_MAX_PCS 65536
static void *kcheck_pcs[KCHECK_MAX_PCS];
static int kcheck_npcs, kcheck_op_pcs[KCHECK_TRACED_OPS];

/* called by every basic block of the tree's code (compiled with -fsanitize-coverage=trace-pc) */
void __sanitizer_cov_trace_pc(void)
{
	if (kcheck_npcs < KCHECK_MAX_PCS)
		kcheck_pcs[kcheck_npcs++] = __builtin_return_address(0);
}

/* "B pc,pc,... ; pc,... ; ...": the blocks run before each of the nops operations, and after the last */
static void kcheck_print_blocks(int nops)
{
	int from = 0;
	printf("B ");
	for (int i = 0; i <= nops && i < KCHECK_TRACED_OPS; i++) {
		int to = i < nops ? kcheck_op_pcs[i] : kcheck_npcs;
		for (int k = from; k < to; k++)
			printf(k == from ? "%p" : ",%p", kcheck_pcs[k]);
		printf(" ; ");
		from = to;
	}
	printf("\n");
}
#endif

#endif
