// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ops libasc runs itself (asc_core_issue_op()) on the device, in the
 * test guest (tools/testing/asc-check-guest).  Needs /dev/asc_event; skips
 * without it.
 *
 * - data_copy, add, mul, muls and duplicate of every dtype give what a
 *   reference computed here in double (floats, rounded once to the type)
 *   or modulo the width (integers) gives; hand-picked cases pin the
 *   wrap-around, the rounding of half and a copy that overlaps itself.
 * - Each bad op fails the run with EINVAL and a report line naming the
 *   call, its reason and its line here.
 * - An op is an instruction as any work: the detector finds a missing
 *   sync between two ops, the trace marker has its span, on S it runs
 *   before the call returns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "need-device.h"

/* Elements of each operand of the tests of every dtype. */
#define N	37

/*
 * One op issued by a kernel: @pipe, @op, @what and @acc (@nacc of them);
 * @line is the line of the call.
 */
struct op_case {
	int pipe;
	struct asc_op op;
	const char *what;
	struct asc_access acc[3];
	unsigned int nacc;
	int line;
	int done_at_return;
};

static void op_kernel(struct asc_core *core, void *arg)
{
	struct op_case *k = arg;

	k->line = __LINE__ + 1;
	if (asc_core_issue_op(core, k->pipe, &k->op, k->what, k->acc, k->nacc) < 0)
		return;
	/* On S the op has run when the call returns. */
	if (k->pipe == ASC_PIPE_S)
		k->done_at_return = !memcmp(k->op.dst, k->op.src0, k->op.count);
}

/* Run @k's kernel: its errno (0 on success) and report. */
static int run(struct op_case *k, char **report)
{
	errno = 0;
	return asc_core_run(op_kernel, k, NULL, report) ? errno : 0;
}

/*
 * @k: @kind of @dtype over @n elements at @d from @a and @b, on the pipe
 * of the kind, declaring each operand it takes.
 */
static void make_case(struct op_case *k, int kind, int dtype, void *d,
		      const void *a, const void *b, size_t n, size_t size)
{
	memset(k, 0, sizeof(*k));
	k->pipe = kind == ASC_OP_COPY ? ASC_PIPE_MTE2 : ASC_PIPE_V;
	k->op.kind = kind;
	k->op.dtype = dtype;
	k->op.dst = d;
	k->op.count = n;
	k->what = "op";
	k->acc[k->nacc++] = (struct asc_access){ d, n * size, 1, "dst" };
	if (kind != ASC_OP_DUPLICATE) {
		k->op.src0 = a;
		k->acc[k->nacc++] = (struct asc_access){ a, n * size, 0, "src0" };
	}
	if (kind == ASC_OP_ADD || kind == ASC_OP_MUL) {
		k->op.src1 = b;
		k->acc[k->nacc++] = (struct asc_access){ b, n * size, 0, "src1" };
	}
}

/* ---- elements of each dtype, read and written as double or uint64_t ---- */

static const int dtypes[] = {
	ASC_DTYPE_INT8, ASC_DTYPE_INT16, ASC_DTYPE_INT32, ASC_DTYPE_INT64,
	ASC_DTYPE_UINT8, ASC_DTYPE_UINT16, ASC_DTYPE_UINT32, ASC_DTYPE_UINT64,
	ASC_DTYPE_FLOAT16, ASC_DTYPE_FLOAT32, ASC_DTYPE_FLOAT64,
};

#define NDTYPES	(sizeof(dtypes) / sizeof(dtypes[0]))

static bool is_float(int dt)
{
	return dt >= ASC_DTYPE_FLOAT16;
}

static size_t dsize(int dt)
{
	static const size_t sizes[] = { 0, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8 };

	return sizes[dt];
}

static uint64_t mask(int dt)
{
	return dsize(dt) == 8 ? UINT64_MAX : (1ULL << (8 * dsize(dt))) - 1;
}

/* @v rounded to float dtype @dt, as a double. */
static double rounded(int dt, double v)
{
	if (dt == ASC_DTYPE_FLOAT16)
		return (double)(_Float16)v;
	if (dt == ASC_DTYPE_FLOAT32)
		return (double)(float)v;
	return v;
}

static void putf(int dt, void *p, size_t i, double v)
{
	_Float16 h = (_Float16)v;
	float f = (float)v;

	if (dt == ASC_DTYPE_FLOAT16)
		memcpy((char *)p + 2 * i, &h, 2);
	else if (dt == ASC_DTYPE_FLOAT32)
		memcpy((char *)p + 4 * i, &f, 4);
	else
		memcpy((char *)p + 8 * i, &v, 8);
}

static double getf(int dt, const void *p, size_t i)
{
	_Float16 h;
	double v;
	float f;

	if (dt == ASC_DTYPE_FLOAT16) {
		memcpy(&h, (const char *)p + 2 * i, 2);
		return h;
	}
	if (dt == ASC_DTYPE_FLOAT32) {
		memcpy(&f, (const char *)p + 4 * i, 4);
		return f;
	}
	memcpy(&v, (const char *)p + 8 * i, 8);
	return v;
}

/* Integers in little-endian bytes (the test machine's order). */
static void putu(int dt, void *p, size_t i, uint64_t v)
{
	memcpy((char *)p + dsize(dt) * i, &v, dsize(dt));
}

static uint64_t getu(int dt, const void *p, size_t i)
{
	uint64_t v = 0;

	memcpy(&v, (const char *)p + dsize(dt) * i, dsize(dt));
	return v;
}

/* Operand values: integers of every bit pattern, floats of both signs. */
static void fill(int dt, void *a, void *b)
{
	size_t i;

	for (i = 0; i < N; i++) {
		if (is_float(dt)) {
			putf(dt, a, i, ((double)i - 17) * 0.37);
			putf(dt, b, i, 3.25 - (double)i * 1.5);
		} else {
			putu(dt, a, i, (i + 1) * 0x9e3779b97f4a7c15ULL);
			putu(dt, b, i, (i + 7) * 0xc2b2ae3d27d4eb4fULL);
		}
	}
}

/* One byte more than the largest dtype needs, for the check past the count. */
static unsigned char a[N * 8], b[N * 8], d[N * 8 + 1];

/* The scalar of the tests of muls and duplicate. */
#define SCALAR_F	-2.7
#define SCALAR_I	-3

/* @kind of every dtype against the reference. */
static void check_kind(struct __test_metadata *_metadata, int kind)
{
	struct op_case k;
	char *report;
	unsigned int t;
	size_t i;

	for (t = 0; t < NDTYPES; t++) {
		int dt = dtypes[t];
		double x, y, s = rounded(dt, SCALAR_F), want;
		uint64_t xu, yu, su = (uint64_t)SCALAR_I, wantu;

		fill(dt, a, b);
		memset(d, 0x5a, sizeof(d));
		make_case(&k, kind, dt, d, a, b, N, dsize(dt));
		if (kind == ASC_OP_MULS || kind == ASC_OP_DUPLICATE) {
			if (is_float(dt))
				k.op.scalar.f = SCALAR_F;
			else
				k.op.scalar.i = SCALAR_I;
		}
		ASSERT_EQ(0, run(&k, &report)) TH_LOG("dtype %d: %s", dt, report);
		free(report);
		for (i = 0; i < N; i++) {
			if (is_float(dt)) {
				x = getf(dt, a, i);
				y = getf(dt, b, i);
				want = kind == ASC_OP_COPY ? x : kind == ASC_OP_ADD ? x + y :
				       kind == ASC_OP_MUL ? x * y :
				       kind == ASC_OP_MULS ? x * s : s;
				want = rounded(dt, want);
				ASSERT_EQ(want, getf(dt, d, i))
					TH_LOG("kind %d dtype %d element %zu", kind, dt, i);
				continue;
			}
			xu = getu(dt, a, i);
			yu = getu(dt, b, i);
			wantu = kind == ASC_OP_COPY ? xu : kind == ASC_OP_ADD ? xu + yu :
				kind == ASC_OP_MUL ? xu * yu :
				kind == ASC_OP_MULS ? xu * su : su;
			ASSERT_EQ(wantu & mask(dt), getu(dt, d, i))
				TH_LOG("kind %d dtype %d element %zu", kind, dt, i);
		}
		/* Not a byte past the count. */
		ASSERT_EQ(0x5a, d[N * dsize(dt)]);
	}
}

TEST(copy_of_every_dtype)
{
	need_device(_metadata);
	check_kind(_metadata, ASC_OP_COPY);
}

TEST(add_of_every_dtype)
{
	need_device(_metadata);
	check_kind(_metadata, ASC_OP_ADD);
}

TEST(mul_of_every_dtype)
{
	need_device(_metadata);
	check_kind(_metadata, ASC_OP_MUL);
}

TEST(muls_of_every_dtype)
{
	need_device(_metadata);
	check_kind(_metadata, ASC_OP_MULS);
}

TEST(duplicate_of_every_dtype)
{
	need_device(_metadata);
	check_kind(_metadata, ASC_OP_DUPLICATE);
}

/* Run @kind of @dt on one pair of elements (@x, @y; @s the scalar). */
static int one(int kind, int dt, const void *x, const void *y, void *out,
	       int64_t s)
{
	struct op_case k;
	char *report;
	int err;

	make_case(&k, kind, dt, out, x, y, 1, dsize(dt));
	k.op.scalar.i = s;
	err = run(&k, &report);
	free(report);
	return err;
}

/* Integers wrap around as two's complement; products do not overflow int. */
TEST(integers_wrap)
{
	int8_t i8x = 100, i8y = 100, i8 = 0;
	uint16_t u16x = 65535, u16 = 0;
	int64_t i64x = INT64_MAX, i64y = 1, i64 = 0;
	int32_t i32x = 7, i32 = 0;
	uint64_t u64 = 0;

	need_device(_metadata);
	ASSERT_EQ(0, one(ASC_OP_ADD, ASC_DTYPE_INT8, &i8x, &i8y, &i8, 0));
	EXPECT_EQ(-56, i8);
	ASSERT_EQ(0, one(ASC_OP_MUL, ASC_DTYPE_UINT16, &u16x, &u16x, &u16, 0));
	EXPECT_EQ(1, u16);
	ASSERT_EQ(0, one(ASC_OP_ADD, ASC_DTYPE_INT64, &i64x, &i64y, &i64, 0));
	EXPECT_EQ(INT64_MIN, i64);
	ASSERT_EQ(0, one(ASC_OP_MULS, ASC_DTYPE_INT32, &i32x, NULL, &i32, -3));
	EXPECT_EQ(-21, i32);
	ASSERT_EQ(0, one(ASC_OP_DUPLICATE, ASC_DTYPE_UINT64, NULL, NULL, &u64, -1));
	EXPECT_EQ(UINT64_MAX, u64);
}

/* A sum of half values is rounded once, to nearest even. */
TEST(half_rounds_to_nearest_even)
{
	_Float16 x = 2048, one_ = 1, three = 3, big = 65504, step = 32, r = 0;

	need_device(_metadata);
	ASSERT_EQ(0, one(ASC_OP_ADD, ASC_DTYPE_FLOAT16, &x, &one_, &r, 0));
	EXPECT_EQ(2048, (double)r);
	ASSERT_EQ(0, one(ASC_OP_ADD, ASC_DTYPE_FLOAT16, &x, &three, &r, 0));
	EXPECT_EQ(2052, (double)r);
	ASSERT_EQ(0, one(ASC_OP_ADD, ASC_DTYPE_FLOAT16, &big, &step, &r, 0));
	EXPECT_TRUE(isinf((double)r));
}

/* dst may be a source; a copy may overlap itself (as memmove()). */
TEST(in_place_and_overlapping_copy)
{
	float v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct op_case k;
	char *report;
	int i;

	need_device(_metadata);
	make_case(&k, ASC_OP_ADD, ASC_DTYPE_FLOAT32, v, v, v, 8, sizeof(float));
	ASSERT_EQ(0, run(&k, &report)) TH_LOG("%s", report);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(2 * (i + 1), v[i]);
	make_case(&k, ASC_OP_COPY, ASC_DTYPE_FLOAT32, v + 1, v, NULL, 7, sizeof(float));
	k.acc[0].size = sizeof(v) - sizeof(float);
	ASSERT_EQ(0, run(&k, &report)) TH_LOG("%s", report);
	EXPECT_EQ(2, v[0]);
	for (i = 1; i < 8; i++)
		EXPECT_EQ(2 * i, v[i]);
	/* And the other way: 2 2 4 6 8 10 12 14 -> 2 4 6 8 10 12 14 14. */
	make_case(&k, ASC_OP_COPY, ASC_DTYPE_FLOAT32, v, v + 1, NULL, 7, sizeof(float));
	k.acc[0].size = sizeof(v) - sizeof(float);
	ASSERT_EQ(0, run(&k, &report)) TH_LOG("%s", report);
	for (i = 0; i < 7; i++)
		EXPECT_EQ(2 * (i + 1), v[i]);
	EXPECT_EQ(14, v[7]);
}

/* A copy issued to S has run when the call returns. */
TEST(copy_on_s_runs_at_once)
{
	struct op_case k;
	char *report;

	need_device(_metadata);
	memset(a, 7, sizeof(a));
	memset(d, 0, sizeof(d));
	make_case(&k, ASC_OP_COPY, ASC_DTYPE_UINT8, d, a, NULL, 16, 1);
	k.pipe = ASC_PIPE_S;
	ASSERT_EQ(0, run(&k, &report)) TH_LOG("%s", report);
	EXPECT_TRUE(k.done_at_return);
}

/* ---- bad ops ---- */

/*
 * Each bad op: how it is made from a good add of 8 floats (d = a + b),
 * the reason in the report.
 */
enum bad {
	BAD_NO_OP, BAD_KIND_0, BAD_KIND_6, BAD_DTYPE_0, BAD_DTYPE_12,
	BAD_NULL_DST, BAD_NULL_SRC0, BAD_NULL_SRC1, BAD_SRC1_OF_MULS,
	BAD_SRC0_OF_DUPLICATE, BAD_SCALAR_OF_ADD, BAD_COUNT_0, BAD_COUNT_WRAPS,
	BAD_OFF_V, BAD_DST_UNDECLARED, BAD_DST_ONLY_READ, BAD_SRC0_SHORT,
	BAD_SRC1_UNDECLARED, BAD_PARTLY_OVERLAPS, BAD_NOT_A_PIPE, BAD_ACCESS,
	BAD_COUNT
};

static const char *const bad_reason[BAD_COUNT] = {
	[BAD_NO_OP] = "no op",
	[BAD_KIND_0] = "no such op kind",
	[BAD_KIND_6] = "no such op kind",
	[BAD_DTYPE_0] = "no such dtype",
	[BAD_DTYPE_12] = "no such dtype",
	[BAD_NULL_DST] = "a NULL operand",
	[BAD_NULL_SRC0] = "a NULL operand",
	[BAD_NULL_SRC1] = "a NULL operand",
	[BAD_SRC1_OF_MULS] = "an operand the op does not take",
	[BAD_SRC0_OF_DUPLICATE] = "an operand the op does not take",
	[BAD_SCALAR_OF_ADD] = "a scalar the op does not take",
	[BAD_COUNT_0] = "a bad count",
	[BAD_COUNT_WRAPS] = "a bad count",
	[BAD_OFF_V] = "a vector op off V",
	[BAD_DST_UNDECLARED] = "dst outside the accesses written",
	[BAD_DST_ONLY_READ] = "dst outside the accesses written",
	[BAD_SRC0_SHORT] = "src0 outside the accesses",
	[BAD_SRC1_UNDECLARED] = "src1 outside the accesses",
	[BAD_PARTLY_OVERLAPS] = "dst partly overlaps a source",
	[BAD_NOT_A_PIPE] = "not a pipe",
	[BAD_ACCESS] = "a bad access",
};

static void make_bad(struct op_case *k, enum bad bad, bool *null_op)
{
	static float x[16], y[16], z[16];

	*null_op = bad == BAD_NO_OP;
	make_case(k, ASC_OP_ADD, ASC_DTYPE_FLOAT32, z, x, y, 8, sizeof(float));
	k->what = "add";
	switch (bad) {
	case BAD_KIND_0:
		k->op.kind = 0;
		break;
	case BAD_KIND_6:
		k->op.kind = ASC_OP_DUPLICATE + 1;
		break;
	case BAD_DTYPE_0:
		k->op.dtype = 0;
		break;
	case BAD_DTYPE_12:
		k->op.dtype = ASC_DTYPE_FLOAT64 + 1;
		break;
	case BAD_NULL_DST:
		k->op.dst = NULL;
		break;
	case BAD_NULL_SRC0:
		k->op.src0 = NULL;
		break;
	case BAD_NULL_SRC1:
		k->op.src1 = NULL;
		break;
	case BAD_SRC1_OF_MULS:
		k->op.kind = ASC_OP_MULS;
		break;
	case BAD_SRC0_OF_DUPLICATE:
		k->op.kind = ASC_OP_DUPLICATE;
		k->op.src1 = NULL;
		break;
	case BAD_SCALAR_OF_ADD:
		k->op.scalar.f = 1;
		break;
	case BAD_COUNT_0:
		k->op.count = 0;
		break;
	case BAD_COUNT_WRAPS:
		k->op.count = SIZE_MAX / 2;
		break;
	case BAD_OFF_V:
		k->pipe = ASC_PIPE_MTE2;
		break;
	case BAD_DST_UNDECLARED:
		k->acc[0].addr = z + 8;
		break;
	case BAD_DST_ONLY_READ:
		k->acc[0].write = 0;
		break;
	case BAD_SRC0_SHORT:
		k->acc[1].size -= 1;
		break;
	case BAD_SRC1_UNDECLARED:
		k->nacc = 2;
		break;
	case BAD_PARTLY_OVERLAPS:
		k->op.dst = x + 1;
		k->acc[0] = (struct asc_access){ x, sizeof(x), 1, "x" };
		break;
	case BAD_NOT_A_PIPE:
		k->pipe = ASC_PIPE_ALL;
		break;
	case BAD_ACCESS:
		k->acc[2].size = 0;
		break;
	default:
		break;
	}
}

static void null_op_kernel(struct asc_core *core, void *arg)
{
	struct op_case *k = arg;

	k->line = __LINE__ + 1;
	asc_core_issue_op(core, k->pipe, NULL, k->what, k->acc, k->nacc);
}

/* Each bad op fails the run with EINVAL, its reason and the call's line. */
TEST(bad_ops_fail_with_einval)
{
	char want[160], at[40];
	struct op_case k;
	bool null_op;
	char *report;
	int bad, err;

	need_device(_metadata);
	for (bad = 0; bad < BAD_COUNT; bad++) {
		make_bad(&k, bad, &null_op);
		errno = 0;
		err = asc_core_run(null_op ? null_op_kernel : op_kernel, &k, NULL, &report) ?
		      errno : 0;
		EXPECT_EQ(EINVAL, err) TH_LOG("bad op %d: %s", bad, report);
		snprintf(want, sizeof(want), "error: #1 issue_op(%d, add): %s at ops-run.c:",
			 k.pipe, bad_reason[bad]);
		snprintf(at, sizeof(at), "ops-run.c:%d:", k.line);
		EXPECT_TRUE(report && strstr(report, want) && strstr(report, at))
			TH_LOG("bad op %d: want \"%s%d\" in: %s", bad, want, k.line, report);
		free(report);
	}
}

/* The good op every bad one is made from passes. */
TEST(the_good_op_of_the_bad_ones_passes)
{
	struct op_case k;
	bool null_op;
	char *report;

	need_device(_metadata);
	make_bad(&k, BAD_COUNT, &null_op);
	ASSERT_EQ(0, run(&k, &report)) TH_LOG("%s", report);
	free(report);
}

/* ---- an instruction as any other ---- */

static float gm[64], ub[64], out[64];
static int copy_line, add_line;

/* data_copy to UB on MTE2, add on V reading it: no sync between them. */
static void unsynced_kernel(struct asc_core *core, void *arg)
{
	const struct asc_access in[] = { { gm, sizeof(gm), 0, "x_gm" },
					 { ub, sizeof(ub), 1, "x_local" } };
	const struct asc_access add[] = { { ub, sizeof(ub), 0, "x_local" },
					  { out, sizeof(out), 1, "z_local" } };
	struct asc_op copy = { .kind = ASC_OP_COPY, .dtype = ASC_DTYPE_FLOAT32,
			       .dst = ub, .src0 = gm, .count = 64 };
	struct asc_op sum = { .kind = ASC_OP_ADD, .dtype = ASC_DTYPE_FLOAT32,
			      .dst = out, .src0 = ub, .src1 = ub, .count = 64 };

	(void)arg;
	copy_line = __LINE__ + 1;
	if (asc_core_issue_op(core, ASC_PIPE_MTE2, &copy, "data_copy", in, 2) < 0)
		return;
	add_line = __LINE__ + 1;
	asc_core_issue_op(core, ASC_PIPE_V, &sum, "add", add, 2);
}

/* The detector sees an op's accesses: a missing sync names both ops. */
TEST(missing_sync_between_ops)
{
	char copy_at[64], add_at[64];
	char *report;
	int err;

	need_device(_metadata);
	errno = 0;
	err = asc_core_run(unsynced_kernel, NULL, NULL, &report) ? errno : 0;
	EXPECT_EQ(ENOLCK, err);
	snprintf(copy_at, sizeof(copy_at), "#1 data_copy at ops-run.c:%d", copy_line);
	snprintf(add_at, sizeof(add_at), "#2 add at ops-run.c:%d", add_line);
	EXPECT_TRUE(report && strstr(report, "missing sync") &&
		    strstr(report, copy_at) && strstr(report, add_at))
		TH_LOG("%s", report);
	free(report);
}

/* With ASC_TRACE_MARKER, an op is a span of its pipe, named after @what. */
TEST(trace_marker_span_of_an_op)
{
	char path[] = "/tmp/asc-ops-marker-XXXXXX", got[512] = "";
	struct op_case k;
	char *report;
	ssize_t n;
	int fd;

	need_device(_metadata);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	setenv("ASC_TRACE_MARKER", path, 1);
	make_case(&k, ASC_OP_DUPLICATE, ASC_DTYPE_INT32, d, NULL, NULL, 4, 4);
	k.what = "duplicate";
	k.op.scalar.i = 9;
	ASSERT_EQ(0, run(&k, &report)) TH_LOG("%s", report);
	unsetenv("ASC_TRACE_MARKER");
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	unlink(path);
	ASSERT_LT(0, n);
	got[n] = '\0';
	EXPECT_TRUE(strstr(got, " pipe=V n=1 name=duplicate\n") &&
		    strstr(got, "asc_span end ") && strstr(got, " pipe=V n=1\n"))
		TH_LOG("%s", got);
	EXPECT_EQ(9, (int)getu(ASC_DTYPE_INT32, d, 3));
}

TEST_HARNESS_MAIN
