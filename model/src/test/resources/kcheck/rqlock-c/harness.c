/*
 * kcheck's driver for the extracted v6.12 functions (written for kcheck, no kernel code): for
 * every (this_rq, busiest) of N CPUs and every sequence of trylock outcomes, calls
 * double_lock_balance, double_unlock_balance and double_rq_lock and prints one line per path:
 *   dlb T B: <primitive> ; <primitive> ; ... ; return R
 *   dub T B: ...        drl A B: ...
 * argv: N, pairs (0/1: SMT siblings i and i + N/2 share the lock of the lower).
 */
#include "shim.h"
#include "extracted.c"

#define MAXLOG 64
static char logbuf[4096];
static int script[32];
static int script_len, script_pos, overflow;

void shim_log(const char *what, int a, int b)
{
	char item[64];
	if (b < 0)
		snprintf(item, sizeof(item), "%s %d ; ", what, a);
	else
		snprintf(item, sizeof(item), "%s %d %d ; ", what, a, b);
	strncat(logbuf, item, sizeof(logbuf) - strlen(logbuf) - 1);
}

bool shim_trylock_outcome(void)
{
	if (script_pos >= script_len) {
		overflow = 1;
		return false;
	}
	return script[script_pos++];
}

static struct rq rqs[16];
static int ncpus;

static void explore(int kind, int t, int b, int len)
{
	script_len = len;
	script_pos = 0;
	overflow = 0;
	logbuf[0] = 0;
	int ret = 0;
	if (kind == 0)
		ret = double_lock_balance(&rqs[t], &rqs[b]);
	else if (kind == 1)
		double_unlock_balance(&rqs[t], &rqs[b]);
	else
		double_rq_lock(&rqs[t], &rqs[b]);
	if (overflow) {
		if (len >= 30) {
			printf("error: too many trylocks\n");
			exit(2);
		}
		script[len] = 0;
		explore(kind, t, b, len + 1);
		script[len] = 1;
		explore(kind, t, b, len + 1);
		return;
	}
	if (kind == 0)
		printf("dlb %d %d: %sreturn %d\n", t, b, logbuf, ret);
	else
		printf("%s %d %d: %send\n", kind == 1 ? "dub" : "drl", t, b, logbuf);
}

int main(int argc, char **argv)
{
	ncpus = atoi(argv[1]);
	int pairs = atoi(argv[2]);
	for (int i = 0; i < ncpus; i++) {
		rqs[i].cpu = i;
		rqs[i].__lock.id = i;
		rqs[i].__lock.dep_map.id = i;
	}
	for (int i = 0; i < ncpus; i++) {
		int sib = pairs ? (i + ncpus / 2) % ncpus : i;
		rqs[i].core = &rqs[i < sib ? i : sib];
		rqs[i].core_enabled = pairs;
	}
	for (int t = 0; t < ncpus; t++)
		for (int b = 0; b < ncpus; b++) {
			if (t != b) {
				explore(0, t, b, 0);
				explore(1, t, b, 0);
			}
			explore(2, t, b, 0);
		}
	return 0;
}
