/*
 * kcheck: the tree's kernel/locking/rwsem.c as a translation unit of its own (written for kcheck,
 * no kernel code), compiled after kcheck_rwshim.h with -fsanitize-coverage=trace-pc; the driver
 * (kcheck_rwdriver.c) calls its down_* and up_* functions, and (through the functions after it, kcheck's) the
 * ones that run with wait_lock held, on a wait list it builds.
 */
#include KCHECK_RWSEM_C

/* ---- kcheck: the functions under wait_lock, on a concrete wait list (the static functions of the file above) ---- */
extern struct task_struct kcheck_tasks[];
static struct rwsem_waiter kcheck_waiters[8];
static struct rwsem_waiter *kcheck_mine;

/* the wait list of spec: r (reader) or w (writer) per waiter, h after one: its handoff_set; waiter i is task i + 1,
 * the caller's own waiter task `me` (none when me is 0); a waiter's timeout is 1 (jiffies finds 0 or a later time) */
void kcheck_wl_setup(struct rw_semaphore *sem, const char *spec, int me)
{
	int n = 0;
	INIT_LIST_HEAD(&sem->wait_list);
	kcheck_mine = NULL;
	for (const char *c = spec; *c && n < 8; c++) {
		if (*c == 'h') {
			if (n > 0)
				kcheck_waiters[n - 1].handoff_set = true;
			continue;
		}
		struct rwsem_waiter *w = &kcheck_waiters[n];
		memset(w, 0, sizeof(*w));
		w->task = &kcheck_tasks[n + 1];
		w->type = *c == 'w' ? RWSEM_WAITING_FOR_WRITE : RWSEM_WAITING_FOR_READ;
		w->timeout = 1;
		list_add_tail(&w->list, &sem->wait_list);
		if (n + 1 == me)
			kcheck_mine = w;
		n++;
	}
}

void kcheck_wl_mark_wake(struct rw_semaphore *sem, int wake_type)
{
	DEFINE_WAKE_Q(wake_q);
	rwsem_mark_wake(sem, (enum rwsem_wake_type)wake_type, &wake_q);
}

int kcheck_wl_try_write_lock(struct rw_semaphore *sem)
{
	return rwsem_try_write_lock(sem, kcheck_mine);
}

void kcheck_wl_del_wake_waiter(struct rw_semaphore *sem)
{
	DEFINE_WAKE_Q(wake_q);
	rwsem_del_wake_waiter(sem, kcheck_mine, &wake_q);
}

/* the wait list left: list t1r,t2w+h (+h: handoff_set), or list - */
void kcheck_wl_text(struct rw_semaphore *sem, char *buf, size_t n)
{
	int i = 0;
	snprintf(buf, n, "list ");
	for (struct list_head *e = sem->wait_list.next; e != &sem->wait_list; e = e->next) {
		struct rwsem_waiter *w = list_entry(e, struct rwsem_waiter, list);
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "%st%d%c%s", i++ ? "," : "", w->task ? (int)(w->task - kcheck_tasks) : -1,
			 w->type == RWSEM_WAITING_FOR_WRITE ? 'w' : 'r', w->handoff_set ? "+h" : "");
		if (i > 8)
			break;
	}
	if (i == 0)
		snprintf(buf, n, "list -");
}
