// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: in checked mode a program's outcome does not depend
 * on timing.
 *
 * The rule that makes it so: while a live thread is bound to a pipe, only
 * that thread may set the flags whose source is that pipe (anyone else gets
 * -EPERM at once), and the mode cannot change (-EBUSY).  A cycle of bound
 * threads waiting forever for one another is then final: it fails with
 * -EDEADLK the moment it closes, and nothing any other thread does, before
 * or after, changes that.  A wait that only leads into the cycle is no part
 * of it and stays a wait.
 *
 * Every test runs one program twice on a fresh TPipe: once with a third
 * party's action (a set by the main thread, a RESET, SET_MODE, a set by a
 * forked child, a wait that leads into the cycle) before the cycle of V and
 * MTE2 closes, once after, and asserts the same outcome both times.  On the
 * driver before this rule the two orders gave different results.
 */
#include "asc_event_test.h"

/* Long enough for a thread to reach its ioctl in a slow guest. */
#define BLOCK_MS	2000

/* How long a wait that must not end is watched. */
#define HOLD_MS		300

/* The two rounds of every test: the action before or after the cycle closes. */
enum { BEFORE, AFTER };

FIXTURE(timing) {
	int fd;
	struct asc_worker v, m2, s;
};

FIXTURE_SETUP(timing)
{
	int fd = asc_open_or_skip(_metadata);

	close(fd);
	self->fd = -1;
	ASSERT_EQ(0, asc_worker_start(&self->v, -1));
	ASSERT_EQ(0, asc_worker_start(&self->m2, -1));
	ASSERT_EQ(0, asc_worker_start(&self->s, -1));
}

FIXTURE_TEARDOWN(timing)
{
	if (self->fd >= 0)
		asc_reset(self->fd, NULL);
	asc_worker_stop(&self->v);
	asc_worker_stop(&self->m2);
	asc_worker_stop(&self->s);
	if (self->fd >= 0)
		close(self->fd);
}

/**
 * struct outcome - what one round of a program did.
 * @action: the third party's call: its result.
 * @v: V's forever wait for MTE2_V:0, %ASC_WORKER_BUSY if still blocked.
 * @m2: MTE2's forever wait for V_MTE2:0, likewise.
 * @s: S's forever wait for V_S:0, when the program has one.
 * @cycles: deadlocks the driver counted in the round.
 */
struct outcome {
	int action;
	int v;
	int m2;
	int s;
	long long cycles;
};

/*
 * Begin a round: a fresh TPipe, V and MTE2 bound on it (and S when @with_s),
 * MTE2_V:0 and V_MTE2:0 allocated.
 */
static void round_start(struct __test_metadata *_metadata, FIXTURE_DATA(timing) *self,
			bool with_s)
{
	if (self->fd >= 0)
		close(self->fd);
	self->fd = asc_open();
	ASSERT_LE(0, self->fd);
	asc_worker_set_fd(&self->v, self->fd);
	asc_worker_set_fd(&self->m2, self->fd);
	asc_worker_set_fd(&self->s, self->fd);
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(&self->m2, ASC_EVENT_PIPE_MTE2));
	if (with_s) {
		ASSERT_EQ(0, W_BIND(&self->s, ASC_EVENT_PIPE_S));
	}
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE2_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
}

/* V starts its forever wait, which must block. */
static void v_blocks(struct __test_metadata *_metadata, FIXTURE_DATA(timing) *self)
{
	ASSERT_EQ(0, W_WAIT_POST(&self->v, ASC_EVENT_MTE2_V, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&self->v, BLOCK_MS));
}

/* MTE2 starts its forever wait: the cycle V <-> MTE2 closes. */
static void cycle_closes(struct __test_metadata *_metadata, FIXTURE_DATA(timing) *self)
{
	ASSERT_EQ(0, W_WAIT_POST(&self->m2, ASC_EVENT_V_MTE2, 0, ASC_EVENT_WAIT_FOREVER));
	/* Ended at once, or blocked: either way the round records it. */
	asc_worker_blocked(&self->m2, HOLD_MS);
}

/* The results of V's and MTE2's waits; a wait still blocked is ended by a reset. */
static void round_end(struct __test_metadata *_metadata, FIXTURE_DATA(timing) *self,
		      struct outcome *o, long long deadlocks0)
{
	o->v = asc_worker_result(&self->v, HOLD_MS);
	o->m2 = asc_worker_result(&self->m2, HOLD_MS);
	o->cycles = asc_test_stat_read("deadlocks") - deadlocks0;
	if (o->v == ASC_WORKER_BUSY || o->m2 == ASC_WORKER_BUSY) {
		ASSERT_EQ(0, asc_reset(self->fd, NULL));
		asc_worker_result(&self->v, BLOCK_MS);
		asc_worker_result(&self->m2, BLOCK_MS);
	}
}

static void expect_same(struct __test_metadata *_metadata, const struct outcome *o)
{
	ASSERT_EQ(o[BEFORE].action, o[AFTER].action);
	ASSERT_EQ(o[BEFORE].v, o[AFTER].v);
	ASSERT_EQ(o[BEFORE].m2, o[AFTER].m2);
	ASSERT_EQ(o[BEFORE].s, o[AFTER].s);
	ASSERT_EQ(o[BEFORE].cycles, o[AFTER].cycles);
}

/*
 * The program: V waits forever for MTE2_V, MTE2 forever for V_MTE2,
 * and the unbound main thread "primes" MTE2_V.  MTE2 has its own thread, so
 * the set is refused at once, whether it comes before the cycle closes or
 * 300 ms after; the cycle fails both times.
 */
TEST_F(timing, unbound_set_of_an_owned_pipe)
{
	struct outcome o[2] = {};
	long long d0;
	int order;

	for (order = BEFORE; order <= AFTER; order++) {
		round_start(_metadata, self, false);
		d0 = asc_test_stat_read("deadlocks");
		v_blocks(_metadata, self);
		if (order == BEFORE)
			o[order].action = asc_set(self->fd, ASC_EVENT_MTE2_V, 0);
		cycle_closes(_metadata, self);
		if (order == AFTER) {
			asc_sleep_ms(HOLD_MS);
			o[order].action = asc_set(self->fd, ASC_EVENT_MTE2_V, 0);
		}
		round_end(_metadata, self, &o[order], d0);
		TH_LOG("order %d: set %d, V %d, MTE2 %d", order, o[order].action, o[order].v,
		       o[order].m2);
	}
	expect_same(_metadata, o);
	ASSERT_EQ(-EPERM, o[AFTER].action);
	ASSERT_EQ(-EDEADLK, o[AFTER].v);
	ASSERT_EQ(-EDEADLK, o[AFTER].m2);
	ASSERT_EQ(1, o[AFTER].cycles);
}

/*
 * A RESET by another thread does not turn detection on or off.  The main
 * thread has set a flag of a pipe nobody owns (S), which the old driver
 * took as "anyone may set anything": it stopped detecting until the next
 * RESET, so a reset before the cycle closed gave EDEADLK and one after it
 * a hang.
 */
TEST_F(timing, reset_from_another_thread)
{
	struct outcome o[2] = {};
	long long d0;
	int order;

	for (order = BEFORE; order <= AFTER; order++) {
		round_start(_metadata, self, false);
		d0 = asc_test_stat_read("deadlocks");
		ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_S_V));
		ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_S_V, 0));
		if (order == BEFORE) {
			o[order].action = asc_reset(self->fd, NULL);
			ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE2_V));
			ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
		}
		v_blocks(_metadata, self);
		cycle_closes(_metadata, self);
		if (order == AFTER) {
			asc_sleep_ms(HOLD_MS);
			o[order].action = asc_reset(self->fd, NULL);
		}
		round_end(_metadata, self, &o[order], d0);
		TH_LOG("order %d: reset %d, V %d, MTE2 %d", order, o[order].action, o[order].v,
		       o[order].m2);
	}
	expect_same(_metadata, o);
	ASSERT_EQ(0, o[AFTER].action);
	ASSERT_EQ(-EDEADLK, o[AFTER].v);
	ASSERT_EQ(-EDEADLK, o[AFTER].m2);
	ASSERT_EQ(1, o[AFTER].cycles);
}

/*
 * Turning checked mode off while the pipes are manned is refused, before
 * the cycle closes and after: the old driver let it through before (no
 * detection: a hang) and after (the waits had failed already).
 */
TEST_F(timing, set_mode_while_pipes_manned)
{
	struct outcome o[2] = {};
	long long d0;
	int order;

	for (order = BEFORE; order <= AFTER; order++) {
		round_start(_metadata, self, false);
		d0 = asc_test_stat_read("deadlocks");
		v_blocks(_metadata, self);
		if (order == BEFORE)
			o[order].action = asc_set_mode(self->fd, 0);
		cycle_closes(_metadata, self);
		if (order == AFTER) {
			asc_sleep_ms(HOLD_MS);
			o[order].action = asc_set_mode(self->fd, 0);
		}
		round_end(_metadata, self, &o[order], d0);
		TH_LOG("order %d: set_mode %d, V %d, MTE2 %d", order, o[order].action,
		       o[order].v, o[order].m2);
	}
	expect_same(_metadata, o);
	ASSERT_EQ(-EBUSY, o[AFTER].action);
	ASSERT_EQ(-EDEADLK, o[AFTER].v);
	ASSERT_EQ(-EDEADLK, o[AFTER].m2);
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(self->fd));
}

/* A child after fork() shares the TPipe; its set of MTE2's flag: -errno. */
static int child_sets(int fd, int event, int id)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(-asc_set(fd, event, id));
	status = asc_child_wait(pid, BLOCK_MS);
	return status < 0 || status > 255 ? INT_MIN : -status;
}

/* A forked child is just another thread to the TPipe: it may not set MTE2's flags. */
TEST_F(timing, forked_child_set)
{
	struct outcome o[2] = {};
	long long d0;
	int order;

	for (order = BEFORE; order <= AFTER; order++) {
		round_start(_metadata, self, false);
		d0 = asc_test_stat_read("deadlocks");
		v_blocks(_metadata, self);
		if (order == BEFORE)
			o[order].action = child_sets(self->fd, ASC_EVENT_MTE2_V, 0);
		cycle_closes(_metadata, self);
		if (order == AFTER) {
			asc_sleep_ms(HOLD_MS);
			o[order].action = child_sets(self->fd, ASC_EVENT_MTE2_V, 0);
		}
		round_end(_metadata, self, &o[order], d0);
		TH_LOG("order %d: child's set %d, V %d, MTE2 %d", order, o[order].action,
		       o[order].v, o[order].m2);
	}
	expect_same(_metadata, o);
	ASSERT_EQ(-EPERM, o[AFTER].action);
	ASSERT_EQ(-EDEADLK, o[AFTER].v);
	ASSERT_EQ(-EDEADLK, o[AFTER].m2);
}

/*
 * S waits forever for V_S, set by V, which is in the cycle.  S is not part
 * of the cycle: V comes back from -EDEADLK and may still set V_S, so S
 * waits on, whether its wait began before the cycle closed or after, and V
 * then ends it.  The old driver failed S along with the cycle if S came
 * first, and let it wait if it came second.
 */
TEST_F(timing, wait_leading_into_the_cycle)
{
	struct outcome o[2] = {};
	long long d0;
	int order;

	for (order = BEFORE; order <= AFTER; order++) {
		round_start(_metadata, self, true);
		ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_S));
		d0 = asc_test_stat_read("deadlocks");
		v_blocks(_metadata, self);
		if (order == BEFORE) {
			ASSERT_EQ(0, W_WAIT_POST(&self->s, ASC_EVENT_V_S, 0,
						 ASC_EVENT_WAIT_FOREVER));
			ASSERT_TRUE(asc_worker_blocked(&self->s, BLOCK_MS));
		}
		cycle_closes(_metadata, self);
		if (order == AFTER) {
			asc_sleep_ms(HOLD_MS);
			ASSERT_EQ(0, W_WAIT_POST(&self->s, ASC_EVENT_V_S, 0,
						 ASC_EVENT_WAIT_FOREVER));
			asc_worker_blocked(&self->s, BLOCK_MS);
		}
		o[order].s = asc_worker_result(&self->s, HOLD_MS);
		round_end(_metadata, self, &o[order], d0);
		if (o[order].s == ASC_WORKER_BUSY) {
			/* V, back from its failed wait, ends S's. */
			o[order].action = W_SET(&self->v, ASC_EVENT_V_S, 0);
			ASSERT_EQ(0, asc_worker_result(&self->s, BLOCK_MS));
		}
		TH_LOG("order %d: S %d, V %d, MTE2 %d, V's set %d", order, o[order].s,
		       o[order].v, o[order].m2, o[order].action);
	}
	expect_same(_metadata, o);
	ASSERT_EQ(ASC_WORKER_BUSY, o[AFTER].s);
	ASSERT_EQ(0, o[AFTER].action);
	ASSERT_EQ(-EDEADLK, o[AFTER].v);
	ASSERT_EQ(-EDEADLK, o[AFTER].m2);
	ASSERT_EQ(1, o[AFTER].cycles);
}

/*
 * A pipe nobody owns may be set by anyone, and then no wait for it is a
 * deadlock: the main thread ends V's wait, before or after MTE2 (unbound
 * here) waits.
 */
TEST_F(timing, unbound_set_of_an_unowned_pipe)
{
	struct outcome o[2] = {};
	long long d0;
	int order;

	for (order = BEFORE; order <= AFTER; order++) {
		round_start(_metadata, self, false);
		ASSERT_EQ(0, W_BIND(&self->m2, ASC_EVENT_PIPE_NONE));
		d0 = asc_test_stat_read("deadlocks");
		v_blocks(_metadata, self);
		if (order == BEFORE)
			o[order].action = asc_set(self->fd, ASC_EVENT_MTE2_V, 0);
		cycle_closes(_metadata, self);
		if (order == AFTER) {
			asc_sleep_ms(HOLD_MS);
			o[order].action = asc_set(self->fd, ASC_EVENT_MTE2_V, 0);
		}
		o[order].v = asc_worker_result(&self->v, BLOCK_MS);
		if (o[order].v == 0) {
			ASSERT_EQ(0, W_SET(&self->v, ASC_EVENT_V_MTE2, 0));
		}
		round_end(_metadata, self, &o[order], d0);
	}
	expect_same(_metadata, o);
	ASSERT_EQ(0, o[AFTER].action);
	ASSERT_EQ(0, o[AFTER].v);
	ASSERT_EQ(0, o[AFTER].m2);
	ASSERT_EQ(0, o[AFTER].cycles);
}

TEST_HARNESS_MAIN
