// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: deadlock detection.
 *
 * In checked mode a bound thread that waits forever for (E, id) is stuck
 * and waits for the thread bound to SRC(E), the only thread that may set
 * E while it lives.  When stuck threads wait for each other in a cycle (V
 * waiting on V_V by itself is one), every waiter on the cycle fails with
 * -EDEADLK, the counters "deadlocks" (+1 per cycle) and "err_deadlock" (+1
 * per failed waiter) go up and the kernel log gets one report:
 *
 *   asc_event: deadlock in TPipe <n> (<comm>[<tgid>]):
 *   asc_event:   <PIPE> waits for <EVENT> id <id>, set by <SRCPIPE>
 *   asc_event:   allocated: <EVENT>:<ids> ...   (or "none")
 *   asc_event:   set: <EVENT>:<ids> ...         (or "none")
 *
 * It must never fire while a thread in the chain could still set the flag:
 * the setter pipe is unbound, running, in a timed wait or exited; nor for
 * an unbound waiter, or with checked mode off.  A wait whose chain only
 * leads into a cycle stays blocked: the cycle's threads come back from
 * -EDEADLK and may still set its flag.  After -EDEADLK the TPipe works on.
 *
 * One worker thread per pipe (asc_test_threads.h), bound as a test needs;
 * the main thread stays unbound.  Every test reads the counters and the
 * kernel log from its start on.
 */
#include "asc_event_test.h"

#include <sched.h>

/* The process name the reports must show (set before the open). */
#define COMM		"asc_deadlock"

/* Long enough for a thread to reach its ioctl in a slow guest. */
#define BLOCK_MS	2000

/* A deadlock is detected when the cycle closes: well within this. */
#define QUICK_MS	1000

/* How long a wait that must not end is watched. */
#define HOLD_MS		150

/* The first line of a deadlock report starts with this. */
#define REPORT_HEAD	"asc_event: deadlock in TPipe "

/* Index in the fixture's workers of the thread that is never bound. */
#define UNBOUND		ASC_NR_PIPES

FIXTURE(deadlock) {
	int fd;
	int ids;
	int serial;
	struct asc_worker w[ASC_NR_PIPES + 1];
	struct asc_kmsg kmsg;
	struct asc_stats base;
	struct asc_text log;
};

FIXTURE_SETUP(deadlock)
{
	asc_set_comm(COMM);
	self->fd = asc_opened_or_skip(_metadata, asc_open_serial(&self->serial));
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(self->fd));
	ASSERT_EQ(0, asc_kmsg_open(&self->kmsg)) TH_LOG("/dev/kmsg: %s", strerror(errno));
	asc_stats_read(_metadata, &self->base);
	asc_workers_start(_metadata, self->w, ASC_NR_PIPES + 1, self->fd);
}

FIXTURE_TEARDOWN(deadlock)
{
	asc_workers_stop(self->w, ASC_NR_PIPES + 1, self->fd);
	if (self->fd >= 0)
		close(self->fd);
	asc_kmsg_close(&self->kmsg);
	asc_text_free(&self->log);
}

/* The worker that stands for @pipe (not bound until bind_pipe()). */
static struct asc_worker *worker(FIXTURE_DATA(deadlock) *self, int pipe)
{
	int i;

	for (i = 0; i < ASC_NR_PIPES; i++) {
		if (asc_pipe_at(i) == pipe)
			return &self->w[i];
	}
	return &self->w[UNBOUND];
}

static struct asc_worker *bind_pipe(struct __test_metadata *_metadata,
				    FIXTURE_DATA(deadlock) *self, int pipe)
{
	struct asc_worker *w = worker(self, pipe);

	ASSERT_EQ(0, W_BIND(w, pipe)) TH_LOG("bind %s", asc_pipe_name(pipe));
	return w;
}

/* Start a forever wait on @w and assert it blocks. */
static void block(struct __test_metadata *_metadata, struct asc_worker *w, int event, int id)
{
	ASSERT_EQ(0, W_WAIT_POST(w, event, id, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(w, BLOCK_MS)) {
		TH_LOG("wait for %s:%d returned %d instead of blocking", asc_event_name(event), id,
		       asc_worker_result(w, 0));
	}
}

/* A forever wait on @w that must fail with -EDEADLK at once. */
static void deadlocks_now(struct __test_metadata *_metadata, struct asc_worker *w, int event,
			  int id)
{
	__u64 start = asc_now_ns();

	ASSERT_EQ(-EDEADLK, W_WAIT(w, event, id, ASC_EVENT_WAIT_FOREVER)) {
		TH_LOG("wait for %s:%d", asc_event_name(event), id);
	}
	ASSERT_GT(QUICK_MS, asc_ms_since(start));
}

/* Assert @w's blocked wait ended with @ret. */
static void ended(struct __test_metadata *_metadata, struct asc_worker *w, int ret)
{
	ASSERT_EQ(ret, asc_worker_result(w, BLOCK_MS)) TH_LOG("thread %d", atomic_load(&w->tid));
}

/* Assert @w's wait is still blocked after a while. */
static void still_blocked(struct __test_metadata *_metadata, struct asc_worker *w)
{
	ASSERT_EQ(ASC_WORKER_BUSY, asc_worker_result(w, HOLD_MS)) {
		TH_LOG("a wait that nothing ended returned %d", asc_worker_result(w, 0));
	}
}

/*
 * Assert what happened since the last check: @cycles more deadlocks,
 * @failed more -EDEADLK, @cycles report headers in the log.  Keeps the new
 * log lines in self->log for check_report().
 */
static void expect_deadlocks(struct __test_metadata *_metadata, FIXTURE_DATA(deadlock) *self,
			     int cycles, int failed)
{
	struct asc_stats now;

	asc_stats_read(_metadata, &now);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	EXPECT_EQ(cycles, now.v[ST_DEADLOCKS] - self->base.v[ST_DEADLOCKS]);
	EXPECT_EQ(failed, now.v[ST_ERR_DEADLOCK] - self->base.v[ST_ERR_DEADLOCK]);
	EXPECT_EQ(cycles, asc_count_lines(asc_text_str(&self->log),
					  REPORT_HEAD));
	ASSERT_TRUE(_metadata->passed) TH_LOG("log since the last check:\n%s",
					      asc_text_str(&self->log));
	self->base = now;
}

/*
 * Assert the report in self->log: its first line names this TPipe and
 * process, and its detail lines are exactly @lines (any order),
 * NULL-terminated.
 */
static void check_report(struct __test_metadata *_metadata, FIXTURE_DATA(deadlock) *self,
			 const char *const *lines)
{
	const char *log = asc_text_str(&self->log), *h;
	char head[128];
	int n;

	ASSERT_EQ(1, asc_count_lines(log, REPORT_HEAD)) TH_LOG("%s", log);
	if (self->serial > 0) {
		snprintf(head, sizeof(head), REPORT_HEAD "%d (%s[%d]):", self->serial, COMM,
			 getpid());
		ASSERT_EQ(1, asc_count_lines(log, head)) TH_LOG("no \"%s\" in:\n%s", head, log);
	} else {
		snprintf(head, sizeof(head), " (%s[%d]):", COMM, getpid());
		h = strstr(log, REPORT_HEAD);
		ASSERT_TRUE(h != NULL);
		h = strstr(h + strlen(REPORT_HEAD), head);
		ASSERT_TRUE(h != NULL) TH_LOG("no \"%s\" in:\n%s", head, log);
	}
	for (n = 0; lines[n]; n++) {
		ASSERT_EQ(1, asc_count_line(log, lines[n])) TH_LOG("\"%s\" in:\n%s", lines[n], log);
	}
	ASSERT_EQ(n, asc_count_lines(log, "asc_event:   ")) TH_LOG("detail lines of:\n%s", log);
}

TEST_F(deadlock, two_pipe_cycle)
{
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	const char *const report[] = {
		"asc_event:   V waits for MTE3_V id 0, set by MTE3",
		"asc_event:   MTE3 waits for V_MTE3 id 0, set by V",
		"asc_event:   allocated: MTE3_V:0 V_MTE3:0",
		"asc_event:   set: none",
		NULL
	};
	int round;

	asc_kmsg_settle(REPORT_HEAD, 2);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE3));
	for (round = 0; round < 2; round++) {
		if (round == 0) {
			block(_metadata, v, ASC_EVENT_MTE3_V, 0);
			deadlocks_now(_metadata, m3, ASC_EVENT_V_MTE3, 0);
			ended(_metadata, v, -EDEADLK);
		} else {
			block(_metadata, m3, ASC_EVENT_V_MTE3, 0);
			deadlocks_now(_metadata, v, ASC_EVENT_MTE3_V, 0);
			ended(_metadata, m3, -EDEADLK);
		}
		expect_deadlocks(_metadata, self, 1, 2);
		check_report(_metadata, self, report);
	}

	/* Usable: the same flags pass when set by their source pipes. */
	ASSERT_EQ(0, W_SET(m3, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_MTE3_V, 0, ASC_EVENT_WAIT_FOREVER));
	block(_metadata, m3, ASC_EVENT_V_MTE3, 0);
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_MTE3, 0));
	ended(_metadata, m3, 0);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE3, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(deadlock, barrier_waiting_on_itself)
{
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *fix = bind_pipe(_metadata, self, ASC_EVENT_PIPE_FIX);
	const char *const report_v[] = {
		"asc_event:   V waits for V_V id 0, set by V",
		"asc_event:   allocated: V_V:0 FIX_FIX:0",
		"asc_event:   set: none",
		NULL
	};
	const char *const report_fix[] = {
		"asc_event:   FIX waits for FIX_FIX id 0, set by FIX",
		"asc_event:   allocated: V_V:0 FIX_FIX:0",
		"asc_event:   set: none",
		NULL
	};

	asc_kmsg_settle(REPORT_HEAD, 2);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_FIX_FIX));
	/* A flag that is set ends the wait: no deadlock. */
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_V, 0));
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_V_V, 0, ASC_EVENT_WAIT_FOREVER));
	/* A timed wait is never a deadlock. */
	ASSERT_EQ(-ETIMEDOUT, W_WAIT(v, ASC_EVENT_V_V, 0, asc_deadline_ms(50)));
	expect_deadlocks(_metadata, self, 0, 0);

	deadlocks_now(_metadata, v, ASC_EVENT_V_V, 0);
	expect_deadlocks(_metadata, self, 1, 1);
	check_report(_metadata, self, report_v);

	deadlocks_now(_metadata, fix, ASC_EVENT_FIX_FIX, 0);
	expect_deadlocks(_metadata, self, 1, 1);
	check_report(_metadata, self, report_fix);

	ASSERT_EQ(0, W_SET(fix, ASC_EVENT_FIX_FIX, 0));
	ASSERT_EQ(0, W_WAIT(fix, ASC_EVENT_FIX_FIX, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_FIX_FIX, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(deadlock, three_pipe_cycle)
{
	struct asc_worker *s = bind_pipe(_metadata, self, ASC_EVENT_PIPE_S);
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m2 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE2);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	const char *const report[] = {
		"asc_event:   MTE2 waits for V_MTE2 id 0, set by V",
		"asc_event:   V waits for MTE3_V id 0, set by MTE3",
		"asc_event:   MTE3 waits for MTE2_MTE3 id 0, set by MTE2",
		"asc_event:   allocated: V_MTE2:0 MTE3_V:0 MTE2_MTE3:0 S_V:0,1",
		"asc_event:   set: S_V:1",
		NULL
	};

	asc_kmsg_settle(REPORT_HEAD, 1);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_S_V));
	ASSERT_EQ(1, asc_alloc(self->fd, ASC_EVENT_S_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE2_MTE3));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	/* A flag set for a pipe outside the cycle does not help it. */
	ASSERT_EQ(0, W_SET(s, ASC_EVENT_S_V, 1));

	block(_metadata, m2, ASC_EVENT_V_MTE2, 0);
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	deadlocks_now(_metadata, m3, ASC_EVENT_MTE2_MTE3, 0);
	ended(_metadata, m2, -EDEADLK);
	ended(_metadata, v, -EDEADLK);
	expect_deadlocks(_metadata, self, 1, 3);
	check_report(_metadata, self, report);

	/* The set flag is still there for V. */
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_S_V, 1, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_S_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_S_V, 1));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE2_MTE3, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE2, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * S waits for V, which ends up in a cycle with MTE3: V and MTE3 fail, S
 * waits on, for V (back from -EDEADLK) may still set its flag, and does.
 * M waits for FIX, which runs: M is left alone and gets its flag later.
 */
TEST_F(deadlock, chain_into_cycle_waits_on)
{
	struct asc_worker *s = bind_pipe(_metadata, self, ASC_EVENT_PIPE_S);
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m = bind_pipe(_metadata, self, ASC_EVENT_PIPE_M);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	struct asc_worker *fix = bind_pipe(_metadata, self, ASC_EVENT_PIPE_FIX);
	const char *const report[] = {
		"asc_event:   V waits for MTE3_V id 0, set by MTE3",
		"asc_event:   MTE3 waits for V_MTE3 id 0, set by V",
		"asc_event:   allocated: MTE3_V:0 V_MTE3:0 FIX_M:0 V_S:0",
		"asc_event:   set: none",
		NULL
	};

	asc_kmsg_settle(REPORT_HEAD, 1);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_FIX_M));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE3));
	block(_metadata, s, ASC_EVENT_V_S, 0);
	block(_metadata, m, ASC_EVENT_FIX_M, 0);
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	deadlocks_now(_metadata, m3, ASC_EVENT_V_MTE3, 0);
	ended(_metadata, v, -EDEADLK);
	still_blocked(_metadata, s);
	still_blocked(_metadata, m);
	expect_deadlocks(_metadata, self, 1, 2);
	check_report(_metadata, self, report);

	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_S, 0));
	ended(_metadata, s, 0);
	ASSERT_EQ(0, W_SET(fix, ASC_EVENT_FIX_M, 0));
	ended(_metadata, m, 0);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_S, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_FIX_M, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE3, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* The setter pipe is bound and busy (sleeping): the waits just wait. */
TEST_F(deadlock, running_setter_not_a_deadlock)
{
	struct asc_worker *s = bind_pipe(_metadata, self, ASC_EVENT_PIPE_S);
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	__u64 start;

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_EQ(0, asc_worker_post(m3, ASC_OP_SET, ASC_EVENT_MTE3_V, 0, 0, 200));
	start = asc_now_ns();
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_MTE3_V, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_LE(150, asc_ms_since(start));
	ended(_metadata, m3, 0);

	/* A chain S -> V -> MTE3 that ends in the running MTE3. */
	ASSERT_EQ(0, asc_worker_post(m3, ASC_OP_SET, ASC_EVENT_MTE3_V, 0, 0, 200));
	block(_metadata, s, ASC_EVENT_V_S, 0);
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_MTE3_V, 0, ASC_EVENT_WAIT_FOREVER));
	ended(_metadata, m3, 0);
	still_blocked(_metadata, s);
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_S, 0));
	ended(_metadata, s, 0);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_S, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* Nobody stands for the setter pipe: the waits time out or wait on. */
TEST_F(deadlock, unbound_setter_not_a_deadlock)
{
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m2 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE2);
	__u64 deadline;

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	deadline = asc_deadline_ms(300);
	ASSERT_EQ(-ETIMEDOUT, W_WAIT(v, ASC_EVENT_MTE3_V, 0, deadline));
	ASSERT_LE(deadline, asc_now_ns());

	/* Forever: MTE2 -> V -> MTE3, and nobody is MTE3. */
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	block(_metadata, m2, ASC_EVENT_V_MTE2, 0);
	still_blocked(_metadata, v);
	still_blocked(_metadata, m2);
	expect_deadlocks(_metadata, self, 0, 0);

	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_MTE3_V, 0));
	ended(_metadata, v, 0);
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_MTE2, 0));
	ended(_metadata, m2, 0);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE2, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * The thread bound to the setter pipe exited: no deadlock.  A new thread
 * that takes the pipe over and closes the cycle makes one.
 */
TEST_F(deadlock, exited_setter_not_a_deadlock)
{
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	struct asc_worker *heir = &self->w[UNBOUND];

	asc_kmsg_settle(REPORT_HEAD, 1);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE3));
	ASSERT_EQ(0, asc_worker_stop(m3));
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	still_blocked(_metadata, v);
	expect_deadlocks(_metadata, self, 0, 0);

	ASSERT_EQ(0, W_BIND(heir, ASC_EVENT_PIPE_MTE3));
	deadlocks_now(_metadata, heir, ASC_EVENT_V_MTE3, 0);
	ended(_metadata, v, -EDEADLK);
	expect_deadlocks(_metadata, self, 1, 2);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE3, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * A timed wait in the would-be cycle is no deadlock, whichever side it is
 * on; once the timed wait has ended and becomes a forever one, it is.
 */
TEST_F(deadlock, timed_wait_in_cycle)
{
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	__u64 deadline;

	asc_kmsg_settle(REPORT_HEAD, 1);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE3));

	/* V forever, MTE3 timed: MTE3 times out, then sets V's flag. */
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	deadline = asc_deadline_ms(300);
	ASSERT_EQ(-ETIMEDOUT, W_WAIT(m3, ASC_EVENT_V_MTE3, 0, deadline));
	ASSERT_LE(deadline, asc_now_ns());
	still_blocked(_metadata, v);
	ASSERT_EQ(0, W_SET(m3, ASC_EVENT_MTE3_V, 0));
	ended(_metadata, v, 0);
	expect_deadlocks(_metadata, self, 0, 0);

	/* V timed, MTE3 forever: V times out; MTE3 waits on. */
	ASSERT_EQ(0, W_WAIT_POST(v, ASC_EVENT_MTE3_V, 0, asc_deadline_ms(300)));
	ASSERT_TRUE(asc_worker_blocked(v, BLOCK_MS));
	block(_metadata, m3, ASC_EVENT_V_MTE3, 0);
	ended(_metadata, v, -ETIMEDOUT);
	still_blocked(_metadata, m3);
	expect_deadlocks(_metadata, self, 0, 0);

	/* Now V waits forever too: that closes the cycle. */
	deadlocks_now(_metadata, v, ASC_EVENT_MTE3_V, 0);
	ended(_metadata, m3, -EDEADLK);
	expect_deadlocks(_metadata, self, 1, 2);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE3, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* An unbound thread's forever wait is not part of the graph. */
TEST_F(deadlock, unbound_waiter_not_a_deadlock)
{
	struct asc_worker *u = &self->w[UNBOUND];
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE3));

	/* Where a bound V would deadlock on its own barrier. */
	block(_metadata, u, ASC_EVENT_V_V, 0);
	still_blocked(_metadata, u);
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_V, 0));
	ended(_metadata, u, 0);

	/* Where V would close a cycle with MTE3, but V's thread is not bound. */
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_NONE));
	block(_metadata, m3, ASC_EVENT_V_MTE3, 0);
	block(_metadata, u, ASC_EVENT_MTE3_V, 0);
	still_blocked(_metadata, m3);
	still_blocked(_metadata, u);
	expect_deadlocks(_metadata, self, 0, 0);

	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_MTE3, 0));
	ended(_metadata, m3, 0);
	ASSERT_EQ(0, W_SET(m3, ASC_EVENT_MTE3_V, 0));
	ended(_metadata, u, 0);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE3, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(deadlock, checked_mode_off_no_detection)
{
	struct asc_worker *v = worker(self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = worker(self, ASC_EVENT_PIPE_MTE3);
	struct asc_worker *fix = worker(self, ASC_EVENT_PIPE_FIX);
	long long canceled = asc_test_stat_read("err_canceled");

	asc_kmsg_settle(REPORT_HEAD, 1);
	/* The mode is chosen before the pipes are manned. */
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	bind_pipe(_metadata, self, ASC_EVENT_PIPE_FIX);
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED));
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	block(_metadata, m3, ASC_EVENT_V_MTE3, 0);
	block(_metadata, fix, ASC_EVENT_FIX_FIX, 0);
	still_blocked(_metadata, v);
	still_blocked(_metadata, m3);
	still_blocked(_metadata, fix);
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED));
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_RESET(self->fd, 0, 0);
	ended(_metadata, v, -ECANCELED);
	ended(_metadata, m3, -ECANCELED);
	ended(_metadata, fix, -ECANCELED);
	ASSERT_EQ(canceled + 3, asc_test_stat_read("err_canceled"));

	/* Back on, once no pipe is manned. */
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(m3, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED));
	ASSERT_EQ(0, W_BIND(fix, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED));
	bind_pipe(_metadata, self, ASC_EVENT_PIPE_FIX);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_FIX_FIX));
	deadlocks_now(_metadata, fix, ASC_EVENT_FIX_FIX, 0);
	expect_deadlocks(_metadata, self, 1, 1);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_FIX_FIX, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * While a live thread owns a pipe, another thread's set of that pipe's
 * flags is refused at once, before the ID and double-set checks, and
 * changes nothing: detection stays on.  A pipe nobody owns may be set by
 * anyone, and then a wait for it is no deadlock.
 */
TEST_F(deadlock, owned_pipes_set_only_by_their_thread)
{
	struct asc_worker *s = bind_pipe(_metadata, self, ASC_EVENT_PIPE_S);
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	struct asc_worker *m3 = bind_pipe(_metadata, self, ASC_EVENT_PIPE_MTE3);
	struct asc_worker *fix = bind_pipe(_metadata, self, ASC_EVENT_PIPE_FIX);
	struct asc_worker *u = &self->w[UNBOUND];
	long long wrong = asc_test_stat_read("err_wrong_pipe");
	const int ev[4] = {
		ASC_EVENT_S_V, ASC_EVENT_FIX_FIX, ASC_EVENT_MTE3_V, ASC_EVENT_V_MTE3,
	};
	int i;

	asc_kmsg_settle(REPORT_HEAD, 2);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, asc_alloc(self->fd, ev[i]));
	}
	ASSERT_EQ(0, W_SET(s, ASC_EVENT_S_V, 0));
	ASSERT_EQ(-EPERM, asc_set(self->fd, ASC_EVENT_S_V, 0));
	ASSERT_EQ(-EPERM, asc_set(self->fd, ASC_EVENT_S_V, self->ids - 1));
	ASSERT_EQ(-EPERM, W_SET(u, ASC_EVENT_FIX_FIX, 0));
	ASSERT_EQ(-EPERM, W_SET(u, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(-EINVAL, asc_set(self->fd, ASC_EVENT_S_V, self->ids));
	if (wrong >= 0) {
		ASSERT_EQ(wrong + 4, asc_test_stat_read("err_wrong_pipe"));
	}
	deadlocks_now(_metadata, fix, ASC_EVENT_FIX_FIX, 0);
	expect_deadlocks(_metadata, self, 1, 1);
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	deadlocks_now(_metadata, m3, ASC_EVENT_V_MTE3, 0);
	ended(_metadata, v, -EDEADLK);
	expect_deadlocks(_metadata, self, 1, 2);
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_S_V, 0, 0));

	/* MTE3 unmanned: the main thread may stand in for it. */
	ASSERT_EQ(0, W_BIND(m3, ASC_EVENT_PIPE_NONE));
	block(_metadata, v, ASC_EVENT_MTE3_V, 0);
	still_blocked(_metadata, v);
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_MTE3_V, 0));
	ended(_metadata, v, 0);
	expect_deadlocks(_metadata, self, 0, 0);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, asc_release(self->fd, ev[i], 0));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/**
 * struct fifo_v - a V thread that can be woken and kept from running.
 * @thread: the thread, SCHED_FIFO below the test's own priority, on CPU 0.
 * @fd: the device.
 * @tid: its TID once running.
 * @ret: its forever wait for MTE2_V:0, bound to V.
 * @set_ret: then its set of V_MTE2:0, which ends the test's wait.
 */
struct fifo_v {
	pthread_t thread;
	int fd;
	atomic_int tid;
	int ret;
	int set_ret;
};

static void *fifo_v_fn(void *arg)
{
	struct fifo_v *v = arg;

	atomic_store(&v->tid, asc_gettid());
	v->ret = asc_bind(v->fd, ASC_EVENT_PIPE_V);
	if (!v->ret)
		v->ret = asc_wait(v->fd, ASC_EVENT_MTE2_V, 0, ASC_EVENT_WAIT_FOREVER);
	v->set_ret = v->ret ? v->ret : asc_set(v->fd, ASC_EVENT_V_MTE2, 0);
	return NULL;
}

/*
 * Make the calling thread SCHED_FIFO at @prio on CPU 0 and start @v there
 * at a lower priority, blocked in its wait: from now on, a set that wakes
 * @v leaves it runnable but not running until this thread blocks.  Returns
 * false (the test skipped) without the privilege to do so.
 */
static bool start_fifo_v(struct __test_metadata *_metadata, struct fifo_v *v, int fd)
{
	struct sched_param hi = { .sched_priority = 20 }, lo = { .sched_priority = 10 };
	pthread_attr_t attr;
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &hi))
		SKIP(return false, "%s: SCHED_FIFO on CPU 0: %s", _metadata->name, strerror(errno));
	v->fd = fd;
	ASSERT_EQ(0, pthread_attr_init(&attr)) return false;
	ASSERT_EQ(0, pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED)) return false;
	ASSERT_EQ(0, pthread_attr_setschedpolicy(&attr, SCHED_FIFO)) return false;
	ASSERT_EQ(0, pthread_attr_setschedparam(&attr, &lo)) return false;
	ASSERT_EQ(0, pthread_attr_setaffinity_np(&attr, sizeof(cpu0), &cpu0)) return false;
	ASSERT_EQ(0, pthread_create(&v->thread, &attr, fifo_v_fn, v)) return false;
	pthread_attr_destroy(&attr);
	while (!atomic_load(&v->tid))
		asc_sleep_ms(1);
	ASSERT_TRUE(asc_wait_in_ioctl(getpid(), atomic_load(&v->tid), BLOCK_MS)) return false;
	return true;
}

/*
 * A waiter already handed its flag but not yet running is no stuck thread:
 * MTE2 sets MTE2_V, which V waits for, and at once (V cannot run before
 * MTE2 blocks) waits forever for V_MTE2, which V sets once it runs.
 */
TEST_F(deadlock, woken_waiter_not_yet_running_is_not_stuck)
{
	struct fifo_v v = { 0 };

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE2_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_MTE2));
	if (!start_fifo_v(_metadata, &v, self->fd))
		return;
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_MTE2_V, 0));
	ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_V_MTE2, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, pthread_join(v.thread, NULL));
	ASSERT_EQ(0, v.ret);
	ASSERT_EQ(0, v.set_ret);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE2_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE2, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * The same with the set from an unbound thread, while nobody owns MTE2,
 * handed straight to V; then that thread takes MTE2 and waits forever for
 * V_MTE2.  V holds its flag already: no cycle.
 */
TEST_F(deadlock, unbound_set_handed_to_a_waiter)
{
	struct fifo_v v = { 0 };

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE2_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	if (!start_fifo_v(_metadata, &v, self->fd))
		return;
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_MTE2_V, 0));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_V_MTE2, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, pthread_join(v.thread, NULL));
	ASSERT_EQ(0, v.ret);
	ASSERT_EQ(0, v.set_ret);
	expect_deadlocks(_metadata, self, 0, 0);
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE2_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE2, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* A V_V barrier on a fetched ID: reused once fine, then waited on alone. */
TEST_F(deadlock, fetched_id_barrier)
{
	struct asc_worker *v = bind_pipe(_metadata, self, ASC_EVENT_PIPE_V);
	const char *const report[] = {
		"asc_event:   V waits for V_V id 0, set by V",
		"asc_event:   allocated: none",
		"asc_event:   set: none",
		NULL
	};

	asc_kmsg_settle(REPORT_HEAD, 1);
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_V, 0));
	ASSERT_EQ(0, W_WAIT(v, ASC_EVENT_V_V, 0, ASC_EVENT_WAIT_FOREVER));
	deadlocks_now(_metadata, v, ASC_EVENT_V_V, 0);
	expect_deadlocks(_metadata, self, 1, 1);
	check_report(_metadata, self, report);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_HARNESS_MAIN
