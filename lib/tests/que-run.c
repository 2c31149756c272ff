// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Local memory, TQue, TQueBind and TBuf on the device, run by
 * asc_core_run() and asc_launch_run() in the test guest
 * (tools/testing/asc-check-guest).  Needs /dev/asc_event; skips without it.
 * The calls go through <asc.h>'s call-site macros: every report names
 * lines of this file.
 *
 * - Local memory: the memories of each kind of core, buffers placed one
 *   after the other with their lengths rounded up to 32 bytes, past a
 *   memory's capacity and past 64 buffers refused (ENOBUFS) with the
 *   kernel's total and the limit; init() and reset() forget the
 *   placements, destroy() keeps them.
 * - The protocol: a double-buffered vadd through two VECIN queues and a
 *   VECOUT one, verified, in checked, strict and unchecked mode; the IDs
 *   the queues take come from the pool (a fetch sees them); round robin;
 *   depth 0 (IDs held per buffer, dequeued in any order, given back by
 *   destroy()), TQueBind(VECIN, VECOUT), VECCALC, TBuf get() and
 *   get_with_offset(), the cube's positions; the trace marker names each
 *   set and wait of a queue; in a launch, a queue's set that can never
 *   reuse its ID is part of the launch's deadlock report.
 * - The checks, each error with its report: deque of an empty queue
 *   (ENODATA), enque past the depth (EOVERFLOW), free_tensor of another
 *   queue's tensor (EXDEV), freed twice or stale (ENOENT), freed while
 *   enqueued (EBUSY), alloc_tensor with no free buffer (EDEADLK), a tensor
 *   used between its enque and its deque (the detector's ENOLCK),
 *   tensors not freed or not dequeued at the end of the kernel and at a
 *   reset (ENOLCK), the pool run out by the kernel's IDs and a queue's
 *   together (ENOSPC, naming who holds them); enqueued twice (EALREADY),
 *   deque_tensor() of a tensor not enqueued (ENODATA), a TBuf's part past
 *   its end, a queue in global memory, too deep, alloc_tensor() of a TBuf
 *   (EINVAL), a hand-written wait or release of a queue's ID
 *   (EADDRINUSE), init() without destroy() (a missing wait).
 * - The source article's hazard: a hand-written set_flag(MTE2_V, 0) while
 *   a VECIN queue holds MTE2_V ID 0 fails in checked mode with EADDRINUSE
 *   naming the queue, the same on every run; unchecked, the detector
 *   reports the double set the chip would make; a hand-written flag set
 *   before the queue's enque makes the enque's alloc fail (EADDRINUSE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "many-runs.h"
#include "need-device.h"

#define MTE2_V	ASC_HARD_EVENT_MTE2_V
#define V_MTE2	ASC_HARD_EVENT_V_MTE2
#define V_MTE3	ASC_HARD_EVENT_V_MTE3
#define MTE3_V	ASC_HARD_EVENT_MTE3_V

static const struct asc_core_attr checked = { 0 };
static const struct asc_core_attr strict = { .strict_ids = 1 };
static const struct asc_core_attr unchecked = { .unchecked = 1 };

static int run(asc_kernel_fn kernel, void *arg, const struct asc_core_attr *attr,
	       char **report)
{
	errno = 0;
	return asc_core_run(kernel, arg, attr, report) ? errno : 0;
}

/* The line of this file a mark() names, for the reports' "que-run.c:N". */
#define CHECK(call) do { if ((call) < 0) return; } while (0)

/* The report contains "que-run.c:LINE". */
static int names_line(const char *report, int line)
{
	char at[32];

	snprintf(at, sizeof(at), "que-run.c:%d", line);
	return report && strstr(report, at) != NULL;
}

/* ---- a double-buffered vadd, the queues' protocol ---- */

#define TILE	256
#define NTILES	8

struct vadd {
	float x[NTILES * TILE], y[NTILES * TILE], z[NTILES * TILE];
	int bufs;		/* buffers per queue */
	int fetched;		/* fetch_event_id(MTE2_V) after the first enque */
	struct asc_local seen[NTILES];
	char last[16];		/* the name of the last tile's outQueueZ buffer */
};

/* The arguments of one work item: a copy or an add over a tile. */
struct op {
	float *dst;
	const float *a, *b;
	size_t n;
};

static void copy_work(void *arg)
{
	struct op *o = arg;

	memcpy(o->dst, o->a, o->n * sizeof(float));
	free(o);
}

static void add_work(void *arg)
{
	struct op *o = arg;
	size_t i;

	for (i = 0; i < o->n; i++)
		o->dst[i] = o->a[i] + o->b[i];
	free(o);
}

static int issue_op(struct asc_core *core, int pipe, void (*fn)(void *),
		    const char *what, float *dst, const float *a, const float *b,
		    const struct asc_access *acc, unsigned int nacc)
{
	struct op *o = malloc(sizeof(*o));

	if (!o)
		return -1;
	*o = (struct op){ dst, a, b, TILE };
	if (asc_core_issue(core, pipe, fn, o, what, acc, nacc) < 0) {
		free(o);
		return -1;
	}
	return 0;
}

/* An access of tensor @t, or of @n floats of global memory at @p. */
#define LOCAL(t, w)	{ (t).addr, (t).size, (w), (t).name }
#define GM(p, w, name)	{ (p), TILE * sizeof(float), (w), (name) }

static void vadd_kernel(struct asc_core *core, void *arg)
{
	struct vadd *v = arg;
	struct asc_que *in_x, *in_y, *out_z;
	struct asc_local x, y, z;
	int t;

	in_x = asc_core_tque(core, ASC_POS_VECIN, v->bufs, "inQueueX");
	in_y = asc_core_tque(core, ASC_POS_VECIN, v->bufs, "inQueueY");
	out_z = asc_core_tque(core, ASC_POS_VECOUT, v->bufs, "outQueueZ");
	if (!in_x || !in_y || !out_z)
		return;
	CHECK(asc_core_init_buffer(core, in_x, v->bufs, TILE * sizeof(float)));
	CHECK(asc_core_init_buffer(core, in_y, v->bufs, TILE * sizeof(float)));
	CHECK(asc_core_init_buffer(core, out_z, v->bufs, TILE * sizeof(float)));
	for (t = 0; t < NTILES; t++) {
		float *gx = v->x + t * TILE, *gy = v->y + t * TILE, *gz = v->z + t * TILE;

		/* CopyIn */
		CHECK(asc_core_alloc_tensor(core, in_x, &x));
		CHECK(asc_core_alloc_tensor(core, in_y, &y));
		{
			const struct asc_access ax[] = { LOCAL(x, 1), GM(gx, 0, "xGm") };
			const struct asc_access ay[] = { LOCAL(y, 1), GM(gy, 0, "yGm") };

			CHECK(issue_op(core, ASC_PIPE_MTE2, copy_work, "DataCopy(xLocal, xGm)",
				       x.addr, gx, NULL, ax, 2));
			CHECK(issue_op(core, ASC_PIPE_MTE2, copy_work, "DataCopy(yLocal, yGm)",
				       y.addr, gy, NULL, ay, 2));
		}
		CHECK(asc_core_enque(core, in_x, &x));
		CHECK(asc_core_enque(core, in_y, &y));
		if (!t)
			v->fetched = asc_core_fetch_event_id(core, MTE2_V);
		/* Compute */
		CHECK(asc_core_deque(core, in_x, &x));
		CHECK(asc_core_deque(core, in_y, &y));
		CHECK(asc_core_alloc_tensor(core, out_z, &z));
		v->seen[t] = z;
		snprintf(v->last, sizeof(v->last), "%s", z.name);
		{
			const struct asc_access acc[] = { LOCAL(x, 0), LOCAL(y, 0), LOCAL(z, 1) };

			CHECK(issue_op(core, ASC_PIPE_V, add_work, "Add", z.addr, x.addr,
				       y.addr, acc, 3));
		}
		CHECK(asc_core_enque(core, out_z, &z));
		CHECK(asc_core_free_tensor(core, in_x, &x));
		CHECK(asc_core_free_tensor(core, in_y, &y));
		/* CopyOut */
		CHECK(asc_core_deque(core, out_z, &z));
		{
			const struct asc_access acc[] = { LOCAL(z, 0), GM(gz, 1, "zGm") };

			CHECK(issue_op(core, ASC_PIPE_MTE3, copy_work, "DataCopy(zGm, zLocal)",
				       gz, z.addr, NULL, acc, 2));
		}
		CHECK(asc_core_free_tensor(core, out_z, &z));
	}
}

static void vadd_prepare(struct vadd *v, int bufs)
{
	int i;

	memset(v, 0, sizeof(*v));
	v->bufs = bufs;
	for (i = 0; i < NTILES * TILE; i++) {
		v->x[i] = i % 97;
		v->y[i] = (i * 7) % 31;
	}
}

static int vadd_wrong(const struct vadd *v)
{
	int i;

	for (i = 0; i < NTILES * TILE; i++)
		if (v->z[i] != v->x[i] + v->y[i])
			return i + 1;
	return 0;
}

TEST(vadd_through_queues_in_every_mode)
{
	const struct asc_core_attr *attrs[] = { &checked, &strict, &unchecked };
	static struct vadd v;
	char *report;
	int a, bufs, t;

	need_device(_metadata);
	for (a = 0; a < 3; a++) {
		for (bufs = 1; bufs <= 2; bufs++) {
			vadd_prepare(&v, bufs);
			ASSERT_EQ(0, run(vadd_kernel, &v, attrs[a], &report))
				TH_LOG("mode %d, %d buffers: %s", a, bufs, report);
			EXPECT_EQ(NULL, report);
			EXPECT_EQ(0, vadd_wrong(&v));
			/* The queues' IDs come from the pool: 0 and 1 are held. */
			EXPECT_EQ(2, v.fetched);
			/* Round robin over the buffers, in the Unified Buffer. */
			for (t = 0; t < NTILES; t++) {
				EXPECT_EQ(ASC_POS_VECOUT, v.seen[t].pos);
				EXPECT_EQ(ASC_MEM_UB, v.seen[t].mem);
				EXPECT_EQ(t % bufs, v.seen[t].buf);
				EXPECT_EQ((uint32_t)(t / bufs + 1), v.seen[t].gen);
				/* After inQueueX's and inQueueY's buffers. */
				EXPECT_EQ((uint32_t)((2 * bufs + t % bufs) * TILE * sizeof(float)),
					  v.seen[t].offset);
			}
			EXPECT_STREQ(bufs == 1 ? "outQueueZ[0]" : "outQueueZ[1]", v.last);
		}
	}
}

/* ---- local memory ---- */

struct mem {
	int type;
	void *base[ASC_MEM_COUNT];
	size_t size[ASC_MEM_COUNT];
	struct asc_local a, b, c;
	char a_name[16], b_name[16];
};

static void mem_kernel(struct asc_core *core, void *arg)
{
	struct mem *m = arg;
	struct asc_que *q, *buf, *l1;
	int i;

	m->type = asc_core_type(core);
	for (i = 0; i < ASC_MEM_COUNT; i++) {
		errno = 0;
		m->base[i] = asc_core_local_mem(core, i, &m->size[i]);
		if (!m->base[i])
			m->size[i] = errno;
	}
	if (m->type == ASC_CORE_AIC)
		return;
	q = asc_core_tque(core, ASC_POS_VECIN, 1, "q");
	buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmp");
	CHECK(asc_core_init_buffer(core, q, 2, 33));
	CHECK(asc_core_init_buffer(core, buf, 1, 100));
	CHECK(asc_core_alloc_tensor(core, q, &m->a));
	CHECK(asc_core_tbuf_get(core, buf, 0, &m->b));
	/* The names live as long as the run. */
	snprintf(m->a_name, sizeof(m->a_name), "%s", m->a.name);
	snprintf(m->b_name, sizeof(m->b_name), "%s", m->b.name);
	CHECK(asc_core_free_tensor(core, q, &m->a));
	if (m->type)
		return;
	l1 = asc_core_tque(core, ASC_POS_A1, 1, "a1");
	CHECK(asc_core_init_buffer(core, l1, 1, 512));
	CHECK(asc_core_alloc_tensor(core, l1, &m->c));
	CHECK(asc_core_free_tensor(core, l1, &m->c));
}

static void mem_check(struct __test_metadata *_metadata, const struct mem *m, int type)
{
	static const size_t sizes[ASC_MEM_COUNT] = {
		192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 7 * 1024,
	};
	int i, has;

	EXPECT_EQ(type, m->type);
	for (i = 0; i < ASC_MEM_COUNT; i++) {
		has = !type || (type == ASC_CORE_AIV) == (i == ASC_MEM_UB);
		if (has) {
			EXPECT_NE(NULL, m->base[i]) TH_LOG("memory %d", i);
			EXPECT_EQ(sizes[i], m->size[i]) TH_LOG("memory %d", i);
			EXPECT_EQ(0U, (uintptr_t)m->base[i] % 32);
		} else {
			EXPECT_EQ(NULL, m->base[i]) TH_LOG("memory %d", i);
			EXPECT_EQ(EINVAL, (int)m->size[i]);
		}
	}
	if (type == ASC_CORE_AIC)
		return;
	/* 33 bytes round up to 64: q[0] at 0, q[1] at 64, tmp at 128. */
	EXPECT_EQ(64U, m->a.size);
	EXPECT_EQ(0U, m->a.offset);
	EXPECT_EQ(m->base[ASC_MEM_UB], m->a.addr);
	EXPECT_STREQ("q[0]", m->a_name);
	EXPECT_EQ(ASC_POS_VECIN, m->a.pos);
	/* A TBuf's tensor is its whole buffer, rounded up too. */
	EXPECT_EQ(128U, m->b.size);
	EXPECT_EQ(128U, m->b.offset);
	EXPECT_STREQ("tmp", m->b_name);
	EXPECT_EQ(ASC_POS_VECCALC, m->b.pos);
	EXPECT_EQ(0U, m->b.gen);
	if (type)
		return;
	EXPECT_EQ(ASC_MEM_L1, m->c.mem);
	EXPECT_EQ(0U, m->c.offset);
	EXPECT_EQ(m->base[ASC_MEM_L1], m->c.addr);
}

static struct mem launch_mem[3];

static void launch_mem_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	mem_kernel(core, &launch_mem[asc_core_block_idx(core) % 3]);
}

TEST(local_memory_of_each_kind_of_core)
{
	struct mem m = { 0 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(0, run(mem_kernel, &m, &checked, &report)) TH_LOG("%s", report);
	mem_check(_metadata, &m, 0);
	memset(launch_mem, 0, sizeof(launch_mem));
	ASSERT_EQ(0, asc_launch_run(launch_mem_kernel, NULL, ASC_LAUNCH_AIV, 1, NULL,
				    &report)) TH_LOG("%s", report);
	mem_check(_metadata, &launch_mem[0], ASC_CORE_AIV);
	memset(launch_mem, 0, sizeof(launch_mem));
	ASSERT_EQ(0, asc_launch_run(launch_mem_kernel, NULL, ASC_LAUNCH_AIC, 1, NULL,
				    &report)) TH_LOG("%s", report);
	mem_check(_metadata, &launch_mem[0], ASC_CORE_AIC);
}

static int aic_line;

static void aic_ub_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECIN, 1, "inQueueX");

	(void)arg;
	aic_line = __LINE__ + 1;
	asc_core_init_buffer(core, q, 1, 64);
}

TEST(an_aic_has_no_unified_buffer)
{
	char *report;

	need_device(_metadata);
	errno = 0;
	ASSERT_EQ(-1, asc_launch_run(aic_ub_kernel, NULL, ASC_LAUNCH_AIC, 1, NULL, &report));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(report, "init_buffer(inQueueX, 1, 64): an AIC has no Unified Buffer"))
		TH_LOG("%s", report);
	EXPECT_TRUE(names_line(report, aic_line)) TH_LOG("%s", report);
	free(report);
}

static int cap_line;

static void capacity_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *a = asc_core_tque(core, ASC_POS_VECIN, 2, "inQueueX");
	struct asc_que *b = asc_core_tque(core, ASC_POS_VECOUT, 2, "outQueueY");

	(void)arg;
	CHECK(asc_core_init_buffer(core, a, 2, 64 * 1024));
	cap_line = __LINE__ + 1;
	asc_core_init_buffer(core, b, 2, 32 * 1024 + 1);
}

TEST(past_the_capacity_of_the_unified_buffer)
{
	char *report;

	need_device(_metadata);
	ASSERT_EQ(ENOBUFS, run(capacity_kernel, NULL, &checked, &report));
	/* 2 * 64 KiB + 2 * (32 KiB + 32): rounded up, past 192 KiB. */
	EXPECT_NE(NULL, strstr(report,
			       "error: #4 init_buffer(outQueueY, 2, 32769): UB would hold 196672 bytes (the kernel's total), past its 196608"))
		TH_LOG("%s", report);
	EXPECT_TRUE(names_line(report, cap_line)) TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "No buffer space available"));
	free(report);
}

static int many_line;

static void many_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *q[33];
	int i;

	(void)arg;
	for (i = 0; i < 32; i++) {
		q[i] = asc_core_tbuf(core, ASC_POS_VECCALC, NULL);
		CHECK(asc_core_init_buffer(core, q[i], 1, 32));
	}
	q[32] = asc_core_tque(core, ASC_POS_VECIN, 1, "last");
	CHECK(asc_core_init_buffer(core, q[32], 32, 32));
	q[0] = asc_core_tque(core, ASC_POS_VECOUT, 1, "one_more");
	many_line = __LINE__ + 1;
	asc_core_init_buffer(core, q[0], 1, 32);
}

TEST(past_64_buffers)
{
	char *report;

	need_device(_metadata);
	ASSERT_EQ(ENOBUFS, run(many_kernel, NULL, &checked, &report));
	EXPECT_NE(NULL, strstr(report,
			       "init_buffer(one_more, 1, 32): the TPipe would manage 65 buffers, past its 64"))
		TH_LOG("%s", report);
	EXPECT_TRUE(names_line(report, many_line)) TH_LOG("%s", report);
	free(report);
}

/* init() and reset() forget the placements; destroy() keeps them. */
struct forget {
	uint32_t after_destroy, after_init, after_reset;
	int again;
};

static void forget_kernel(struct asc_core *core, void *arg)
{
	struct forget *f = arg;
	struct asc_que *a = asc_core_tque(core, ASC_POS_VECIN, 1, "a");
	struct asc_que *b = asc_core_tque(core, ASC_POS_VECIN, 1, "b");
	struct asc_local t;

	CHECK(asc_core_init_buffer(core, a, 1, 1024));
	CHECK(asc_core_tpipe_destroy(core));
	CHECK(asc_core_init_buffer(core, b, 1, 1024));
	CHECK(asc_core_alloc_tensor(core, b, &t));
	f->after_destroy = t.offset;
	CHECK(asc_core_free_tensor(core, b, &t));
	CHECK(asc_core_tpipe_destroy(core));
	CHECK(asc_core_tpipe_init(core));
	CHECK(asc_core_init_buffer(core, b, 1, 1024));
	CHECK(asc_core_alloc_tensor(core, b, &t));
	f->after_init = t.offset;
	CHECK(asc_core_free_tensor(core, b, &t));
	CHECK(asc_core_reset(core));
	CHECK(asc_core_init_buffer(core, a, 1, 512));
	CHECK(asc_core_init_buffer(core, b, 1, 512));
	CHECK(asc_core_alloc_tensor(core, b, &t));
	f->after_reset = t.offset;
	CHECK(asc_core_free_tensor(core, b, &t));
	/* A second init_buffer of a placed queue is refused. */
	errno = 0;
	asc_core_init_buffer(core, b, 1, 512);
	f->again = errno;
}

TEST(init_and_reset_forget_buffers_destroy_keeps_them)
{
	struct forget f = { 0 };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(EALREADY, run(forget_kernel, &f, &checked, &report)) TH_LOG("%s", report);
	EXPECT_EQ(1024U, f.after_destroy);
	EXPECT_EQ(0U, f.after_init);
	EXPECT_EQ(512U, f.after_reset);
	EXPECT_EQ(EALREADY, f.again);
	EXPECT_NE(NULL, strstr(report, "init_buffer(b, 1, 512): it has its buffers already"))
		TH_LOG("%s", report);
	free(report);
}

/* ---- the checks ---- */

struct misuse {
	int what;
	int line;
};

enum {
	DEQUE_EMPTY,
	ENQUE_PAST_DEPTH,
	FREE_FOREIGN,
	FREE_TWICE,
	FREE_STALE,
	FREE_ENQUEUED,
	ALLOC_NO_FREE,
	USE_BEFORE_DEQUE,
	LEFT_ALLOCATED,
	LEFT_ENQUEUED,
	LEFT_AT_RESET,
	IDS_RUN_OUT,
	NR_MISUSES,
};

static void nop_work(void *arg)
{
	(void)arg;
}

/* MTE2 writes tensor @t (a copy in). */
static int fill(struct asc_core *core, const struct asc_local *t)
{
	const struct asc_access acc[] = { LOCAL(*t, 1) };

	return asc_core_issue(core, ASC_PIPE_MTE2, nop_work, NULL, "DataCopy", acc, 1);
}

/* V reads tensor @t; the line of its issue, for the reports. */
static int use_line;

static int use(struct asc_core *core, const struct asc_local *t)
{
	const struct asc_access acc[] = { LOCAL(*t, 0) };

	use_line = __LINE__ + 1;
	return asc_core_issue(core, ASC_PIPE_V, nop_work, NULL, "Abs", acc, 1);
}

static void misuse_kernel(struct asc_core *core, void *arg)
{
	struct misuse *m = arg;
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECIN, 1, "inQueueX");
	struct asc_que *o = asc_core_tque(core, ASC_POS_VECOUT, 1, "outQueueY");
	struct asc_local a, b, old;
	int i;

	CHECK(asc_core_init_buffer(core, q, 2, 1024));
	CHECK(asc_core_init_buffer(core, o, 1, 1024));
	switch (m->what) {
	case DEQUE_EMPTY:
		m->line = __LINE__ + 1;
		asc_core_deque(core, q, &a);
		return;
	case ENQUE_PAST_DEPTH:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_alloc_tensor(core, q, &b));
		CHECK(asc_core_enque(core, q, &a));
		m->line = __LINE__ + 1;
		asc_core_enque(core, q, &b);
		return;
	case FREE_FOREIGN:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		m->line = __LINE__ + 1;
		asc_core_free_tensor(core, o, &a);
		return;
	case FREE_TWICE:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_free_tensor(core, q, &a));
		m->line = __LINE__ + 1;
		asc_core_free_tensor(core, q, &a);
		return;
	case FREE_STALE:
		/* Buffer 0 is handed out twice; the first tensor is stale. */
		CHECK(asc_core_alloc_tensor(core, q, &old));
		CHECK(asc_core_free_tensor(core, q, &old));
		CHECK(asc_core_alloc_tensor(core, q, &b));
		CHECK(asc_core_alloc_tensor(core, q, &a));
		m->line = __LINE__ + 1;
		asc_core_free_tensor(core, q, &old);
		return;
	case FREE_ENQUEUED:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_enque(core, q, &a));
		m->line = __LINE__ + 1;
		asc_core_free_tensor(core, q, &a);
		return;
	case ALLOC_NO_FREE:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_alloc_tensor(core, q, &b));
		m->line = __LINE__ + 1;
		asc_core_alloc_tensor(core, q, &a);
		return;
	case USE_BEFORE_DEQUE:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(fill(core, &a));
		CHECK(asc_core_enque(core, q, &a));
		/* The report names the line of the access: use()'s issue. */
		use(core, &a);
		m->line = use_line;
		CHECK(asc_core_deque(core, q, &a));
		CHECK(asc_core_free_tensor(core, q, &a));
		return;
	case LEFT_ALLOCATED:
		m->line = __LINE__ + 1;
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_alloc_tensor(core, q, &b));
		CHECK(asc_core_free_tensor(core, q, &b));
		return;
	case LEFT_ENQUEUED:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(fill(core, &a));
		m->line = __LINE__ + 1;
		CHECK(asc_core_enque(core, q, &a));
		return;
	case LEFT_AT_RESET:
		m->line = __LINE__ + 1;
		CHECK(asc_core_alloc_tensor(core, q, &a));
		asc_core_reset(core);
		return;
	case IDS_RUN_OUT:
		/* Seven of MTE2_V's eight for the kernel, one for a queue. */
		q = asc_core_tque(core, ASC_POS_VECIN, 2, "inQueueZ");
		CHECK(asc_core_init_buffer(core, q, 2, 1024));
		for (i = 0; i < 7; i++)
			CHECK(asc_core_alloc_event_id(core, MTE2_V));
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_alloc_tensor(core, q, &b));
		CHECK(asc_core_enque(core, q, &a));
		m->line = __LINE__ + 1;
		asc_core_enque(core, q, &b);
		return;
	}
}

struct expect {
	int err;
	const char *text;
};

static const struct expect misuse_expect[NR_MISUSES] = {
	[DEQUE_EMPTY] = { ENODATA, "queue: #5 inQueueX.deque(): the queue is empty: no tensor is enqueued at que-run.c:" },
	[ENQUE_PAST_DEPTH] = { EOVERFLOW, "queue: #8 inQueueX.enque(inQueueX[1]): past the depth: the queue holds 1 tensor already, its depth is 1 at que-run.c:" },
	[FREE_FOREIGN] = { EXDEV, "queue: #6 outQueueY.free_tensor(inQueueX[0]): not a tensor of this queue: it comes from inQueueX at que-run.c:" },
	[FREE_TWICE] = { ENOENT, "queue: #7 inQueueX.free_tensor(inQueueX[0]): freed already (by #6 at que-run.c:" },
	[FREE_STALE] = { ENOENT, "queue: #9 inQueueX.free_tensor(inQueueX[0]): a stale tensor: its buffer was freed and allocated again since (#8 at que-run.c:" },
	[FREE_ENQUEUED] = { EBUSY, "queue: #7 inQueueX.free_tensor(inQueueX[0]): it is enqueued (by #6 at que-run.c:" },
	[ALLOC_NO_FREE] = { EDEADLK, "queue: #7 inQueueX.alloc_tensor(): no free buffer: all 2 are in use and only the kernel frees them (on the chip the scalar waits forever) at que-run.c:" },
	[USE_BEFORE_DEQUE] = { ENOLCK, "missing sync: MTE2 writes \"inQueueX[0]\" [UB+0x0+1024] (#6 DataCopy at que-run.c:" },
	[LEFT_ALLOCATED] = { ENOLCK, "queue: inQueueX[0] allocated (#5 at que-run.c:" },
	[LEFT_ENQUEUED] = { ENOLCK, "queue: inQueueX[0] enqueued (#7 at que-run.c:" },
	[LEFT_AT_RESET] = { ENOLCK, "queue: inQueueX[0] allocated (#5 at que-run.c:" },
	[IDS_RUN_OUT] = { ENOSPC, "error: #17 inQueueZ.enque(inQueueZ[1]): alloc_event_id(MTE2_V) at que-run.c:" },
};

TEST(every_misuse_of_a_queue_with_its_report)
{
	struct misuse m;
	char *report;
	int w;

	need_device(_metadata);
	for (w = 0; w < NR_MISUSES; w++) {
		m = (struct misuse){ .what = w };
		ASSERT_EQ(misuse_expect[w].err, run(misuse_kernel, &m, &checked, &report))
			TH_LOG("misuse %d: %s", w, report);
		ASSERT_NE(NULL, report) TH_LOG("misuse %d", w);
		EXPECT_NE(NULL, strstr(report, misuse_expect[w].text))
			TH_LOG("misuse %d: %s", w, report);
		EXPECT_TRUE(names_line(report, m.line)) TH_LOG("misuse %d, line %d: %s", w,
							       m.line, report);
		switch (w) {
		case USE_BEFORE_DEQUE:
			EXPECT_NE(NULL, strstr(report, "and V reads it (#8 Abs at que-run.c:"))
				TH_LOG("%s", report);
			break;
		case LEFT_ALLOCATED:
			EXPECT_NE(NULL, strstr(report, ") and never freed by the end of the kernel"))
				TH_LOG("%s", report);
			break;
		case LEFT_ENQUEUED:
			EXPECT_NE(NULL, strstr(report, ") and never dequeued by the end of the kernel"))
				TH_LOG("%s", report);
			break;
		case LEFT_AT_RESET:
			EXPECT_NE(NULL, strstr(report, ") and never freed at reset (#6 at que-run.c:"))
				TH_LOG("%s", report);
			break;
		case IDS_RUN_OUT:
			EXPECT_NE(NULL, strstr(report, "No space left on device"));
			EXPECT_NE(NULL, strstr(report, "in use: MTE2_V id 0: allocated by the kernel (#7 at que-run.c:"))
				TH_LOG("%s", report);
			EXPECT_NE(NULL, strstr(report, "in use: MTE2_V id 7: held by queue inQueueZ: the enque of inQueueZ[0] (#16 at que-run.c:"))
				TH_LOG("%s", report);
			break;
		}
		free(report);
	}
}

/* ---- the source article's hazard ---- */

struct hazard {
	int line;
	int order;	/* 0: the queue first, 1: the hand-written flag first */
};

static void hazard_kernel(struct asc_core *core, void *arg)
{
	struct hazard *h = arg;
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECIN, 1, "inQueueX");
	struct asc_local x;

	CHECK(asc_core_init_buffer(core, q, 1, 1024));
	CHECK(asc_core_alloc_tensor(core, q, &x));
	CHECK(fill(core, &x));
	if (h->order) {
		h->line = __LINE__ + 1;
		CHECK(asc_core_set_flag(core, MTE2_V, 0));
		CHECK(asc_core_enque(core, q, &x));
		return;
	}
	CHECK(asc_core_enque(core, q, &x));
	/* Hand-written: "the lowest free ID must be 0 by now". */
	h->line = __LINE__ + 1;
	CHECK(asc_core_set_flag(core, MTE2_V, 0));
	CHECK(asc_core_wait_flag(core, MTE2_V, 0));
	CHECK(asc_core_deque(core, q, &x));
	CHECK(use(core, &x));
	CHECK(asc_core_free_tensor(core, q, &x));
}

TEST(hand_written_id_collides_with_a_queues)
{
	struct hazard h = { 0 };
	char *report, *first = NULL;
	int i;

	need_device(_metadata);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(EADDRINUSE, run(hazard_kernel, &h, &checked, &report));
		if (!first) {
			first = report;
			EXPECT_NE(NULL, strstr(report,
					       "error: #6 set_flag(MTE2_V, 0): the ID is held by queue inQueueX: the enque of inQueueX[0] (#5 at que-run.c:"))
				TH_LOG("%s", report);
			EXPECT_NE(NULL, strstr(report, "a hand-written ID collides with the framework's sync"));
			EXPECT_TRUE(names_line(report, h.line)) TH_LOG("%s", report);
			continue;
		}
		EXPECT_STREQ(first, report);
		free(report);
	}
	free(first);
	/* Strict IDs: allocated, so the driver allows it; the queue's rule holds. */
	ASSERT_EQ(EADDRINUSE, run(hazard_kernel, &h, &strict, &report));
	free(report);
	/* Unchecked, the chip's: the second set comes before the first's wait. */
	ASSERT_EQ(EBUSY, run(hazard_kernel, &h, &unchecked, &report));
	EXPECT_NE(NULL, strstr(report, "possible double set: MTE2 sets MTE2_V id 0 (#6 at que-run.c:"))
		TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "before its previous set (#5 at que-run.c:"))
		TH_LOG("%s", report);
	free(report);
	/* The other order: the enque's alloc refuses the ID hand-written code set. */
	h.order = 1;
	ASSERT_EQ(EADDRINUSE, run(hazard_kernel, &h, &checked, &report));
	EXPECT_NE(NULL, strstr(report, "inQueueX.enque(inQueueX[0]): alloc_event_id(MTE2_V) at que-run.c:"))
		TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "in use: MTE2_V id 0: its flag, set by MTE2 (#5 at que-run.c:"))
		TH_LOG("%s", report);
	free(report);
}

/* ---- depth 0, TQueBind, VECCALC, TBuf parts, the cube's positions ---- */

struct kinds {
	float src[TILE], dst[TILE];
	int fetched_enq, fetched_free;	/* depth 0 holds an ID of each per buffer */
	int retired;			/* a depth-0 queue after destroy() */
	struct asc_local part;
	int past_end, cube_err;
	int bind_mem, calc_mem, cube_pos[4], cube_mem[4];
};

static void kinds_kernel(struct asc_core *core, void *arg)
{
	struct kinds *k = arg;
	struct asc_que *d0, *bind, *calc, *buf, *cube[4];
	static const int cube_at[4] = { ASC_POS_A1, ASC_POS_B2, ASC_POS_CO1, ASC_POS_C2 };
	struct asc_local a, b, t, whole;
	int i;

	/* Depth 0, two buffers: IDs 0 and 1 of MTE2_V and V_MTE2 held. */
	d0 = asc_core_tque(core, ASC_POS_VECIN, 0, "d0");
	CHECK(asc_core_init_buffer(core, d0, 2, TILE * sizeof(float)));
	k->fetched_enq = asc_core_fetch_event_id(core, MTE2_V);
	k->fetched_free = asc_core_fetch_event_id(core, V_MTE2);
	for (i = 0; i < 3; i++) {
		CHECK(asc_core_alloc_tensor(core, d0, &a));
		CHECK(asc_core_alloc_tensor(core, d0, &b));
		{
			const struct asc_access wa[] = { LOCAL(a, 1), GM(k->src, 0, "src") };
			const struct asc_access wb[] = { LOCAL(b, 1), GM(k->src, 0, "src") };

			CHECK(issue_op(core, ASC_PIPE_MTE2, copy_work, "DataCopy", a.addr,
				       k->src, NULL, wa, 2));
			CHECK(issue_op(core, ASC_PIPE_MTE2, copy_work, "DataCopy", b.addr,
				       k->src, NULL, wb, 2));
		}
		CHECK(asc_core_enque(core, d0, &b));
		CHECK(asc_core_enque(core, d0, &a));
		/* Depth 0: the consumer names the tensor, in any order. */
		CHECK(asc_core_deque_tensor(core, d0, &a));
		CHECK(use(core, &a));
		CHECK(asc_core_deque_tensor(core, d0, &b));
		CHECK(use(core, &b));
		CHECK(asc_core_free_tensor(core, d0, &a));
		CHECK(asc_core_free_tensor(core, d0, &b));
	}
	/* TQueBind(VECIN, VECOUT): MTE2 in, MTE3 out, no V. */
	bind = asc_core_tque_bind(core, ASC_POS_VECIN, ASC_POS_VECOUT, 1, "bind");
	CHECK(asc_core_init_buffer(core, bind, 1, TILE * sizeof(float)));
	for (i = 0; i < 2; i++) {
		CHECK(asc_core_alloc_tensor(core, bind, &t));
		k->bind_mem = t.mem;
		{
			const struct asc_access in[] = { LOCAL(t, 1), GM(k->src, 0, "src") };
			const struct asc_access out[] = { LOCAL(t, 0), GM(k->dst, 1, "dst") };

			CHECK(issue_op(core, ASC_PIPE_MTE2, copy_work, "DataCopy(t, src)",
				       t.addr, k->src, NULL, in, 2));
			CHECK(asc_core_enque(core, bind, &t));
			CHECK(asc_core_deque(core, bind, &t));
			CHECK(issue_op(core, ASC_PIPE_MTE3, copy_work, "DataCopy(dst, t)",
				       k->dst, t.addr, NULL, out, 2));
		}
		CHECK(asc_core_free_tensor(core, bind, &t));
	}
	/* A VECCALC TQue: in the Unified Buffer, alloc and free only. */
	calc = asc_core_tque(core, ASC_POS_VECCALC, 1, "calc");
	CHECK(asc_core_init_buffer(core, calc, 1, 64));
	for (i = 0; i < 2; i++) {
		CHECK(asc_core_alloc_tensor(core, calc, &t));
		k->calc_mem = t.mem;
		CHECK(use(core, &t));
		CHECK(asc_core_free_tensor(core, calc, &t));
	}
	/* A TBuf's part; past its end refused. */
	buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmp");
	CHECK(asc_core_init_buffer(core, buf, 1, 96));
	CHECK(asc_core_tbuf_get(core, buf, 0, &whole));
	CHECK(asc_core_tbuf_get_with_offset(core, buf, 32, 64, &k->part));
	k->part.name = NULL;
	if (k->part.addr != (char *)whole.addr + 64)
		k->part.size = 0;
	/* The cube's positions, on the core of asc_core_run(). */
	for (i = 0; i < 4; i++) {
		cube[i] = asc_core_tque(core, cube_at[i], 1, NULL);
		CHECK(asc_core_init_buffer(core, cube[i], 1, 64));
		CHECK(asc_core_alloc_tensor(core, cube[i], &t));
		k->cube_pos[i] = t.pos;
		k->cube_mem[i] = t.mem;
		CHECK(asc_core_free_tensor(core, cube[i], &t));
	}
	/* destroy() gives a depth-0 queue's IDs back: it is done. */
	CHECK(asc_core_tpipe_destroy(core));
	k->fetched_enq = asc_core_fetch_event_id(core, MTE2_V) * 10 + k->fetched_enq;
	errno = 0;
	asc_core_alloc_tensor(core, d0, &a);
	k->retired = errno;
}

TEST(depth0_bind_veccalc_tbuf_and_the_cube)
{
	static const int cube_mem[4] = { ASC_MEM_L1, ASC_MEM_L0B, ASC_MEM_L0C, ASC_MEM_BT };
	static const int cube_pos[4] = { ASC_POS_A1, ASC_POS_B2, ASC_POS_CO1, ASC_POS_C2 };
	static struct kinds k;
	char *report;
	int i;

	need_device(_metadata);
	memset(&k, 0, sizeof(k));
	for (i = 0; i < TILE; i++)
		k.src[i] = i;
	ASSERT_EQ(EINVAL, run(kinds_kernel, &k, &checked, &report)) TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "d0.alloc_tensor(): destroy() gave back the IDs of this depth-0 queue"))
		TH_LOG("%s", report);
	free(report);
	/* Before destroy(): 2 of each held; after, none. */
	EXPECT_EQ(2, k.fetched_enq);
	EXPECT_EQ(2, k.fetched_free);
	EXPECT_EQ(EINVAL, k.retired);
	EXPECT_EQ(0, memcmp(k.src, k.dst, sizeof(k.src)));
	EXPECT_EQ(ASC_MEM_UB, k.bind_mem);
	EXPECT_EQ(ASC_MEM_UB, k.calc_mem);
	EXPECT_EQ(32U, k.part.size);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(cube_pos[i], k.cube_pos[i]);
		EXPECT_EQ(cube_mem[i], k.cube_mem[i]);
	}
}

/* ---- the trace marker: a queue's sets and waits are spans of their own ---- */

TEST(trace_marker_names_the_queues_sets_and_waits)
{
	char path[] = "/tmp/asc-que-marker-XXXXXX";
	static char got[1 << 16];
	static struct vadd v;
	char *report;
	ssize_t n;
	int fd;

	need_device(_metadata);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	setenv("ASC_TRACE_MARKER", path, 1);
	vadd_prepare(&v, 2);
	ASSERT_EQ(0, run(vadd_kernel, &v, &checked, &report)) TH_LOG("%s", report);
	unsetenv("ASC_TRACE_MARKER");
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	unlink(path);
	ASSERT_LT(0, n);
	got[n] = '\0';
	EXPECT_NE(NULL, strstr(got, " pipe=MTE2 n=11 name=inQueueX.enque\n")) TH_LOG("%.4000s", got);
	EXPECT_NE(NULL, strstr(got, " pipe=V n=14 name=inQueueX.deque\n"));
	EXPECT_NE(NULL, strstr(got, " pipe=V n=19 name=inQueueX.free_tensor\n"));
	EXPECT_NE(NULL, strstr(got, " pipe=MTE3 n=21 name=outQueueZ.deque\n"));
	EXPECT_NE(NULL, strstr(got, " pipe=MTE3 n=23 name=outQueueZ.free_tensor\n"));
	/* Tile 2 takes inQueueX's buffer 0 again and waits for its free event. */
	EXPECT_NE(NULL, strstr(got, " pipe=MTE2 n=40 name=inQueueX.alloc_tensor\n"));
	/* Work is named as it was issued. */
	EXPECT_NE(NULL, strstr(got, " pipe=V n=17 name=Add\n"));
	EXPECT_EQ(0, vadd_wrong(&v));
}

/* ---- more misuse ---- */

struct odd {
	int what;
	int line;
};

enum {
	ENQUE_TWICE,
	DEQUE_TENSOR_NOT_ENQUEUED,
	GET_PAST_END,
	QUE_AT_GM,
	DEPTH_TOO_DEEP,
	WAIT_ON_QUEUES_ID,
	RELEASE_QUEUES_ID,
	INIT_WITHOUT_DESTROY,
	TBUF_ALLOC,
	NR_ODD,
};

static void odd_kernel(struct asc_core *core, void *arg)
{
	struct odd *o = arg;
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECIN, 2, "inQueueX");
	struct asc_que *d0 = asc_core_tque(core, ASC_POS_VECIN, 0, "d0");
	struct asc_que *buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmp");
	struct asc_local a;

	CHECK(asc_core_init_buffer(core, q, 2, 1024));
	CHECK(asc_core_init_buffer(core, d0, 1, 1024));
	CHECK(asc_core_init_buffer(core, buf, 1, 1024));
	switch (o->what) {
	case ENQUE_TWICE:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_enque(core, q, &a));
		o->line = __LINE__ + 1;
		asc_core_enque(core, q, &a);
		return;
	case DEQUE_TENSOR_NOT_ENQUEUED:
		CHECK(asc_core_alloc_tensor(core, d0, &a));
		o->line = __LINE__ + 1;
		asc_core_deque_tensor(core, d0, &a);
		return;
	case GET_PAST_END:
		o->line = __LINE__ + 1;
		asc_core_tbuf_get_with_offset(core, buf, 64, 992, &a);
		return;
	case QUE_AT_GM:
		o->line = __LINE__ + 1;
		asc_core_tque(core, ASC_POS_CO2, 1, "co2");
		return;
	case DEPTH_TOO_DEEP:
		o->line = __LINE__ + 1;
		asc_core_tque(core, ASC_POS_VECIN, 65, "deep");
		return;
	case WAIT_ON_QUEUES_ID:
		/* d0 holds V_MTE2 ID 0 for good. */
		o->line = __LINE__ + 1;
		asc_core_wait_flag(core, V_MTE2, 0);
		return;
	case RELEASE_QUEUES_ID:
		o->line = __LINE__ + 1;
		asc_core_release_event_id(core, 0, MTE2_V);
		return;
	case INIT_WITHOUT_DESTROY:
		CHECK(asc_core_alloc_tensor(core, q, &a));
		CHECK(asc_core_free_tensor(core, q, &a));
		o->line = __LINE__ + 1;
		asc_core_tpipe_init(core);
		return;
	case TBUF_ALLOC:
		o->line = __LINE__ + 1;
		asc_core_alloc_tensor(core, buf, &a);
		return;
	}
}

static const struct expect odd_expect[NR_ODD] = {
	[ENQUE_TWICE] = { EALREADY, "queue: #9 inQueueX.enque(inQueueX[0]): enqueued already (by #8 at que-run.c:" },
	[DEQUE_TENSOR_NOT_ENQUEUED] = { ENODATA, "queue: #8 d0.deque_tensor(d0[0]): it is not enqueued at que-run.c:" },
	[GET_PAST_END] = { EINVAL, "queue: #7 tmp.get_with_offset(64, 992): bytes 992..1056 are past the end of its 1024 at que-run.c:" },
	[QUE_AT_GM] = { EINVAL, "error: #7 tque(co2): CO2 is global memory: it has no queue at que-run.c:" },
	[DEPTH_TOO_DEEP] = { EINVAL, "error: #7 tque(deep): depth 65: depths are 0..64 at que-run.c:" },
	[WAIT_ON_QUEUES_ID] = { EADDRINUSE, "error: #7 wait_flag(V_MTE2, 0): the ID is held by queue d0: the free ID of depth-0 d0[0] (#5 at que-run.c:" },
	[RELEASE_QUEUES_ID] = { EADDRINUSE, "error: #7 release_event_id(MTE2_V, 0): the ID is held by queue d0: the enqueue ID of depth-0 d0[0] (#5 at que-run.c:" },
	[INIT_WITHOUT_DESTROY] = { ENOLCK, ") and no wait takes it before init (#9 at que-run.c:" },
	[TBUF_ALLOC] = { EINVAL, "queue: #7 tmp.alloc_tensor(): a TBuf has no alloc_tensor (it takes no events: get() its tensor) at que-run.c:" },
};

TEST(more_misuse_with_its_report)
{
	struct odd o;
	char *report;
	int w;

	need_device(_metadata);
	for (w = 0; w < NR_ODD; w++) {
		o = (struct odd){ .what = w };
		ASSERT_EQ(odd_expect[w].err, run(odd_kernel, &o, &checked, &report))
			TH_LOG("case %d: %s", w, report);
		EXPECT_NE(NULL, strstr(report, odd_expect[w].text)) TH_LOG("case %d: %s", w, report);
		EXPECT_TRUE(names_line(report, o.line)) TH_LOG("case %d, line %d: %s", w, o.line,
							       report);
		free(report);
	}
}

/*
 * In a launch, a queue's set that waits for the consumer's previous wait
 * is known to the launch's deadlock detector: V never gets past a
 * cross-core wait no core sets, so MTE2's second enque, which reuses the
 * ID, waits forever too, and the launch fails instead of hanging.
 */
static int qset_wait_line, qset_enque_line;

static void qset_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECIN, 2, "inQueueX");
	struct asc_local a, b;

	(void)arg;
	CHECK(asc_core_init_buffer(core, q, 2, 1024));
	CHECK(asc_core_alloc_tensor(core, q, &a));
	CHECK(fill(core, &a));
	CHECK(asc_core_enque(core, q, &a));
	qset_wait_line = __LINE__ + 1;
	CHECK(asc_core_cross_wait_flag(core, 1, ASC_PIPE_V));
	CHECK(asc_core_deque(core, q, &a));
	CHECK(asc_core_alloc_tensor(core, q, &b));
	CHECK(fill(core, &b));
	qset_enque_line = __LINE__ + 1;
	CHECK(asc_core_enque(core, q, &b));
	CHECK(asc_core_deque(core, q, &b));
	CHECK(asc_core_free_tensor(core, q, &a));
	CHECK(asc_core_free_tensor(core, q, &b));
}

TEST(a_queues_set_in_a_launch_deadlock)
{
	char *report, want[160];

	need_device(_metadata);
	errno = 0;
	ASSERT_EQ(-1, asc_launch_run(qset_kernel, NULL, ASC_LAUNCH_AIV, 1, NULL, &report));
	EXPECT_EQ(EDEADLK, errno);
	snprintf(want, sizeof(want),
		 "core 0 (AIV 0) V waits for cross-core flag 1 (#6 at que-run.c:%d)",
		 qset_wait_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	snprintf(want, sizeof(want),
		 "core 0 (AIV 0) MTE2 waits to set MTE2_V id 0 (#10 at que-run.c:%d) until V has taken its previous set",
		 qset_enque_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	free(report);
}

TEST_HARNESS_MAIN
