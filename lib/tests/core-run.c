// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core runtime on the device: kernels written as one instruction
 * stream, as on the chip, run by asc_core_run() in the test guest
 * (tools/testing/asc-check-guest).  Needs /dev/asc_event; skips without it.
 *
 * - The seed's examples pass in checked and in strict mode: a V work item
 *   tells S through an allocated V_S ID, three times in a row; pyasc's vadd,
 *   alloc(MTE2_V); set; wait; release in a row, fetch(V_MTE3), destroy
 *   (PIPE_ALL) and init (reset) per tile.
 * - Hand-written IDs (catlass) pass in checked mode and are refused in
 *   strict mode; an alloc colliding with a hand-written flag fails with
 *   EADDRINUSE and a report naming the use.
 * - A missing wait is reported (ENOLCK) on each of 100 runs with the same
 *   text; the correct kernel never is.  A double-buffered pipeline
 *   without any one of its sets or waits is reported, every time.
 * - Deadlocks are found before the scalar would block; full queues make
 *   the scalar wait, and a pipe runs its queue in order; the first error
 *   wins; the calls check their thread.
 * - The cost of an issued set and wait, against the direct calls of two
 *   threads, is printed.  The pipes' threads run under SCHED_BATCH, the
 *   scalar under the caller's policy.
 * - With ASC_TRACE_MARKER, each pipe writes a line before and after each
 *   work item it runs; a marker that cannot be written fails nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The plain functions: their reports name no call site. */
#define ASC_NO_CALL_SITES
#include <asc.h>

#include "kselftest_harness.h"
#include "many-runs.h"
#include "need-device.h"

#define MTE2_V	ASC_HARD_EVENT_MTE2_V
#define V_MTE2	ASC_HARD_EVENT_V_MTE2
#define V_MTE3	ASC_HARD_EVENT_V_MTE3
#define MTE3_V	ASC_HARD_EVENT_MTE3_V
#define V_S	ASC_HARD_EVENT_V_S
#define S_V	ASC_HARD_EVENT_S_V

#define STRICT	(ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS)

static const struct asc_core_attr checked = { 0 };
static const struct asc_core_attr strict = { .strict_ids = 1 };
static const struct asc_core_attr unchecked = { .unchecked = 1 };

/* Run @kernel; its errno (0 on success) and report. */
static int run(asc_kernel_fn kernel, void *arg,
	       const struct asc_core_attr *attr, char **report)
{
	int ret;

	errno = 0;
	ret = asc_core_run(kernel, arg, attr, report);
	return ret ? errno : 0;
}

#define CHECK(call) do { if ((call) < 0) return; } while (0)

/* ---- the seed's V_S example ---- */

struct vs {
	int value;	/* written by V */
	int seen;	/* read by S after its wait */
	int mode;
};

static void vs_compute(void *arg)
{
	struct vs *v = arg;

	v->value += 14;
}

static void vs_read(void *arg)
{
	struct vs *v = arg;

	v->seen = v->value;
}

static void vs_kernel(struct asc_core *core, void *arg)
{
	struct vs *v = arg;
	struct asc_access w = { &v->value, sizeof(v->value), 1, "value" };
	struct asc_access r = { &v->value, sizeof(v->value), 0, "value" };
	int id, round;

	v->mode = asc_pipe_mode(asc_core_pipe(core));
	/* Three times: the scalar's wait orders the next set after it. */
	for (round = 0; round < 3; round++) {
		id = asc_core_alloc_event_id(core, V_S);
		CHECK(id);
		CHECK(asc_core_issue(core, ASC_PIPE_V, vs_compute, v, "compute",
				     &w, 1));
		CHECK(asc_core_set_flag(core, V_S, id));
		CHECK(asc_core_wait_flag(core, V_S, id));
		CHECK(asc_core_release_event_id(core, id, V_S));
		CHECK(asc_core_issue(core, ASC_PIPE_S, vs_read, v, "get_value",
				     &r, 1));
	}
}

TEST(seed_v_s_checked_and_strict)
{
	const struct asc_core_attr *attrs[] = { &checked, &strict };
	const int modes[] = { ASC_MODE_CHECKED, STRICT };
	struct vs v;
	char *report;
	int i;

	need_device(_metadata);
	for (i = 0; i < 2; i++) {
		memset(&v, 0, sizeof(v));
		ASSERT_EQ(0, run(vs_kernel, &v, attrs[i], &report));
		ASSERT_EQ(NULL, report);
		ASSERT_EQ(modes[i], v.mode);
		ASSERT_EQ(42, v.seen);
	}
}

/* ---- pyasc's vadd: one buffer per stage, destroy and init per tile ---- */

#define VADD_TILES	6
#define VADD_TILE	256

struct vadd {
	float x[VADD_TILES * VADD_TILE], y[VADD_TILES * VADD_TILE];
	float z[VADD_TILES * VADD_TILE];
	float x_local[VADD_TILE], y_local[VADD_TILE], z_local[VADD_TILE];
	int tile;	/* the tile the pipes work on, set by S, read by them */
	int mode;
};

static void vadd_copy_in(void *arg)
{
	struct vadd *va = arg;

	memcpy(va->x_local, va->x + va->tile * VADD_TILE, sizeof(va->x_local));
	memcpy(va->y_local, va->y + va->tile * VADD_TILE, sizeof(va->y_local));
}

static void vadd_add(void *arg)
{
	struct vadd *va = arg;
	int i;

	for (i = 0; i < VADD_TILE; i++)
		va->z_local[i] = va->x_local[i] + va->y_local[i];
}

static void vadd_copy_out(void *arg)
{
	struct vadd *va = arg;

	memcpy(va->z + va->tile * VADD_TILE, va->z_local, sizeof(va->z_local));
}

static void vadd_kernel(struct asc_core *core, void *arg)
{
	struct vadd *va = arg;
	int t, id;

	va->mode = asc_pipe_mode(asc_core_pipe(core));
	for (t = 0; t < VADD_TILES; t++) {
		struct asc_access in[] = {
			{ va->x + t * VADD_TILE, sizeof(va->x_local), 0, "x" },
			{ va->y + t * VADD_TILE, sizeof(va->y_local), 0, "y" },
			{ va->x_local, sizeof(va->x_local), 1, "x_local" },
			{ va->y_local, sizeof(va->y_local), 1, "y_local" },
		};
		struct asc_access add[] = {
			{ va->x_local, sizeof(va->x_local), 0, "x_local" },
			{ va->y_local, sizeof(va->y_local), 0, "y_local" },
			{ va->z_local, sizeof(va->z_local), 1, "z_local" },
		};
		struct asc_access out[] = {
			{ va->z_local, sizeof(va->z_local), 0, "z_local" },
			{ va->z + t * VADD_TILE, sizeof(va->z_local), 1, "z" },
		};

		/* The pipes read the tile number: it changes only between tiles. */
		va->tile = t;
		CHECK(asc_core_issue(core, ASC_PIPE_MTE2, vadd_copy_in, va,
				     "data_copy x, y", in, 4));
		id = asc_core_alloc_event_id(core, MTE2_V);
		CHECK(id);
		CHECK(asc_core_set_flag(core, MTE2_V, id));
		CHECK(asc_core_wait_flag(core, MTE2_V, id));
		CHECK(asc_core_release_event_id(core, id, MTE2_V));
		CHECK(asc_core_issue(core, ASC_PIPE_V, vadd_add, va, "add", add, 3));
		id = asc_core_fetch_event_id(core, V_MTE3);
		CHECK(id);
		CHECK(asc_core_set_flag(core, V_MTE3, id));
		CHECK(asc_core_wait_flag(core, V_MTE3, id));
		CHECK(asc_core_issue(core, ASC_PIPE_MTE3, vadd_copy_out, va,
				     "data_copy z", out, 2));
		/* destroy(); init(): a PIPE_ALL barrier, then the pool cleared. */
		CHECK(asc_core_pipe_barrier(core, ASC_PIPE_ALL));
		CHECK(asc_core_reset(core));
	}
}

static void vadd_init(struct vadd *va)
{
	int i;

	memset(va, 0, sizeof(*va));
	for (i = 0; i < VADD_TILES * VADD_TILE; i++) {
		va->x[i] = i;
		va->y[i] = 3 * i + 1;
		va->z[i] = -1;
	}
}

static int vadd_wrong(const struct vadd *va)
{
	int i, bad = 0;

	for (i = 0; i < VADD_TILES * VADD_TILE; i++)
		bad += va->z[i] != 4 * i + 1;
	return bad;
}

TEST(pyasc_vadd_checked_and_strict)
{
	const struct asc_core_attr *attrs[] = { &checked, &strict, &unchecked };
	const int modes[] = { ASC_MODE_CHECKED, STRICT, 0 };
	struct vadd *va = malloc(sizeof(*va));
	char *report;
	int i;

	ASSERT_NE(NULL, va);
	need_device(_metadata);
	for (i = 0; i < 3; i++) {
		vadd_init(va);
		ASSERT_EQ(0, run(vadd_kernel, va, attrs[i], &report))
			TH_LOG("%s", report);
		ASSERT_EQ(NULL, report);
		ASSERT_EQ(modes[i], va->mode);
		ASSERT_EQ(0, vadd_wrong(va));
	}
	free(va);
}

/* ---- hand-written IDs ---- */

struct hw {
	int alloc_ret, alloc_err;
	unsigned int rounds;
	int data[2];	/* one per buffer, as its flags */
};

static void hw_write(void *arg)
{
	(*(int *)arg)++;
}

/* catlass: every ID written by hand, 0 and 1 for the two buffers. */
static void catlass_kernel(struct asc_core *core, void *arg)
{
	struct hw *h = arg;
	unsigned int r, b;

	CHECK(asc_core_set_flag(core, V_MTE2, 0));
	CHECK(asc_core_set_flag(core, V_MTE2, 1));
	for (r = 0; r < h->rounds; r++) {
		struct asc_access w = { &h->data[r % 2], sizeof(int), 1, "data" };

		b = r % 2;
		CHECK(asc_core_wait_flag(core, V_MTE2, b));
		CHECK(asc_core_issue(core, ASC_PIPE_MTE2, hw_write, &h->data[b],
				     "load", &w, 1));
		CHECK(asc_core_set_flag(core, MTE2_V, b));
		CHECK(asc_core_wait_flag(core, MTE2_V, b));
		CHECK(asc_core_issue(core, ASC_PIPE_V, hw_write, &h->data[b],
				     "compute", &w, 1));
		CHECK(asc_core_set_flag(core, V_MTE2, b));
	}
	CHECK(asc_core_wait_flag(core, V_MTE2, 0));
	CHECK(asc_core_wait_flag(core, V_MTE2, 1));
}

TEST(catlass_handwritten_ids_checked)
{
	struct hw h = { .rounds = 50 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(0, run(catlass_kernel, &h, &checked, &report)) TH_LOG("%s", report);
	ASSERT_EQ(NULL, report);
	ASSERT_EQ(50, h.data[0]);
	ASSERT_EQ(50, h.data[1]);
}

TEST(strict_refuses_handwritten_id)
{
	struct hw h = { .rounds = 50 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(ENOENT, run(catlass_kernel, &h, &strict, &report));
	ASSERT_STREQ("error: #1 set_flag(V_MTE2, 0) issued to V: No such file or directory\n",
		     report);
	ASSERT_EQ(0, h.data[0] + h.data[1]);
	free(report);
}

static void collision_kernel(struct asc_core *core, void *arg)
{
	struct hw *h = arg;

	CHECK(asc_core_set_flag(core, MTE2_V, 0));
	h->alloc_ret = asc_core_alloc_event_id(core, MTE2_V);
	h->alloc_err = errno;
	/* The first error wins: everything after fails the same way. */
	if (asc_core_wait_flag(core, MTE2_V, 0) == 0 || errno != EADDRINUSE)
		h->alloc_err = -1;
}

TEST(alloc_collides_with_handwritten_flag)
{
	struct hw h = { 0 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(EADDRINUSE, run(collision_kernel, &h, &checked, &report));
	ASSERT_EQ(-1, h.alloc_ret);
	ASSERT_EQ(EADDRINUSE, h.alloc_err);
	ASSERT_STREQ("error: #2 alloc_event_id(MTE2_V) on S: Address already in use\n"
		     "in use: MTE2_V id 0: its flag, set by MTE2 (#1), not waited for yet\n",
		     report);
	free(report);
}

/* ---- a missing wait, 100 times ---- */

#define RACE_BYTES	4096

struct race {
	char src[RACE_BYTES], local[RACE_BYTES], dst[RACE_BYTES];
	bool skip_wait;
};

static void race_copy_in(void *arg)
{
	struct race *r = arg;

	memcpy(r->local, r->src, RACE_BYTES);
}

static void race_use(void *arg)
{
	struct race *r = arg;

	memcpy(r->dst, r->local, RACE_BYTES);
}

static void race_kernel(struct asc_core *core, void *arg)
{
	struct race *r = arg;
	struct asc_access in[] = { { r->src, RACE_BYTES, 0, "src" },
				   { r->local, RACE_BYTES, 1, "local" } };
	struct asc_access use[] = { { r->local, RACE_BYTES, 0, "local" },
				    { r->dst, RACE_BYTES, 1, "dst" } };
	int id = asc_core_alloc_event_id(core, MTE2_V);

	CHECK(id);
	CHECK(asc_core_issue(core, ASC_PIPE_MTE2, race_copy_in, r, "copy_in", in, 2));
	CHECK(asc_core_set_flag(core, MTE2_V, id));
	if (!r->skip_wait)
		CHECK(asc_core_wait_flag(core, MTE2_V, id));
	CHECK(asc_core_issue(core, ASC_PIPE_V, race_use, r, "use", use, 2));
	if (r->skip_wait)
		CHECK(asc_core_wait_flag(core, MTE2_V, id));
	CHECK(asc_core_release_event_id(core, id, MTE2_V));
}

TEST(missing_wait_reported_every_time)
{
	static struct race r;
	char *report, want[256];
	int i;

	need_device(_metadata);
	snprintf(want, sizeof(want),
		 "missing sync: MTE2 writes \"local\" [0+%d] (#2 copy_in) and V reads it (#4 use): no set/wait or barrier orders them\n",
		 RACE_BYTES);
	for (i = 0; i < 100; i++) {
		r.skip_wait = true;
		ASSERT_EQ(ENOLCK, run(race_kernel, &r, &checked, &report))
			TH_LOG("run %d", i);
		ASSERT_STREQ(want, report) TH_LOG("run %d", i);
		free(report);
		r.skip_wait = false;
		memset(r.src, i, RACE_BYTES);
		ASSERT_EQ(0, run(race_kernel, &r, &checked, &report))
			TH_LOG("run %d: %s", i, report);
		ASSERT_EQ(NULL, report);
		ASSERT_EQ(0, memcmp(r.src, r.dst, RACE_BYTES));
	}
}

/* ---- a double-buffered pipeline without any one of its syncs ---- */

enum op_kind { OP_WORK, OP_SET, OP_WAIT };

struct op {
	enum op_kind kind;
	int pipe;
	int event, id;
	int buf;	/* OP_WORK: index into pipe_bufs */
	int write;
};

#define PIPE_TILES	3
#define MAX_OPS		64

struct pipeline {
	struct op ops[MAX_OPS];
	int n;
	int skip;
	char bufs[4][256];	/* in[0], in[1], out[0], out[1] */
	int runs;		/* work items that ran */
};

static void pipeline_work(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_RELAXED);
}

static void pipeline_build(struct pipeline *p)
{
	int t, b;

	p->n = 0;
#define OP(...)	(p->ops[p->n++] = (struct op){ __VA_ARGS__ })
	OP(OP_SET, .event = V_MTE2, .id = 0);
	OP(OP_SET, .event = V_MTE2, .id = 1);
	OP(OP_SET, .event = MTE3_V, .id = 0);
	OP(OP_SET, .event = MTE3_V, .id = 1);
	for (t = 0; t < PIPE_TILES; t++) {
		b = t % 2;
		OP(OP_WAIT, .event = V_MTE2, .id = b);
		OP(OP_WORK, .pipe = ASC_PIPE_MTE2, .buf = b, .write = 1);
		OP(OP_SET, .event = MTE2_V, .id = b);
		OP(OP_WAIT, .event = MTE2_V, .id = b);
		OP(OP_WAIT, .event = MTE3_V, .id = b);
		OP(OP_WORK, .pipe = ASC_PIPE_V, .buf = b, .write = 0);
		OP(OP_WORK, .pipe = ASC_PIPE_V, .buf = 2 + b, .write = 1);
		OP(OP_SET, .event = V_MTE2, .id = b);
		OP(OP_SET, .event = V_MTE3, .id = b);
		OP(OP_WAIT, .event = V_MTE3, .id = b);
		OP(OP_WORK, .pipe = ASC_PIPE_MTE3, .buf = 2 + b, .write = 0);
		OP(OP_SET, .event = MTE3_V, .id = b);
	}
	OP(OP_WAIT, .event = V_MTE2, .id = 0);
	OP(OP_WAIT, .event = V_MTE2, .id = 1);
	OP(OP_WAIT, .event = MTE3_V, .id = 0);
	OP(OP_WAIT, .event = MTE3_V, .id = 1);
#undef OP
}

/* Hand-written IDs 0 and 1, as catlass: checked mode allows them. */
static void pipeline_kernel(struct asc_core *core, void *arg)
{
	struct pipeline *p = arg;
	const struct op *o;
	struct asc_access a;
	int i;

	for (i = 0; i < p->n; i++) {
		if (i == p->skip)
			continue;
		o = &p->ops[i];
		a = (struct asc_access){ p->bufs[o->buf], sizeof(p->bufs[0]),
					 o->write, "buf" };
		if (o->kind == OP_WORK)
			CHECK(asc_core_issue(core, o->pipe, pipeline_work,
					     &p->runs, "work", &a, 1));
		else if (o->kind == OP_SET)
			CHECK(asc_core_set_flag(core, o->event, o->id));
		else
			CHECK(asc_core_wait_flag(core, o->event, o->id));
	}
}

TEST(pipeline_without_any_one_sync)
{
	static struct pipeline p;
	int i, err, syncs = 0;
	char *report;

	need_device(_metadata);
	pipeline_build(&p);
	p.skip = -1;
	ASSERT_EQ(0, run(pipeline_kernel, &p, &checked, &report)) TH_LOG("%s", report);
	ASSERT_EQ(NULL, report);
	ASSERT_EQ(4 * PIPE_TILES, p.runs);
	for (i = 0; i < p.n; i++) {
		if (p.ops[i].kind == OP_WORK)
			continue;
		syncs++;
		p.skip = i;
		err = run(pipeline_kernel, &p, &checked, &report);
		/* A missing sync, a deadlock, or a set that may come twice. */
		EXPECT_TRUE(err == ENOLCK || err == EDEADLK || err == EBUSY)
			TH_LOG("without instruction %d: %s", i, strerror(err));
		ASSERT_NE(NULL, report);
		ASSERT_EQ(0, strncmp(report, err == ENOLCK ? "missing " :
				     err == EDEADLK ? "deadlock: " :
				     "possible double set: ",
				     err == EDEADLK ? 10 : 8))
			TH_LOG("without %d: %s", i, report);
		free(report);
	}
	ASSERT_EQ(4 + 8 * PIPE_TILES + 4, syncs);
}

/* ---- deadlocks, found before the scalar blocks ---- */

static void s_wait_never_set(struct asc_core *core, void *arg)
{
	(void)arg;
	CHECK(asc_core_wait_flag(core, V_S, 0));
}

static void cycle_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	CHECK(asc_core_wait_flag(core, MTE2_V, 0));
	CHECK(asc_core_wait_flag(core, V_MTE2, 0));
}

static void end_blocked_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	/* V's thread really blocks in this wait until the run ends. */
	CHECK(asc_core_wait_flag(core, MTE2_V, 3));
}

static void full_queue_kernel(struct asc_core *core, void *arg)
{
	int i;

	(void)arg;
	/* V's queue holds 64 tickets; the first waits for a set not issued. */
	for (i = 0; i < 100; i++)
		CHECK(asc_core_wait_flag(core, MTE2_V, i % 2));
}

static void nothing(void *arg)
{
	(void)arg;
}

static void full_work_queue_kernel(struct asc_core *core, void *arg)
{
	int i;

	(void)arg;
	/* 1024 instructions: a wait for a set not issued, then work. */
	CHECK(asc_core_wait_flag(core, MTE2_V, 0));
	for (i = 0; i < 2000; i++)
		CHECK(asc_core_issue(core, ASC_PIPE_V, nothing, NULL, "w", NULL, 0));
}

TEST(deadlocks_before_blocking)
{
	char *report;

	need_device(_metadata);
	ASSERT_EQ(EDEADLK, run(s_wait_never_set, NULL, &checked, &report));
	ASSERT_STREQ("deadlock: S waits forever for V_S id 0 (#1): no set of it was issued\n",
		     report);
	free(report);

	ASSERT_EQ(EDEADLK, run(cycle_kernel, NULL, &checked, &report));
	ASSERT_STREQ("deadlock: V waits forever for MTE2_V id 0 (#1), set by MTE2, which waits forever for V_MTE2 id 0 (#2), set by V\n",
		     report);
	free(report);

	ASSERT_EQ(EDEADLK, run(end_blocked_kernel, NULL, &unchecked, &report));
	ASSERT_STREQ("deadlock: at the end of the kernel, V waits forever for MTE2_V id 3 (#1): no set of it was issued\n",
		     report);
	free(report);

	ASSERT_EQ(EDEADLK, run(full_queue_kernel, NULL, &checked, &report));
	ASSERT_STREQ("deadlock: when the queue of V is full (#65), V waits forever for MTE2_V id 0 (#1): no set of it was issued\n",
		     report);
	free(report);

	ASSERT_EQ(EDEADLK, run(full_work_queue_kernel, NULL, &checked, &report));
	ASSERT_STREQ("deadlock: when the queue of V is full (#1025), V waits forever for MTE2_V id 0 (#1): no set of it was issued\n",
		     report);
	free(report);
}

/* ---- full queues, order on a pipe, work on S ---- */

struct order {
	int next;	/* written only by V's work, in order */
	int bad;
	int s_ran;
	unsigned int rounds;
};

static void order_step(void *arg)
{
	struct order *o = arg;

	o->next++;
}

static void order_s(void *arg)
{
	((struct order *)arg)->s_ran = 1;
}

/* Many more sets and waits than a queue holds: the scalar waits for room. */
static void pingpong_kernel(struct asc_core *core, void *arg)
{
	struct order *o = arg;
	struct asc_access a = { &o->next, sizeof(o->next), 1, "next" };
	unsigned int i;

	CHECK(asc_core_issue(core, ASC_PIPE_S, order_s, o, "on S", NULL, 0));
	if (!o->s_ran)
		o->bad = 1;
	for (i = 0; i < o->rounds; i++) {
		CHECK(asc_core_issue(core, ASC_PIPE_V, order_step, o, "step", &a, 1));
		CHECK(asc_core_set_flag(core, V_MTE2, 0));
		CHECK(asc_core_wait_flag(core, V_MTE2, 0));
		CHECK(asc_core_set_flag(core, MTE2_V, 0));
		CHECK(asc_core_wait_flag(core, MTE2_V, 0));
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct side {
	struct asc_pipe *pipe;
	int pipe_id;
	int set_event, wait_event;
	bool set_first;
	unsigned int rounds;
	int err;
};

static void *direct_side(void *arg)
{
	struct side *s = arg;
	unsigned int i;

	if (asc_pipe_bind(s->pipe, s->pipe_id) < 0) {
		s->err = errno;
		return NULL;
	}
	for (i = 0; i < s->rounds && !s->err; i++) {
		if (s->set_first && asc_set_flag(s->pipe, s->set_event, 0) < 0)
			s->err = errno;
		if (!s->err && asc_wait_flag(s->pipe, s->wait_event, 0) < 0)
			s->err = errno;
		if (!s->err && !s->set_first &&
		    asc_set_flag(s->pipe, s->set_event, 0) < 0)
			s->err = errno;
	}
	return NULL;
}

/* The same ping-pong with a thread per pipe and direct calls: ns per pair. */
static double direct_pingpong(struct __test_metadata *_metadata,
			      unsigned int rounds)
{
	struct asc_pipe *pipe = asc_pipe_open(NULL);
	struct side v = { pipe, ASC_PIPE_V, V_MTE2, MTE2_V, true, rounds, 0 };
	struct side m = { pipe, ASC_PIPE_MTE2, MTE2_V, V_MTE2, false, rounds, 0 };
	pthread_t tv, tm;
	uint64_t t0;

	EXPECT_NE(NULL, pipe);
	if (!pipe)
		return 0;
	EXPECT_EQ(0, asc_alloc_event_id(pipe, V_MTE2));
	EXPECT_EQ(0, asc_alloc_event_id(pipe, MTE2_V));
	t0 = now_ns();
	pthread_create(&tv, NULL, direct_side, &v);
	pthread_create(&tm, NULL, direct_side, &m);
	pthread_join(tv, NULL);
	pthread_join(tm, NULL);
	t0 = now_ns() - t0;
	EXPECT_EQ(0, v.err);
	EXPECT_EQ(0, m.err);
	asc_pipe_close(pipe);
	return (double)t0 / (2.0 * rounds);
}

TEST(full_queues_order_and_cost)
{
	struct order o = { .rounds = 2000 };
	double issued, direct;
	char *report;
	uint64_t t0;

	need_device(_metadata);
	t0 = now_ns();
	ASSERT_EQ(0, run(pingpong_kernel, &o, &checked, &report)) TH_LOG("%s", report);
	t0 = now_ns() - t0;
	ASSERT_EQ(NULL, report);
	ASSERT_EQ(0, o.bad);
	ASSERT_EQ(o.rounds, (unsigned int)o.next);
	issued = (double)t0 / (2.0 * o.rounds);
	direct = direct_pingpong(_metadata, o.rounds);
	printf("# set+wait pair: issued through the runtime %.0f ns, direct %.0f ns (%u rounds of two pairs)\n",
	       issued, direct, o.rounds);
	fflush(stdout);
}

static void slow_work(void *arg)
{
	struct timespec ts = { 0, 300 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
}

struct room {
	int done;	/* the slow item finished */
	int seen;	/* after the tickets, the scalar saw it finished */
	int next;	/* the index of the next work item to run */
	int bad;	/* work items run out of order */
};

struct room_item {
	struct room *r;
	int index;
};

static void in_order(void *arg)
{
	struct room_item *it = arg;

	if (it->r->next++ != it->index)
		it->r->bad++;
}

/*
 * 100 tickets, then 3000 work items, behind a slow work item: the scalar
 * waits for room, twice, and the pipe runs everything in order.
 */
static void room_kernel(struct asc_core *core, void *arg)
{
	static struct room_item items[3000];
	struct room *r = arg;
	int i;

	CHECK(asc_core_issue(core, ASC_PIPE_V, slow_work, &r->done, "slow", NULL, 0));
	for (i = 0; i < 100; i++)
		CHECK(asc_core_set_flag(core, ASC_HARD_EVENT_V_V, 0));
	/* At least 36 of them ran, so the slow item had finished. */
	r->seen = __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);
	CHECK(asc_core_issue(core, ASC_PIPE_V, slow_work, &r->done, "slow", NULL, 0));
	for (i = 0; i < 3000; i++) {
		items[i] = (struct room_item){ r, i };
		CHECK(asc_core_issue(core, ASC_PIPE_V, in_order, &items[i], "next",
				     NULL, 0));
	}
}

TEST(scalar_waits_for_room)
{
	struct room r = { 0 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(0, run(room_kernel, &r, &checked, &report)) TH_LOG("%s", report);
	ASSERT_EQ(NULL, report);
	ASSERT_EQ(1, r.seen);
	ASSERT_EQ(3000, r.next);
	ASSERT_EQ(0, r.bad);
}

/* ---- the first error wins; calls check their arguments and thread ---- */

struct errs {
	int first, later, barrier_s, other_thread, pipe_null;
};

static void *other_thread(void *arg)
{
	struct asc_core *core = arg;

	if (asc_core_set_flag(core, V_S, 0) == -1)
		return (void *)(long)errno;
	return NULL;
}

static void errors_kernel(struct asc_core *core, void *arg)
{
	struct errs *e = arg;
	pthread_t t;
	void *ret;

	pthread_create(&t, NULL, other_thread, core);
	pthread_join(t, &ret);
	e->other_thread = (int)(long)ret;
	/* The other thread's call counted nothing: the barrier is #1. */
	if (asc_core_pipe_barrier(core, ASC_PIPE_S) < 0)
		e->barrier_s = errno;
	if (asc_core_issue(core, ASC_PIPE_V, order_step, NULL, "x", NULL, 0) < 0)
		e->later = errno;
	if (asc_core_alloc_event_id(core, MTE2_V) < 0)
		e->first = errno;
	e->pipe_null = asc_core_pipe(NULL) == NULL && errno == EINVAL;
}

TEST(first_error_wins)
{
	struct errs e = { 0 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(EINVAL, run(errors_kernel, &e, &checked, &report));
	ASSERT_EQ(EPERM, e.other_thread);
	ASSERT_EQ(EINVAL, e.barrier_s);
	ASSERT_EQ(EINVAL, e.later);
	ASSERT_EQ(EINVAL, e.first);
	ASSERT_TRUE(e.pipe_null);
	ASSERT_STREQ("error: #1 pipe_barrier(S): not supported, a hardware error on the chip: Invalid argument\n",
		     report);
	free(report);
}

static void barriers_kernel(struct asc_core *core, void *arg)
{
	int *done = arg;

	/* V_V and FIX_FIX are barriers: no flag, no double set, no wait. */
	CHECK(asc_core_set_flag(core, ASC_HARD_EVENT_V_V, 0));
	CHECK(asc_core_set_flag(core, ASC_HARD_EVENT_V_V, 0));
	CHECK(asc_core_wait_flag(core, ASC_HARD_EVENT_V_V, 0));
	CHECK(asc_core_wait_flag(core, ASC_HARD_EVENT_FIX_FIX, 1));
	CHECK(asc_core_set_flag(core, ASC_HARD_EVENT_FIX_FIX, 1));
	CHECK(asc_core_pipe_barrier(core, ASC_PIPE_MTE3));
	CHECK(asc_core_pipe_barrier(core, ASC_PIPE_ALL));
	*done = 1;
}

TEST(barrier_events_and_pipe_barriers)
{
	char *report;
	int done = 0;

	need_device(_metadata);
	ASSERT_EQ(0, run(barriers_kernel, &done, &checked, &report)) TH_LOG("%s", report);
	ASSERT_EQ(NULL, report);
	ASSERT_EQ(1, done);
}

static void leftover_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	CHECK(asc_core_set_flag(core, MTE2_V, 2));
}

TEST(flag_never_waited_for)
{
	char *report;

	need_device(_metadata);
	ASSERT_EQ(ENOLCK, run(leftover_kernel, NULL, &checked, &report));
	ASSERT_STREQ("missing wait: MTE2 sets MTE2_V id 2 (#1) and no wait takes it by the end of the kernel\n",
		     report);
	free(report);
}

TEST(run_arguments)
{
	struct asc_core_attr both = { .unchecked = 1, .strict_ids = 1 };
	struct asc_core_attr missing = { .device = "/nonexistent/asc_event" };
	char *report = (char *)1;

	ASSERT_EQ(EINVAL, run(NULL, NULL, NULL, &report));
	ASSERT_EQ(NULL, report);
	ASSERT_EQ(EINVAL, run(leftover_kernel, NULL, &both, NULL));
	ASSERT_EQ(ENOENT, run(leftover_kernel, NULL, &missing, &report));
	ASSERT_STREQ("error: asc_pipe_open(/nonexistent/asc_event): No such file or directory\n",
		     report);
	free(report);
}

/* ---- the pipes' scheduling policy ---- */

/* The policy of the thread running a work item, by lane: S, V, MTE2. */
struct policies {
	int policy[3];
};

static void policy_s(void *arg)
{
	((struct policies *)arg)->policy[0] = sched_getscheduler(0);
}

static void policy_v(void *arg)
{
	((struct policies *)arg)->policy[1] = sched_getscheduler(0);
}

static void policy_mte2(void *arg)
{
	((struct policies *)arg)->policy[2] = sched_getscheduler(0);
}

static void policy_kernel(struct asc_core *core, void *arg)
{
	CHECK(asc_core_issue(core, ASC_PIPE_S, policy_s, arg, "s", NULL, 0));
	CHECK(asc_core_issue(core, ASC_PIPE_V, policy_v, arg, "v", NULL, 0));
	CHECK(asc_core_issue(core, ASC_PIPE_MTE2, policy_mte2, arg, "mte2", NULL, 0));
}

/*
 * The pipes' threads run under SCHED_BATCH, so that waking one does not
 * preempt the scalar; the scalar keeps the caller's policy.
 */
TEST(pipe_threads_batch_scalar_untouched)
{
	struct policies p = { { -1, -1, -1 } };
	int mine = sched_getscheduler(0);

	need_device(_metadata);
	ASSERT_EQ(0, run(policy_kernel, &p, &checked, NULL));
	EXPECT_EQ(mine, p.policy[0]);
	EXPECT_EQ(SCHED_BATCH, p.policy[1]);
	EXPECT_EQ(SCHED_BATCH, p.policy[2]);
	EXPECT_EQ(mine, sched_getscheduler(0));
}

/* ---- the trace marker ---- */

static void count_step(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_RELAXED);
}

/* Work on MTE2, V and S, each ordered after the one before by a flag. */
static void marker_kernel(struct asc_core *core, void *arg)
{
	int id;

	CHECK(asc_core_issue(core, ASC_PIPE_MTE2, count_step, arg, NULL, NULL, 0));
	CHECK(id = asc_core_alloc_event_id(core, MTE2_V));
	CHECK(asc_core_set_flag(core, MTE2_V, id));
	CHECK(asc_core_wait_flag(core, MTE2_V, id));
	CHECK(asc_core_issue(core, ASC_PIPE_V, count_step, arg, "add\n1", NULL, 0));
	CHECK(asc_core_release_event_id(core, id, MTE2_V));
	CHECK(id = asc_core_alloc_event_id(core, V_S));
	CHECK(asc_core_set_flag(core, V_S, id));
	CHECK(asc_core_wait_flag(core, V_S, id));
	CHECK(asc_core_release_event_id(core, id, V_S));
	CHECK(asc_core_issue(core, ASC_PIPE_S, count_step, arg, "read", NULL, 0));
}

/*
 * With ASC_TRACE_MARKER, a line before and after each work item, by the
 * pipe that runs it, with the item's instruction number and name.
 */
TEST(trace_marker_lines)
{
	char path[] = "/tmp/asc-core-marker-XXXXXX", core[32], want[1024];
	char got[1024] = "";
	int fd, steps = 0;
	char *report;
	ssize_t n;

	need_device(_metadata);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	setenv("ASC_TRACE_MARKER", path, 1);
	ASSERT_EQ(0, run(marker_kernel, &steps, &checked, &report)) TH_LOG("%s", report);
	EXPECT_EQ(3, steps);
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	unlink(path);
	ASSERT_LT(0, n);
	got[n] = '\0';
	/* core=<the scalar's tid>.<run of this process> */
	n = sscanf(got, "asc_span begin core=%31[0-9.]", core);
	ASSERT_EQ(1, n);
	snprintf(want, sizeof(want), "%d.", (int)gettid());
	ASSERT_EQ(0, strncmp(core, want, strlen(want))) TH_LOG("core=%s", core);
	snprintf(want, sizeof(want),
		 "asc_span begin core=%1$s pipe=MTE2 n=1 name=work\n"
		 "asc_span end core=%1$s pipe=MTE2 n=1\n"
		 "asc_span begin core=%1$s pipe=V n=5 name=add?1\n"
		 "asc_span end core=%1$s pipe=V n=5\n"
		 "asc_span begin core=%1$s pipe=S n=11 name=read\n"
		 "asc_span end core=%1$s pipe=S n=11\n", core);
	EXPECT_STREQ(want, got);
}

/* A marker that cannot be written fails nothing. */
TEST(trace_marker_unwritable)
{
	static const char *const markers[] = { "/dev/full", "/nonexistent/trace_marker", "/" };
	char *report;
	size_t i;
	int steps;

	need_device(_metadata);
	for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
		steps = 0;
		setenv("ASC_TRACE_MARKER", markers[i], 1);
		ASSERT_EQ(0, run(marker_kernel, &steps, &checked, &report))
			TH_LOG("%s: %s", markers[i], report);
		EXPECT_EQ(NULL, report);
		EXPECT_EQ(3, steps);
	}
}

TEST_HARNESS_MAIN
