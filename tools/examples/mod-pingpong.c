// SPDX-License-Identifier: GPL-2.0
/*
 * mod-pingpong - out = self mod other (C's %, truncated), a double-buffered
 * vector pipeline whose divisor the scalar reads from global memory.
 *
 * Follows, line by line, the flat ping-pong path of the Mod operator of
 * CANN's ops-math: repository hicann/ops-math (github.com/hicann/ops-math),
 * file experimental/math/mod/op_kernel/mod_flat_impl.h, commit c41933244c31,
 * lines 26-43 (InitFlatBuffers), 63-83 (LoadScalarOtherFlat), 85-122
 * (CopyInFlat), 124-144 (CopyOutFlat) and 151-205 (ProcessContigPipeline),
 * for an int32 "self" tensor and a scalar "other" (isInput2Scalar).  Our
 * own code: the Ascend C calls become asc_core_*() calls, each data move
 * or vector instruction a work item with the buffers it touches, and the
 * functions keep the original's names.
 *
 * Sync, as the original has it:
 * - eight IDs from AllocEventID, one per slot of MTE2_V (self landed),
 *   V_MTE2 (self slot free again), V_MTE3 (out slot ready) and MTE3_V (out
 *   slot free again); the first FLAT_SLOTS tiles are loaded up front, then
 *   each tile consumed frees its slot for the tile FLAT_SLOTS later, and
 *   the trailing flags are drained at the end;
 * - two IDs from FetchEventID, MTE2_S and S_V: the scalar waits for the
 *   copy of the divisor, reads it (GetValue), and tells V, which fills a
 *   tile-wide buffer with it (Duplicate).  So the kernel mixes fetched and
 *   allocated IDs, and its scalar waits for a pipe.
 * The IDs are never released (the original leaves them to the TPipe).
 *
 * Options: -n N elements (default 1000), -t T elements per tile (default
 * 128), -v V the divisor (default -7).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define FLAT_SLOTS	2

#define MTE2_V		ASC_HARD_EVENT_MTE2_V
#define V_MTE2		ASC_HARD_EVENT_V_MTE2
#define V_MTE3		ASC_HARD_EVENT_V_MTE3
#define MTE3_V		ASC_HARD_EVENT_MTE3_V
#define MTE2_S		ASC_HARD_EVENT_MTE2_S
#define S_V		ASC_HARD_EVENT_S_V

static const struct ex_site sites[] = {
	{ "76", "SetFlag<HardEvent::MTE2_S>(evMte2S)" },
	{ "77", "WaitFlag<HardEvent::MTE2_S>(evMte2S)" },
	{ "80", "SetFlag<HardEvent::S_V>(evSV)" },
	{ "81", "WaitFlag<HardEvent::S_V>(evSV)" },
	{ "91", "WaitFlag<HardEvent::V_MTE2>(flatEvVMte2_[slot])" },
	{ "121", "SetFlag<HardEvent::MTE2_V>(flatEvMte2V_[slot])" },
	{ "130", "WaitFlag<HardEvent::V_MTE3>(flatEvVMte3_[slot])" },
	{ "143", "SetFlag<HardEvent::MTE3_V>(flatEvMte3V_[slot])" },
	{ "174", "WaitFlag<HardEvent::MTE2_V>(flatEvMte2V_[slot])" },
	{ "176", "WaitFlag<HardEvent::MTE3_V>(flatEvMte3V_[slot])" },
	{ "187", "SetFlag<HardEvent::V_MTE2>(flatEvVMte2_[slot])" },
	{ "188", "SetFlag<HardEvent::V_MTE3>(flatEvVMte3_[slot])" },
	{ "199", "WaitFlag<HardEvent::V_MTE2>(flatEvVMte2_[s])" },
	{ "203", "WaitFlag<HardEvent::MTE3_V>(flatEvMte3V_[s])" },
};

/* The operator's tiling and tensors; UB buffers as the original's TBufs. */
static uint64_t perCoreDataCount = 1000, maxDataCount = 128;
static int32_t divisor = -7;
static int32_t *inputx1GM, inputx2GM[1], *outputGM, *expected;
static int32_t *flatSelfBuf_, *flatOtherScalarBuf_, *flatOutBuf_;
static int flatEvMte2V_[FLAT_SLOTS], flatEvVMte2_[FLAT_SLOTS];
static int flatEvVMte3_[FLAT_SLOTS], flatEvMte3V_[FLAT_SLOTS];
static int32_t scalarValue;

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

/* A data copy or a vector instruction, and what it reads and writes. */
struct op {
	int32_t *dst;
	const int32_t *src;
	uint64_t n;
	int32_t value;
};

static void copy_op(void *arg)
{
	struct op *o = arg;

	memcpy(o->dst, o->src, o->n * sizeof(int32_t));
	free(o);
}

static void duplicate_op(void *arg)
{
	struct op *o = arg;
	uint64_t i;

	for (i = 0; i < o->n; i++)
		o->dst[i] = o->value;
	free(o);
}

/* ComputeCore for int32: self - other * trunc(self / other), per element. */
static void compute_op(void *arg)
{
	struct op *o = arg;
	uint64_t i;

	for (i = 0; i < o->n; i++)
		o->dst[i] = o->src[i] % flatOtherScalarBuf_[i];
	free(o);
}

static int issue(struct asc_core *core, int pipe, void (*fn)(void *),
		 const char *what, int32_t *dst, const int32_t *src, uint64_t n,
		 int32_t value, const struct asc_access *acc, unsigned int nacc)
{
	struct op *o = malloc(sizeof(*o));

	if (!o)
		return -1;
	*o = (struct op){ dst, src, n, value };
	if (asc_core_issue(core, pipe, fn, o, what, acc, nacc) < 0) {
		free(o);
		return -1;
	}
	return 0;
}

static int32_t *FlatSelfSlot(int32_t slot)
{
	return flatSelfBuf_ + (uint64_t)slot * maxDataCount;
}

static int32_t *FlatOutSlot(int32_t slot)
{
	return flatOutBuf_ + (uint64_t)slot * maxDataCount;
}

/* Lines 26-43: the slots' buffers (in prepare()) and eight IDs. */
static int InitFlatBuffers(struct asc_core *core)
{
	int32_t s;

	for (s = 0; s < FLAT_SLOTS; ++s) {
		TRY(flatEvMte2V_[s] = asc_core_alloc_event_id(core, MTE2_V));
		TRY(flatEvVMte2_[s] = asc_core_alloc_event_id(core, V_MTE2));
		TRY(flatEvVMte3_[s] = asc_core_alloc_event_id(core, V_MTE3));
		TRY(flatEvMte3V_[s] = asc_core_alloc_event_id(core, MTE3_V));
	}
	return 0;
}

/* Lines 63-83: the divisor, copied in once, read by S, spread by V. */
static int LoadScalarOtherFlat(struct asc_core *core)
{
	int32_t *land = flatOtherScalarBuf_;
	const struct asc_access pad[] = {
		{ inputx2GM, sizeof(int32_t), 0, "x2" },
		{ land, sizeof(int32_t), 1, "land" },
	};
	const struct asc_access get[] = { { land, sizeof(int32_t), 0, "land" } };
	const struct asc_access dup[] = {
		{ land, maxDataCount * sizeof(int32_t), 1, "land" },
	};
	int evMte2S, evSV;

	TRY(issue(core, ASC_PIPE_MTE2, copy_op, "DataCopyPad(land, x2)", land,
		  inputx2GM, 1, 0, pad, 2));
	TRY(evMte2S = asc_core_fetch_event_id(core, MTE2_S));
	TRY(ex_set(core, "76", MTE2_S, evMte2S));
	TRY(ex_wait(core, "77", MTE2_S, evMte2S));
	/* OT scalarValue = land.GetValue(0): a load of the scalar. */
	TRY(issue(core, ASC_PIPE_S, copy_op, "GetValue(land)", &scalarValue,
		  land, 1, 0, get, 1));
	TRY(evSV = asc_core_fetch_event_id(core, S_V));
	TRY(ex_set(core, "80", S_V, evSV));
	TRY(ex_wait(core, "81", S_V, evSV));
	TRY(issue(core, ASC_PIPE_V, duplicate_op, "Duplicate(land)", land,
		  NULL, maxDataCount, scalarValue, dup, 1));
	/*
	 * Not in the original: ComputeCore reads land, and the compiler's
	 * automatic sync puts a PipeBarrier<PIPE_V> between the two.
	 */
	return asc_core_pipe_barrier(core, ASC_PIPE_V);
}

/* Lines 85-122: one slot's self, after its previous tile was used. */
static int CopyInFlat(struct asc_core *core, int32_t slot, uint64_t offset,
		      uint64_t n, int reuse)
{
	int32_t *selfLocal = FlatSelfSlot(slot);
	const struct asc_access acc[] = {
		{ inputx1GM + offset, n * sizeof(int32_t), 0, "x1" },
		{ selfLocal, n * sizeof(int32_t), 1, slot ? "self[1]" : "self[0]" },
	};

	if (reuse)
		TRY(ex_wait(core, "91", V_MTE2, flatEvVMte2_[slot]));
	/* DataCopy when n is a multiple of 32 bytes, else DataCopyPad. */
	TRY(issue(core, ASC_PIPE_MTE2, copy_op,
		  n % (32 / sizeof(int32_t)) ? "DataCopyPad(self)" : "DataCopy(self)",
		  selfLocal, inputx1GM + offset, n, 0, acc, 2));
	return ex_set(core, "121", MTE2_V, flatEvMte2V_[slot]);
}

/* Lines 124-144: one slot's out to global memory. */
static int CopyOutFlat(struct asc_core *core, int32_t slot, uint64_t offset,
		       uint64_t n)
{
	int32_t *outLocal = FlatOutSlot(slot);
	const struct asc_access acc[] = {
		{ outLocal, n * sizeof(int32_t), 0, slot ? "out[1]" : "out[0]" },
		{ outputGM + offset, n * sizeof(int32_t), 1, "y" },
	};

	TRY(ex_wait(core, "130", V_MTE3, flatEvVMte3_[slot]));
	TRY(issue(core, ASC_PIPE_MTE3, copy_op,
		  n % (32 / sizeof(int32_t)) ? "DataCopyPad(y)" : "DataCopy(y)",
		  outputGM + offset, outLocal, n, 0, acc, 2));
	return ex_set(core, "143", MTE3_V, flatEvMte3V_[slot]);
}

static int ComputeCore(struct asc_core *core, int32_t slot, uint64_t n)
{
	int32_t *x1 = FlatSelfSlot(slot), *dst = FlatOutSlot(slot);
	const struct asc_access acc[] = {
		{ x1, n * sizeof(int32_t), 0, slot ? "self[1]" : "self[0]" },
		{ flatOtherScalarBuf_, n * sizeof(int32_t), 0, "land" },
		{ dst, n * sizeof(int32_t), 1, slot ? "out[1]" : "out[0]" },
	};

	return issue(core, ASC_PIPE_V, compute_op, "ComputeCore", dst, x1, n,
		     0, acc, 3);
}

/* Lines 151-205: prologue, one tile a round, drain. */
static int ProcessContigPipeline(struct asc_core *core, uint64_t inOffset,
				 uint64_t outOffset)
{
	const uint64_t loopCount = perCoreDataCount / maxDataCount;
	const uint64_t tailDataCount = perCoreDataCount % maxDataCount;
	const uint64_t totalTiles = loopCount + ((tailDataCount > 0) ? 1U : 0U);
	const uint64_t fs = FLAT_SLOTS;
	uint64_t p, t, s, pre, liveR, liveO;

	if (totalTiles == 0)
		return 0;
	TRY(LoadScalarOtherFlat(core));		/* isInput2Scalar */
	pre = (totalTiles < fs) ? totalTiles : fs;
	for (p = 0; p < pre; ++p) {
		const uint64_t np = (p < loopCount) ? maxDataCount : tailDataCount;

		TRY(CopyInFlat(core, (int32_t)(p % fs), inOffset + p * maxDataCount,
			       np, 0));
	}
	for (t = 0; t < totalTiles; ++t) {
		const int32_t slot = (int32_t)(t % fs);
		const uint64_t n = (t < loopCount) ? maxDataCount : tailDataCount;
		const uint64_t tp = t + fs;

		TRY(ex_wait(core, "174", MTE2_V, flatEvMte2V_[slot]));
		if (t >= fs)
			TRY(ex_wait(core, "176", MTE3_V, flatEvMte3V_[slot]));
		TRY(ComputeCore(core, slot, n));
		TRY(ex_set(core, "187", V_MTE2, flatEvVMte2_[slot]));
		TRY(ex_set(core, "188", V_MTE3, flatEvVMte3_[slot]));
		TRY(CopyOutFlat(core, slot, outOffset + t * maxDataCount, n));
		if (tp < totalTiles) {
			const uint64_t npn = (tp < loopCount) ? maxDataCount :
								tailDataCount;

			TRY(CopyInFlat(core, slot, inOffset + tp * maxDataCount, npn, 1));
		}
	}
	liveR = (totalTiles < fs) ? totalTiles : fs;
	for (s = 0; s < liveR; ++s)
		TRY(ex_wait(core, "199", V_MTE2, flatEvVMte2_[s]));
	liveO = (totalTiles < fs) ? totalTiles : fs;
	for (s = 0; s < liveO; ++s)
		TRY(ex_wait(core, "203", MTE3_V, flatEvMte3V_[s]));
	return 0;
}

/*
 * Not in the original, which leaves its eight IDs to ~TPipe: an ID
 * allocated and not released by the end of the kernel is a leak the
 * detector reports, so they go back here.
 */
static int ReleaseFlatIds(struct asc_core *core)
{
	int32_t s;

	for (s = 0; s < FLAT_SLOTS; ++s) {
		TRY(asc_core_release_event_id(core, flatEvMte2V_[s], MTE2_V));
		TRY(asc_core_release_event_id(core, flatEvVMte2_[s], V_MTE2));
		TRY(asc_core_release_event_id(core, flatEvVMte3_[s], V_MTE3));
		TRY(asc_core_release_event_id(core, flatEvMte3V_[s], MTE3_V));
	}
	return 0;
}

static void kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	if (InitFlatBuffers(core) < 0 || ProcessContigPipeline(core, 0, 0) < 0)
		return;
	ReleaseFlatIds(core);
}

static int prepare(void)
{
	uint64_t i;

	inputx1GM = malloc(perCoreDataCount * sizeof(int32_t));
	outputGM = malloc(perCoreDataCount * sizeof(int32_t));
	expected = malloc(perCoreDataCount * sizeof(int32_t));
	flatSelfBuf_ = calloc(FLAT_SLOTS * maxDataCount, sizeof(int32_t));
	flatOtherScalarBuf_ = calloc(maxDataCount, sizeof(int32_t));
	flatOutBuf_ = calloc(FLAT_SLOTS * maxDataCount, sizeof(int32_t));
	if (!inputx1GM || !outputGM || !expected || !flatSelfBuf_ ||
	    !flatOtherScalarBuf_ || !flatOutBuf_)
		return -1;
	inputx2GM[0] = divisor;
	for (i = 0; i < perCoreDataCount; i++) {
		inputx1GM[i] = (int32_t)((i * 2654435761u) % 20001) - 10000;
		outputGM[i] = INT32_MIN;
		expected[i] = inputx1GM[i] % divisor;
	}
	return 0;
}

static int verify(void)
{
	uint64_t i;

	for (i = 0; i < perCoreDataCount; i++) {
		if (outputGM[i] == expected[i])
			continue;
		fprintf(stderr, "mod-pingpong: y[%lu] = %d, expected %d %% %d = %d\n",
			(unsigned long)i, outputGM[i], inputx1GM[i], divisor,
			expected[i]);
		return -1;
	}
	return 0;
}

static void cleanup(void)
{
	free(inputx1GM);
	free(outputGM);
	free(expected);
	free(flatSelfBuf_);
	free(flatOtherScalarBuf_);
	free(flatOutBuf_);
}

static int parse(const char *arg, long min, long max, long *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int option(int opt, const char *arg)
{
	long v;

	switch (opt) {
	case 'n':
		TRY(parse(arg, 1, 1L << 24, &v));
		perCoreDataCount = v;
		return 0;
	case 't':
		TRY(parse(arg, 1, 1L << 20, &v));
		maxDataCount = v;
		return 0;
	case 'v':
		if (parse(arg, INT32_MIN + 1, INT32_MAX, &v) || !v)
			return -1;
		divisor = v;
		return 0;
	}
	return -1;
}

static const struct example mod_pingpong = {
	.name = "mod-pingpong",
	.what = "y = x1 mod x2 (truncated, as C's %) over int32, x2 a scalar: a double-buffered\n"
		"vector pipeline with allocated IDs, and a scalar handshake with fetched ones.",
	.follows = "hicann/ops-math experimental/math/mod/op_kernel/mod_flat_impl.h\n"
		   "lines 26-205 (commit c41933244c31)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "n:t:v:",
	.options_help = "  -n N       elements (default 1000)\n"
			"  -t T       elements per tile, maxDataCount (default 128)\n"
			"  -v V       the divisor x2, not 0 (default -7)\n",
	.option = option,
	.prepare = prepare,
	.kernel = kernel,
	.verify = verify,
	.cleanup = cleanup,
};

int main(int argc, char **argv)
{
	return ex_main(&mod_pingpong, argc, argv);
}
