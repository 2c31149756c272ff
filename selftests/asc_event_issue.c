// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: instructions issued by the scalar, run by the pipes.
 *
 * ASC_EVENT_IOC_ISSUE, called by the scalar (a thread bound to S, or
 * unbound while nobody owns S), checks a set or a wait when it is issued,
 * in program order, and queues a ticket on the set's source pipe or the
 * wait's destination pipe; ASC_EVENT_IOC_EXECUTE, called by the thread
 * bound to that pipe, runs the pipe's oldest ticket like SET_FLAG or
 * WAIT_FLAG.  So pyasc's "alloc; set; wait; release" in a row, correct on
 * the chip, passes even in strict mode, although the ID is free again by
 * the time the pipes run the set and the wait.  V_V and FIX_FIX tickets
 * are barriers: no flag.  RESET drops every ticket.
 *
 * The main thread is the scalar; worker threads (asc_test_threads.h) are
 * the pipes.  Every test starts in strict mode, where a hand-written ID is
 * refused at issue.
 */
#include "asc_event_test.h"

#define STRICT		((int)(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS))

/* Set by MTE2, waited for by V. */
#define EV		ASC_EVENT_MTE2_V

#define BLOCK_MS	2000

FIXTURE(issue) {
	int fd;
	int ids;
	struct asc_worker mte2, v, s;
};

FIXTURE_SETUP(issue)
{
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(0, asc_worker_start(&self->mte2, self->fd));
	ASSERT_EQ(0, asc_worker_start(&self->v, self->fd));
	ASSERT_EQ(0, asc_worker_start(&self->s, self->fd));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_S));
}

FIXTURE_TEARDOWN(issue)
{
	if (self->fd >= 0)
		asc_reset(self->fd, NULL);
	asc_worker_stop(&self->mte2);
	asc_worker_stop(&self->v);
	asc_worker_stop(&self->s);
	if (self->fd >= 0)
		close(self->fd);
}

/* The seed's pattern and pyasc's vadd: alloc; set; wait; release, in a row. */
TEST_F(issue, alloc_set_wait_release_in_a_row)
{
	long long set, wait;
	int id, round;

	for (round = 0; round < 3; round++) {
		id = asc_alloc(self->fd, EV);
		ASSERT_EQ(0, id);
		set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, id);
		wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, id);
		ASSERT_LT(0, set);
		ASSERT_LT(set, wait) TH_LOG("tickets grow: %lld, %lld", set, wait);
		ASSERT_EQ(0, asc_release(self->fd, EV, id));
		/* The pipes get to them later: the ID is free by then. */
		ASSERT_EQ(0, W_EXEC(&self->mte2, set));
		ASSERT_EQ(0, W_EXEC(&self->v, wait));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/* A fetched ID works the same; the direct SET_FLAG refuses it once forgotten. */
TEST_F(issue, checked_at_issue_not_at_execution)
{
	long long set, wait;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_LT(0, wait);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	/* A reset now would drop the tickets; a new fetch of EV forgets 0 ... */
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_fetch(self->fd, EV));
	/* ... and 0 is allocated anyway; free it: hand-written for a direct set. */
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, W_SET(&self->mte2, EV, 0));
	ASSERT_EQ(0, W_EXEC(&self->mte2, set));
	ASSERT_EQ(0, W_EXEC(&self->v, wait));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE2, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(issue, issue_errors)
{
	struct asc_event_issue bad = { .op = ASC_EVENT_OP_SET, .event = EV, .flags = 1 };
	long long inval = asc_test_stat_read("err_invalid");
	int i;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(-EINVAL, asc_issue(self->fd, 0, EV, 0));
	ASSERT_EQ(-EINVAL, asc_issue(self->fd, 3, EV, 0));
	ASSERT_EQ(-EINVAL, asc_issue(self->fd, ASC_EVENT_OP_SET, ASC_NR_EVENTS, 0));
	ASSERT_EQ(-EINVAL, asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, self->ids));
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, &bad));
	if (inval >= 0) {
		ASSERT_EQ(inval + 5, asc_test_stat_read("err_invalid"));
	}
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, NULL));
	/* Strict: a hand-written ID is refused when issued. */
	ASSERT_EQ(-ENOENT, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 1));
	ASSERT_EQ(-ENOENT, asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 1));
	/* Only the scalar issues: nobody unbound while S has its thread. */
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->s, ASC_EVENT_PIPE_S));
	ASSERT_EQ(-EPERM, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_EQ(0, W_BIND(&self->s, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_S));
	/* A pipe's queue holds ASC_EVENT_QUEUE_DEPTH tickets; the other pipes' too. */
	for (i = 0; i < ASC_EVENT_QUEUE_DEPTH; i++) {
		ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0)) TH_LOG("ticket %d", i);
	}
	ASSERT_EQ(-EAGAIN, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0));
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * The ticket is written where the page is not mapped in yet: the write
 * under the TPipe's lock cannot fault it in, ISSUE does and tries again.
 */
TEST_F(issue, issue_into_a_page_not_mapped_in)
{
	const struct asc_event_issue in = { .op = ASC_EVENT_OP_SET, .event = EV,
					    .ticket = ~0ULL };
	long page = sysconf(_SC_PAGESIZE);
	struct asc_event_issue *args, out;
	int memfd;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	args = asc_cold_page(&memfd, &in, sizeof(in), PROT_READ | PROT_WRITE);
	ASSERT_TRUE(args != MAP_FAILED);
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, args));
	ASSERT_EQ((ssize_t)sizeof(out), pread(memfd, &out, sizeof(out), 0));
	ASSERT_NE(~0ULL, out.ticket);
	ASSERT_EQ(0, W_EXEC(&self->mte2, out.ticket));
	munmap(args, page);
	close(memfd);
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 1);
}

/*
 * Arguments the caller may only read: bad flags are EINVAL; good ones
 * fail with EFAULT when the ticket is to be written, and queue nothing,
 * so that a full queue's worth of tickets still goes in after them.
 */
TEST_F(issue, issue_into_a_read_only_page)
{
	const struct asc_event_issue bad = { .op = ASC_EVENT_OP_SET, .event = EV,
					     .flags = 1 };
	const struct asc_event_issue good = { .op = ASC_EVENT_OP_SET, .event = EV };
	long page = sysconf(_SC_PAGESIZE);
	struct asc_event_issue *args;
	int memfd, i;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	args = asc_cold_page(&memfd, &bad, sizeof(bad), PROT_READ);
	ASSERT_TRUE(args != MAP_FAILED);
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, args));
	munmap(args, page);
	close(memfd);
	args = asc_cold_page(&memfd, &good, sizeof(good), PROT_READ);
	ASSERT_TRUE(args != MAP_FAILED);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, args));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, args));
	munmap(args, page);
	close(memfd);
	for (i = 0; i < ASC_EVENT_QUEUE_DEPTH; i++) {
		ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0)) TH_LOG("ticket %d", i);
	}
	ASSERT_EQ(-EAGAIN, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * EXECUTE's arguments are read where the page is not mapped in yet: the
 * scalar issues, then takes MTE2's place to run the set itself.
 */
TEST_F(issue, execute_from_a_page_not_mapped_in)
{
	long page = sysconf(_SC_PAGESIZE);
	struct asc_event_execute exec = { 0 };
	int memfd;
	void *p;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	exec.ticket = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	ASSERT_LT(0, (long long)exec.ticket);
	p = asc_cold_page(&memfd, &exec, sizeof(exec), PROT_READ);
	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_EXECUTE, p));
	munmap(p, page);
	close(memfd);
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 1);
}

/*
 * Arguments that run into a page nobody may read are EFAULT before
 * anything else is looked at, even when only the last field (ISSUE's
 * ticket, written, never read; EXECUTE's pad) is in that page: a bad op
 * is EFAULT there, not EINVAL, and nothing is queued or run.
 */
TEST_F(issue, arguments_into_an_unreadable_page)
{
	const struct asc_event_issue bad = { .op = 0, .event = EV };
	const struct asc_event_issue good = { .op = ASC_EVENT_OP_SET, .event = EV };
	const size_t at = offsetof(struct asc_event_issue, ticket);
	long page = sysconf(_SC_PAGESIZE);
	struct asc_event_execute exec = { 0 };
	char *p;
	int i;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(0, mprotect(p + page, page, PROT_NONE));
	memcpy(p + page - at, &bad, at);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, p + page - at));
	memcpy(p + page - at, &good, at);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ISSUE, p + page - at));
	for (i = 0; i < ASC_EVENT_QUEUE_DEPTH; i++) {
		ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0)) TH_LOG("ticket %d", i);
	}
	ASSERT_EQ(-EAGAIN, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_RESET(self->fd, 1, 0);

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	exec.ticket = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	ASSERT_LT(0, (long long)exec.ticket);
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_MTE2));
	memcpy(p + page - offsetof(struct asc_event_execute, pad), &exec,
	       offsetof(struct asc_event_execute, pad));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_EXECUTE,
				     p + page - offsetof(struct asc_event_execute, pad)));
	/* The set did not run: the ticket is still the pipe's oldest. */
	ASSERT_EQ(0, asc_execute(self->fd, exec.ticket, 0));
	munmap(p, 2 * page);
	ASSERT_RESET(self->fd, 1, 1);
}

/* A thread bound to a pipe other than S may not issue. */
TEST_F(issue, only_the_scalar_issues)
{
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(-EPERM, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_S));
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(issue, execute_errors)
{
	struct asc_event_execute bad = { .flags = 1 }, badpad = { .pad = 1 };
	long long a, b;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	a = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	b = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 1);
	ASSERT_LT(0, b);
	bad.ticket = badpad.ticket = a;
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_EXECUTE, &bad));
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_EXECUTE, &badpad));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_EXECUTE, NULL));
	/* Unknown tickets; a ticket that is not its pipe's oldest. */
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, 0));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, b + 100));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, b));
	/* Only the pipe's own thread: not V, not the scalar, not an unbound thread. */
	ASSERT_EQ(-EPERM, W_EXEC(&self->v, a));
	ASSERT_EQ(-EPERM, asc_execute(self->fd, a, 0));
	ASSERT_EQ(-EPERM, W_EXEC(&self->s, a));
	/* In order, and each once. */
	ASSERT_EQ(0, W_EXEC(&self->mte2, a));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, a));
	ASSERT_EQ(0, W_EXEC(&self->mte2, b));
	ASSERT_EQ(0, W_WAIT(&self->v, EV, 0, 0));
	ASSERT_EQ(0, W_WAIT(&self->v, EV, 1, 0));
	ASSERT_RESET(self->fd, 2, 0);
}

/* Even with checked mode off, the queues belong to their pipes. */
TEST_F(issue, unchecked_queues_still_in_order)
{
	long long a, b;

	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_MTE2));
	/* Unchecked: anyone may issue, hand-written IDs included. */
	a = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 3 % self->ids);
	b = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	ASSERT_LT(0, b);
	ASSERT_EQ(-EPERM, asc_execute(self->fd, a, 0));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, b));
	ASSERT_EQ(0, W_EXEC(&self->mte2, a));
	ASSERT_EQ(3 % self->ids ? 0 : -EBUSY, W_EXEC(&self->mte2, b));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	if (3 % self->ids) {
		ASSERT_EQ(0, asc_wait(self->fd, EV, 3 % self->ids, 0));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/* A set whose flag is still set: EBUSY, and the ticket is gone. */
TEST_F(issue, double_set_busy)
{
	long long a, b;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	a = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	b = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	ASSERT_EQ(0, W_EXEC(&self->mte2, a));
	ASSERT_EQ(-EBUSY, W_EXEC(&self->mte2, b));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, b));
	ASSERT_RESET(self->fd, 1, 1);
}

/* V_V and FIX_FIX are barriers within a pipe: no flag. */
TEST_F(issue, barrier_events_set_no_flag)
{
	struct asc_worker *fix = &self->s;
	long long t[4];

	ASSERT_EQ(0, W_BIND(fix, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_FIX_FIX));
	t[0] = asc_issue(self->fd, ASC_EVENT_OP_SET, ASC_EVENT_V_V, 0);
	t[1] = asc_issue(self->fd, ASC_EVENT_OP_SET, ASC_EVENT_V_V, 0);
	t[2] = asc_issue(self->fd, ASC_EVENT_OP_WAIT, ASC_EVENT_V_V, 0);
	t[3] = asc_issue(self->fd, ASC_EVENT_OP_WAIT, ASC_EVENT_FIX_FIX, 0);
	ASSERT_EQ(0, W_EXEC(&self->v, t[0]));
	ASSERT_EQ(0, W_EXEC(&self->v, t[1]));
	ASSERT_EQ(0, W_EXEC(&self->v, t[2]));
	ASSERT_EQ(0, W_EXEC(fix, t[3]));
	ASSERT_RESET(self->fd, 2, 0);
}

/* A reset drops the tickets, and cancels a wait running one. */
TEST_F(issue, reset_drops_tickets)
{
	long long set, wait;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_EQ(0, W_EXEC_POST(&self->v, wait, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&self->v, BLOCK_MS));
	ASSERT_RESET(self->fd, 1, 0);
	ASSERT_EQ(-ECANCELED, asc_worker_result(&self->v, BLOCK_MS));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->mte2, set));
	ASSERT_EQ(-EINVAL, W_EXEC(&self->v, wait));
	/* The queues work on. */
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_EQ(0, W_EXEC(&self->mte2, set));
	ASSERT_EQ(0, W_EXEC(&self->v, wait));
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * A wait that a reset cancels takes only its own ticket with it: the
 * scalar's next tickets, issued after the reset but before the canceled
 * wait has returned, stay.  The main thread runs as SCHED_FIFO on the CPU
 * of V's thread, so that V's woken thread cannot run before it has issued.
 */
TEST_F(issue, canceled_wait_leaves_the_next_ticket)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };
	cpu_set_t cpu, saved;
	long long set, wait;
	int ret;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(saved), &saved));
	CPU_ZERO(&cpu);
	CPU_SET(sched_getcpu(), &cpu);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu), &cpu));
	ASSERT_EQ(0, sched_setaffinity(atomic_load(&self->v.tid), sizeof(cpu), &cpu));

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_EQ(0, W_EXEC_POST(&self->v, wait, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&self->v, BLOCK_MS));
	ret = pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo);
	if (ret == EPERM)
		SKIP(return, "%s: no SCHED_FIFO here", _metadata->name);
	ASSERT_EQ(0, ret);
	ret = asc_reset(self->fd, NULL);
	if (!ret)
		ret = asc_alloc(self->fd, EV);
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_EQ(0, pthread_setschedparam(pthread_self(), SCHED_OTHER, &other));
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(saved), &saved));
	ASSERT_EQ(0, ret);
	ASSERT_LT(0, set);
	ASSERT_LT(0, wait);
	ASSERT_EQ(-ECANCELED, asc_worker_result(&self->v, BLOCK_MS));
	ASSERT_EQ(0, W_EXEC(&self->mte2, set));
	ASSERT_EQ(0, W_EXEC(&self->v, wait)) TH_LOG("the wait issued after the reset is gone");
	ASSERT_RESET(self->fd, 1, 0);
}

/* Waits run from tickets take part in deadlock detection. */
TEST_F(issue, executed_waits_deadlock)
{
	long long w1, w2;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	w1 = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	w2 = asc_issue(self->fd, ASC_EVENT_OP_WAIT, ASC_EVENT_V_MTE2, 0);
	ASSERT_EQ(0, W_EXEC_POST(&self->v, w1, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&self->v, BLOCK_MS));
	ASSERT_EQ(-EDEADLK, W_EXEC(&self->mte2, w2));
	ASSERT_EQ(-EDEADLK, asc_worker_result(&self->v, BLOCK_MS));
	/* Both tickets ran (and failed): gone. */
	ASSERT_EQ(-EINVAL, W_EXEC(&self->v, w1));
	ASSERT_RESET(self->fd, 2, 0);
}

static void on_signal(int sig)
{
	(void)sig;
}

/* A wait interrupted by a signal keeps its ticket: run it again. */
TEST_F(issue, interrupted_wait_keeps_ticket)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long long set, wait;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_EQ(0, W_EXEC_POST(&self->v, wait, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&self->v, BLOCK_MS));
	ASSERT_EQ(0, pthread_kill(self->v.thread, SIGUSR1));
	ASSERT_EQ(-EINTR, asc_worker_result(&self->v, BLOCK_MS));
	ASSERT_EQ(0, W_EXEC(&self->mte2, set));
	ASSERT_EQ(0, W_EXEC(&self->v, wait));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_HARNESS_MAIN
