// SPDX-License-Identifier: GPL-2.0
/*
 * add-rms-norm - x = x1 + x2, y = x / sqrt(mean(x^2) + eps) * gamma over
 * one row of bfloat16, with x stored too: the fused add + RMSNorm of
 * transformer layers, in one unified buffer, with allocated and fetched
 * event IDs mixed, and the scalar reading the reduction from V.
 *
 * Follows, line by line, repository hicann/ops-nn
 * (github.com/hicann/ops-nn), commit e5c3fa9327ea: file
 * experimental/norm/fused_add_rms_norm/op_kernel/fused_add_rms_norm_single_n.h
 * lines 212-320 (ProcessBf16 and what it calls; the lines under
 * `__CCE_AICORE__ == 220`, which also store rstd, left out), and file
 * experimental/norm/fused_add_rms_norm/op_kernel/fused_add_rms_norm_common.h
 * lines 78-107 (ReadLocalFloat, BuildRstd).  Sites of the second file are
 * named "common:LINE".  Our own code: the Ascend C calls become
 * asc_core_*() calls, each copy or vector instruction a work item with
 * the bytes of the unified buffer it touches (laid out as the original's
 * ubLocal: x1 and x2 as bfloat16 in the first quarter, then the float
 * buffers xFp32, sqx and tmp), PipeBarrier<PIPE_V> a barrier of V.
 * Every PipeBarrier<PIPE_V> is a site but two whose deletion changes
 * nothing: line 305's (the next vector instruction touches other bytes,
 * and line 312's barrier comes before the one that does) and common.h
 * line 106's (the set of V_S right after it also waits for the Div).
 *
 * IDs: AllocEventID for the two MTE2_V of the inputs (each released right
 * after its wait is issued, as pyasc's vadd does) and for MTE3_V;
 * FetchEventID for V_MTE2, for the MTE2_V of gamma (the ID the releases
 * just freed), for V_MTE3 (twice: the second set comes after V took
 * MTE3_V, so after MTE3's wait for the first) and for the scalar's V_S
 * and S_V.  Strict IDs (-S) pass: no ID is written by hand.
 *
 * Options: -n N columns (default 1000), -e EPS (default 1e-6).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define MTE2_V		ASC_HARD_EVENT_MTE2_V
#define V_MTE2		ASC_HARD_EVENT_V_MTE2
#define V_MTE3		ASC_HARD_EVENT_V_MTE3
#define MTE3_V		ASC_HARD_EVENT_MTE3_V
#define V_S		ASC_HARD_EVENT_V_S
#define S_V		ASC_HARD_EVENT_S_V

static const struct ex_site sites[] = {
	{ "237", "SetFlag<HardEvent::MTE2_V>(eventMTE2V1_BF16_0)" },
	{ "240", "SetFlag<HardEvent::MTE2_V>(eventMTE2V2_BF16_0)" },
	{ "241", "WaitFlag<HardEvent::MTE2_V>(eventMTE2V1_BF16_0)" },
	{ "244", "WaitFlag<HardEvent::MTE2_V>(eventMTE2V2_BF16_0)" },
	{ "247", "PipeBarrier<PIPE_V>()" },
	{ "249", "PipeBarrier<PIPE_V>()" },
	{ "251", "PipeBarrier<PIPE_V>()" },
	{ "257", "SetFlag<HardEvent::V_MTE2>(eventVMTE2_BF16_0)" },
	{ "258", "WaitFlag<HardEvent::V_MTE2>(eventVMTE2_BF16_0)" },
	{ "261", "SetFlag<HardEvent::MTE2_V>(eventMTE2V2_BF16_1)" },
	{ "268", "SetFlag<HardEvent::V_MTE3>(eventVMTE3_BF16_0)" },
	{ "269", "WaitFlag<HardEvent::V_MTE3>(eventVMTE3_BF16_0)" },
	{ "272", "SetFlag<HardEvent::MTE3_V>(eventMTE3V_BF16_0)" },
	{ "281", "PipeBarrier<PIPE_V>()" },
	{ "299", "PipeBarrier<PIPE_V>()" },
	{ "300", "WaitFlag<HardEvent::MTE3_V>(eventMTE3VBF16)" },
	{ "303", "PipeBarrier<PIPE_V>()" },
	{ "306", "WaitFlag<HardEvent::MTE2_V>(eventMTE2V2BF16)" },
	{ "312", "PipeBarrier<PIPE_V>()" },
	{ "314", "PipeBarrier<PIPE_V>()" },
	{ "317", "SetFlag<HardEvent::V_MTE3>(eventVMTE3_BF16_2)" },
	{ "318", "WaitFlag<HardEvent::V_MTE3>(eventVMTE3_BF16_2)" },
	{ "common:81", "SetFlag<HardEvent::V_S>(eventVS)" },
	{ "common:82", "WaitFlag<HardEvent::V_S>(eventVS)" },
	{ "common:85", "SetFlag<HardEvent::S_V>(eventSV)" },
	{ "common:86", "WaitFlag<HardEvent::S_V>(eventSV)" },
	{ "common:95", "PipeBarrier<PIPE_V>()" },
	{ "common:97", "PipeBarrier<PIPE_V>()" },
	{ "common:99", "PipeBarrier<PIPE_V>()" },
	{ "common:101", "PipeBarrier<PIPE_V>()" },
	{ "common:104", "PipeBarrier<PIPE_V>()" },
};

typedef uint16_t bf16;

/* Tiling and tensors: one row of numCol; ubFactor = numCol. */
static uint32_t numCol = 1000, ubFactor;
static float epsilon = 1e-6f, avgFactor;
static bf16 *x1Gm, *x2Gm, *gammaGm, *yGm, *xGm, *want_y, *want_x;
static float *ubLocal;			/* the unit buffer, 4 * ubFactor floats */
static float rstdValue;			/* the scalar's */

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static float bf16_to_float(bf16 h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* CAST_RINT: round to nearest, ties to even (no NaN in these data). */
static bf16 float_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return (bf16)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/* The instructions: what each does, on which operands. */
enum op_kind {
	OP_COPY_BF16,		/* DataCopyCustom<bf16> */
	OP_CAST_TO_FLOAT,	/* Cast(float <- bf16, CAST_NONE) */
	OP_CAST_TO_BF16,	/* Cast(bf16 <- float, CAST_RINT) */
	OP_ADD,			/* Add(dst, a, b) */
	OP_MUL,			/* Mul(dst, a, b) */
	OP_MULS,		/* Muls(dst, a, scalar) */
	OP_ADDS,		/* Adds(dst, a, scalar) */
	OP_REDUCE_SUM,		/* ReduceSumCustom: dst[0] = sum of a */
	OP_SQRT,		/* Sqrt(dst, a) */
	OP_DUPLICATE,		/* Duplicate(dst, scalar) */
	OP_DIV,			/* Div(dst, a, b) */
	OP_GET_VALUE,		/* the scalar's GetValue(0) into rstdValue */
};

struct op {
	enum op_kind kind;
	void *dst;
	const void *a, *b;
	float scalar;
	uint32_t n;
};

static void run_op(void *arg)
{
	struct op *o = arg;
	float *d = o->dst;
	const float *a = o->a, *b = o->b;
	uint32_t i;
	float sum = 0;

	switch (o->kind) {
	case OP_COPY_BF16:
		memcpy(o->dst, o->a, o->n * sizeof(bf16));
		break;
	case OP_CAST_TO_FLOAT:
		for (i = 0; i < o->n; i++)
			d[i] = bf16_to_float(((const bf16 *)o->a)[i]);
		break;
	case OP_CAST_TO_BF16:
		for (i = 0; i < o->n; i++)
			((bf16 *)o->dst)[i] = float_to_bf16(a[i]);
		break;
	case OP_ADD:
		for (i = 0; i < o->n; i++)
			d[i] = a[i] + b[i];
		break;
	case OP_MUL:
		for (i = 0; i < o->n; i++)
			d[i] = a[i] * b[i];
		break;
	case OP_MULS:
		for (i = 0; i < o->n; i++)
			d[i] = a[i] * o->scalar;
		break;
	case OP_ADDS:
		for (i = 0; i < o->n; i++)
			d[i] = a[i] + o->scalar;
		break;
	case OP_REDUCE_SUM:
		for (i = 0; i < o->n; i++)
			sum += a[i];
		d[0] = sum;
		break;
	case OP_SQRT:
		for (i = 0; i < o->n; i++)
			d[i] = sqrtf(a[i]);
		break;
	case OP_DUPLICATE:
		for (i = 0; i < o->n; i++)
			d[i] = o->scalar;
		break;
	case OP_DIV:
		for (i = 0; i < o->n; i++)
			d[i] = a[i] / b[i];
		break;
	case OP_GET_VALUE:
		rstdValue = a[0];
		break;
	}
	free(o);
}

/* Bytes of each operand: bf16 or float elements. */
static size_t dst_bytes(const struct op *o)
{
	if (o->kind == OP_COPY_BF16 || o->kind == OP_CAST_TO_BF16)
		return o->n * sizeof(bf16);
	if (o->kind == OP_REDUCE_SUM)
		return sizeof(float);
	return o->n * sizeof(float);
}

static size_t a_bytes(const struct op *o)
{
	if (o->kind == OP_COPY_BF16 || o->kind == OP_CAST_TO_FLOAT)
		return o->n * sizeof(bf16);
	if (o->kind == OP_GET_VALUE)
		return sizeof(float);
	return o->n * sizeof(float);
}

/* Issue @o (copied) to @pipe, with its operands as accesses. */
static int issue(struct asc_core *core, int pipe, const char *what,
		 struct op o, const char *dname, const char *aname,
		 const char *bname)
{
	struct asc_access acc[3];
	unsigned int nacc = 0;
	struct op *p;

	if (o.kind != OP_GET_VALUE)
		acc[nacc++] = (struct asc_access){ o.dst, dst_bytes(&o), 1, dname };
	if (o.a)
		acc[nacc++] = (struct asc_access){ o.a, a_bytes(&o), 0, aname };
	if (o.b)
		acc[nacc++] = (struct asc_access){ o.b, o.n * sizeof(float), 0, bname };
	p = malloc(sizeof(*p));
	if (!p)
		return -1;
	*p = o;
	if (asc_core_issue(core, pipe, run_op, p, what, acc, nacc) < 0) {
		free(p);
		return -1;
	}
	return 0;
}

#define V_OP(what, kind, dst, a, b, scalar, n, dn, an, bn) \
	issue(core, ASC_PIPE_V, what, (struct op){ kind, dst, a, b, scalar, n }, \
	      dn, an, bn)

/* DataCopyCustom<T>: MTE2 from global memory, MTE3 to it. */
static int DataCopyCustom(struct asc_core *core, bf16 *dst, const bf16 *src,
			  uint32_t n, const char *dname, const char *sname)
{
	int pipe = dst == xGm || dst == yGm ? ASC_PIPE_MTE3 : ASC_PIPE_MTE2;

	return issue(core, pipe, "DataCopyCustom",
		     (struct op){ OP_COPY_BF16, dst, src, NULL, 0, n }, dname,
		     sname, NULL);
}

/* common.h lines 78-88: the scalar reads one float V computed. */
static int ReadLocalFloat(struct asc_core *core, float *srcLocal, float *value)
{
	int eventVS, eventSV;

	TRY(eventVS = asc_core_fetch_event_id(core, V_S));
	TRY(ex_set(core, "common:81", V_S, eventVS));
	TRY(ex_wait(core, "common:82", V_S, eventVS));
	TRY(issue(core, ASC_PIPE_S, "GetValue(sqx)",
		  (struct op){ OP_GET_VALUE, NULL, srcLocal, NULL, 0, 1 }, NULL,
		  "sqx", NULL));
	*value = rstdValue;
	TRY(eventSV = asc_core_fetch_event_id(core, S_V));
	TRY(ex_set(core, "common:85", S_V, eventSV));
	return ex_wait(core, "common:86", S_V, eventSV);
}

/* common.h lines 90-107: sqx[0] = 1 / sqrt(mean(x^2) + eps). */
static int BuildRstd(struct asc_core *core, float *sqx, float *xLocal,
		     float *reduceLocal, uint32_t count)
{
	TRY(V_OP("Mul", OP_MUL, sqx, xLocal, xLocal, 0, count, "sqx", "xFp32", "xFp32"));
	TRY(ex_pipe_barrier(core, "common:95", ASC_PIPE_V));
	TRY(V_OP("Muls", OP_MULS, sqx, sqx, NULL, avgFactor, count, "sqx", "sqx", NULL));
	TRY(ex_pipe_barrier(core, "common:97", ASC_PIPE_V));
	TRY(V_OP("ReduceSumCustom", OP_REDUCE_SUM, sqx, sqx, NULL, 0, count, "sqx",
		 "sqx", NULL));
	TRY(ex_pipe_barrier(core, "common:99", ASC_PIPE_V));
	TRY(V_OP("Adds", OP_ADDS, sqx, sqx, NULL, epsilon, 1, "sqx", "sqx", NULL));
	TRY(ex_pipe_barrier(core, "common:101", ASC_PIPE_V));
	TRY(V_OP("Sqrt", OP_SQRT, sqx, sqx, NULL, 0, 1, "sqx", "sqx", NULL));
	TRY(V_OP("Duplicate", OP_DUPLICATE, reduceLocal, NULL, NULL, 1.0f, 1, "tmp",
		 NULL, NULL));
	TRY(ex_pipe_barrier(core, "common:104", ASC_PIPE_V));
	TRY(V_OP("Div", OP_DIV, sqx, reduceLocal, sqx, 0, 1, "sqx", "tmp", "sqx"));
	return asc_core_pipe_barrier(core, ASC_PIPE_V);
}

/* Lines 232-252: x1 + x2, in float, back to bf16 in x1Local. */
static int AddBf16Input(struct asc_core *core, bf16 *x1Local, bf16 *x2Local,
			float *xFp32Local, float *x2Fp32Local)
{
	int id1, id2;

	TRY(DataCopyCustom(core, x1Local, x1Gm, numCol, "x1Local", "x1Gm"));
	TRY(id1 = asc_core_alloc_event_id(core, MTE2_V));
	TRY(ex_set(core, "237", MTE2_V, id1));
	TRY(DataCopyCustom(core, x2Local, x2Gm, numCol, "x2Local", "x2Gm"));
	TRY(id2 = asc_core_alloc_event_id(core, MTE2_V));
	TRY(ex_set(core, "240", MTE2_V, id2));
	TRY(ex_wait(core, "241", MTE2_V, id1));
	TRY(asc_core_release_event_id(core, id1, MTE2_V));
	TRY(V_OP("Cast", OP_CAST_TO_FLOAT, xFp32Local, x1Local, NULL, 0, numCol,
		 "xFp32", "x1Local", NULL));
	TRY(ex_wait(core, "244", MTE2_V, id2));
	TRY(asc_core_release_event_id(core, id2, MTE2_V));
	TRY(V_OP("Cast", OP_CAST_TO_FLOAT, x2Fp32Local, x2Local, NULL, 0, numCol,
		 "sqx", "x2Local", NULL));
	TRY(ex_pipe_barrier(core, "247", ASC_PIPE_V));
	TRY(V_OP("Add", OP_ADD, xFp32Local, xFp32Local, x2Fp32Local, 0, numCol,
		 "xFp32", "xFp32", "sqx"));
	TRY(ex_pipe_barrier(core, "249", ASC_PIPE_V));
	TRY(V_OP("Cast", OP_CAST_TO_BF16, x1Local, xFp32Local, NULL, 0, numCol,
		 "x1Local", "xFp32", NULL));
	return ex_pipe_barrier(core, "251", ASC_PIPE_V);
}

/* Lines 254-263: gamma into x2Local once V is done with it. */
static int CopyBf16Gamma(struct asc_core *core, bf16 *gammaLocal, int *event)
{
	int eventVMTE2, eventMTE2V;

	TRY(eventVMTE2 = asc_core_fetch_event_id(core, V_MTE2));
	TRY(ex_set(core, "257", V_MTE2, eventVMTE2));
	TRY(ex_wait(core, "258", V_MTE2, eventVMTE2));
	TRY(DataCopyCustom(core, gammaLocal, gammaGm, numCol, "x2Local", "gammaGm"));
	TRY(eventMTE2V = asc_core_fetch_event_id(core, MTE2_V));
	TRY(ex_set(core, "261", MTE2_V, eventMTE2V));
	*event = eventMTE2V;
	return 0;
}

/* Lines 265-274: x (the sum) out. */
static int CopyBf16ResidualOut(struct asc_core *core, bf16 *xLocal, int *event)
{
	int eventVMTE3, eventMTE3V;

	TRY(eventVMTE3 = asc_core_fetch_event_id(core, V_MTE3));
	TRY(ex_set(core, "268", V_MTE3, eventVMTE3));
	TRY(ex_wait(core, "269", V_MTE3, eventVMTE3));
	TRY(DataCopyCustom(core, xGm, xLocal, numCol, "xGm", "x1Local"));
	TRY(eventMTE3V = asc_core_alloc_event_id(core, MTE3_V));
	TRY(ex_set(core, "272", MTE3_V, eventMTE3V));
	*event = eventMTE3V;
	return 0;
}

/* Lines 276-292, without the lines for 220: rstd, read by the scalar. */
static int ComputeBf16Rstd(struct asc_core *core, bf16 *xLocal, float *xFp32Local,
			   float *sqxLocal, float *tmpLocal, float *rstd)
{
	TRY(V_OP("Cast", OP_CAST_TO_FLOAT, xFp32Local, xLocal, NULL, 0, numCol,
		 "xFp32", "x1Local", NULL));
	TRY(ex_pipe_barrier(core, "281", ASC_PIPE_V));
	TRY(BuildRstd(core, sqxLocal, xFp32Local, tmpLocal, numCol));
	return ReadLocalFloat(core, sqxLocal, rstd);
}

/* Lines 294-320, without the lines for 220. */
static int NormalizeAndCopyBf16Y(struct asc_core *core, bf16 *yLocal,
				 bf16 *gammaLocal, float *xFp32Local,
				 float *gammaFp32, float rstd, int eventMTE3V,
				 int eventMTE2V)
{
	int eventVMTE3;

	TRY(V_OP("Muls", OP_MULS, xFp32Local, xFp32Local, NULL, rstd, numCol,
		 "xFp32", "xFp32", NULL));
	TRY(ex_pipe_barrier(core, "299", ASC_PIPE_V));
	TRY(ex_wait(core, "300", MTE3_V, eventMTE3V));
	TRY(asc_core_release_event_id(core, eventMTE3V, MTE3_V));
	TRY(V_OP("Cast", OP_CAST_TO_BF16, yLocal, xFp32Local, NULL, 0, numCol,
		 "x1Local", "xFp32", NULL));
	TRY(ex_pipe_barrier(core, "303", ASC_PIPE_V));
	TRY(V_OP("Cast", OP_CAST_TO_FLOAT, xFp32Local, yLocal, NULL, 0, numCol,
		 "xFp32", "x1Local", NULL));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_wait(core, "306", MTE2_V, eventMTE2V));
	TRY(V_OP("Cast", OP_CAST_TO_FLOAT, gammaFp32, gammaLocal, NULL, 0, numCol,
		 "sqx", "x2Local", NULL));
	TRY(ex_pipe_barrier(core, "312", ASC_PIPE_V));
	TRY(V_OP("Mul", OP_MUL, xFp32Local, xFp32Local, gammaFp32, 0, numCol,
		 "xFp32", "xFp32", "sqx"));
	TRY(ex_pipe_barrier(core, "314", ASC_PIPE_V));
	TRY(V_OP("Cast", OP_CAST_TO_BF16, yLocal, xFp32Local, NULL, 0, numCol,
		 "x1Local", "xFp32", NULL));
	TRY(eventVMTE3 = asc_core_fetch_event_id(core, V_MTE3));
	TRY(ex_set(core, "317", V_MTE3, eventVMTE3));
	TRY(ex_wait(core, "318", V_MTE3, eventVMTE3));
	return DataCopyCustom(core, yGm, yLocal, numCol, "yGm", "x1Local");
}

/* Lines 212-230: the unit buffer cut as the original cuts it. */
static void kernel(struct asc_core *core, void *arg)
{
	bf16 *xLocal = (bf16 *)ubLocal;
	bf16 *x1Local = xLocal, *x2Local = xLocal + ubFactor;
	float *xFp32Local = ubLocal + ubFactor, *sqxLocal = ubLocal + 2 * ubFactor;
	float *tmpLocal = ubLocal + 3 * ubFactor, rstd;
	int eventMTE2V2BF16, eventMTE3VBF16;

	(void)arg;
	if (AddBf16Input(core, x1Local, x2Local, xFp32Local, sqxLocal) < 0 ||
	    CopyBf16Gamma(core, x2Local, &eventMTE2V2BF16) < 0 ||
	    CopyBf16ResidualOut(core, x1Local, &eventMTE3VBF16) < 0 ||
	    ComputeBf16Rstd(core, x1Local, xFp32Local, sqxLocal, tmpLocal, &rstd) < 0)
		return;
	NormalizeAndCopyBf16Y(core, x1Local, x2Local, xFp32Local, sqxLocal, rstd,
			      eventMTE3VBF16, eventMTE2V2BF16);
}

/* The same computation in plain C, in the same order. */
static void reference(void)
{
	float *x = malloc(numCol * sizeof(float)), sum = 0, rstd;
	uint32_t i;

	if (!x)
		return;
	for (i = 0; i < numCol; i++) {
		want_x[i] = float_to_bf16(bf16_to_float(x1Gm[i]) + bf16_to_float(x2Gm[i]));
		x[i] = bf16_to_float(want_x[i]);
	}
	for (i = 0; i < numCol; i++)
		sum += x[i] * x[i] * avgFactor;
	rstd = 1.0f / sqrtf(sum + epsilon);
	for (i = 0; i < numCol; i++) {
		float v = bf16_to_float(float_to_bf16(x[i] * rstd));

		want_y[i] = float_to_bf16(v * bf16_to_float(gammaGm[i]));
	}
	free(x);
}

static int prepare(void)
{
	uint32_t i;

	ubFactor = numCol;
	avgFactor = 1.0f / numCol;
	x1Gm = malloc(numCol * sizeof(bf16));
	x2Gm = malloc(numCol * sizeof(bf16));
	gammaGm = malloc(numCol * sizeof(bf16));
	yGm = malloc(numCol * sizeof(bf16));
	xGm = malloc(numCol * sizeof(bf16));
	want_y = malloc(numCol * sizeof(bf16));
	want_x = malloc(numCol * sizeof(bf16));
	ubLocal = calloc(4 * ubFactor, sizeof(float));
	if (!x1Gm || !x2Gm || !gammaGm || !yGm || !xGm || !want_y || !want_x ||
	    !ubLocal)
		return -1;
	for (i = 0; i < numCol; i++) {
		x1Gm[i] = float_to_bf16((float)((int)(i * 37 % 101) - 50) / 8);
		x2Gm[i] = float_to_bf16((float)((int)(i * 53 % 97) - 48) / 16);
		gammaGm[i] = float_to_bf16(0.5f + (float)(i % 7) / 4);
		yGm[i] = xGm[i] = 0xffff;
	}
	reference();
	return 0;
}

static int verify(void)
{
	uint32_t i;

	for (i = 0; i < numCol; i++) {
		if (xGm[i] != want_x[i]) {
			fprintf(stderr, "add-rms-norm: x[%u] = %g, expected %g\n", i,
				bf16_to_float(xGm[i]), bf16_to_float(want_x[i]));
			return -1;
		}
		if (yGm[i] != want_y[i]) {
			fprintf(stderr, "add-rms-norm: y[%u] = %g, expected %g\n", i,
				bf16_to_float(yGm[i]), bf16_to_float(want_y[i]));
			return -1;
		}
	}
	return 0;
}

static void cleanup(void)
{
	free(x1Gm);
	free(x2Gm);
	free(gammaGm);
	free(yGm);
	free(xGm);
	free(want_y);
	free(want_x);
	free(ubLocal);
}

static int option(int opt, const char *arg)
{
	char *end;
	double v;

	v = strtod(arg, &end);
	if (end == arg || *end)
		return -1;
	if (opt == 'n' && v >= 1 && v <= (1 << 20) && v == (uint32_t)v)
		numCol = (uint32_t)v;
	else if (opt == 'e' && v > 0 && v < 1)
		epsilon = (float)v;
	else
		return -1;
	return 0;
}

static const struct example add_rms_norm = {
	.name = "add-rms-norm",
	.what = "x = x1 + x2, y = rmsnorm(x) * gamma over a row of bfloat16 (fused add +\n"
		"RMSNorm): allocated and fetched IDs mixed, the scalar reading rstd from V.",
	.follows = "hicann/ops-nn experimental/norm/fused_add_rms_norm/op_kernel/\n"
		   "fused_add_rms_norm_single_n.h lines 212-320 and fused_add_rms_norm_common.h\n"
		   "lines 78-107 (commit e5c3fa9327ea)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "n:e:",
	.options_help = "  -n N       columns (default 1000)\n"
			"  -e EPS     epsilon (default 1e-6)\n",
	.option = option,
	.prepare = prepare,
	.kernel = kernel,
	.verify = verify,
	.cleanup = cleanup,
};

int main(int argc, char **argv)
{
	return ex_main(&add_rms_norm, argc, argv);
}
