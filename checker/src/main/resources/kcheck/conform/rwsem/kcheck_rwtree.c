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
/* the caller's own waiter in a slow path (its stack's), once it has queued it */
static struct rwsem_waiter *kcheck_own;

/* another task's waiter, the n-th of the list (task n + 1), at the list's tail; its timeout is 1 */
static struct rwsem_waiter *kcheck_add_waiter(struct rw_semaphore *sem, int n, char type)
{
	struct rwsem_waiter *w = &kcheck_waiters[n];
	memset(w, 0, sizeof(*w));
	w->task = &kcheck_tasks[n + 1];
	w->type = type == 'w' ? RWSEM_WAITING_FOR_WRITE : RWSEM_WAITING_FOR_READ;
	w->timeout = 1;
	list_add_tail(&w->list, &sem->wait_list);
	return w;
}

/* the wait list of spec: r (reader) or w (writer) per waiter, h after one: its handoff_set; waiter i is task i + 1,
 * the caller's own waiter task `me` (none when me is 0); a waiter's timeout is 1 (jiffies finds 0 or a later time) */
void kcheck_wl_setup(struct rw_semaphore *sem, const char *spec, int me)
{
	int n = 0;
	INIT_LIST_HEAD(&sem->wait_list);
	kcheck_mine = NULL;
	kcheck_own = NULL;
	for (const char *c = spec; *c && n < 8; c++) {
		if (*c == 'h') {
			if (n > 0)
				kcheck_waiters[n - 1].handoff_set = true;
			continue;
		}
		struct rwsem_waiter *w = kcheck_add_waiter(sem, n, *c);
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

/*
 * At a slow path's acquisition of wait_lock, the wait list it finds (other tasks queue and leave meanwhile): r or w per
 * other waiter (tasks 1, 2, ...), M the caller's own waiter where it is queued, G first when a waker granted it the lock
 * meanwhile (its task NULL, off the list).
 */
void kcheck_wl_relist(struct rw_semaphore *sem, const char *spec)
{
	int n = 0;
	for (struct list_head *e = sem->wait_list.next; e != &sem->wait_list; e = e->next) {
		struct rwsem_waiter *w = list_entry(e, struct rwsem_waiter, list);
		if (w->task == current)
			kcheck_own = w;
	}
	INIT_LIST_HEAD(&sem->wait_list);
	for (const char *c = spec; *c && n < 8; c++) {
		if (*c == 'G') {
			if (kcheck_own)
				kcheck_own->task = NULL;
		} else if (*c == 'M') {
			if (kcheck_own)
				list_add_tail(&kcheck_own->list, &sem->wait_list);
		} else {
			kcheck_add_waiter(sem, n++, *c);
		}
	}
}

int kcheck_wl_down_read_slowpath(struct rw_semaphore *sem, long count, int killable)
{
	struct rw_semaphore *r = rwsem_down_read_slowpath(sem, count, killable ? TASK_KILLABLE : TASK_UNINTERRUPTIBLE);
	return !IS_ERR(r);
}

/* the reader's sleep loop found its waiter.task NULL: the waker that granted it took it off the list */
void kcheck_wl_granted(struct rw_semaphore *sem)
{
	for (struct list_head *e = sem->wait_list.next; e != &sem->wait_list; e = e->next) {
		struct rwsem_waiter *w = list_entry(e, struct rwsem_waiter, list);
		if (w->task == current) {
			list_del(&w->list);
			w->task = NULL;
			return;
		}
	}
}

int kcheck_wl_down_write_slowpath(struct rw_semaphore *sem, int killable)
{
	struct rw_semaphore *r = rwsem_down_write_slowpath(sem, killable ? TASK_KILLABLE : TASK_UNINTERRUPTIBLE);
	return !IS_ERR(r);
}
