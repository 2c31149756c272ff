// SPDX-License-Identifier: GPL-2.0
/*
 * sigmoid - y = 1 / (1 + exp(-x)), float, on a launch of AIVs, through a
 * TQueBind from VECIN to VECOUT, a TBuf of ones, and fetched IDs.
 *
 * Follows, line by line, the Sigmoid operator of CANN's ops-nn:
 * repository hicann/ops-nn (github.com/hicann/ops-nn), file
 * experimental/activation/sigmoid/op_kernel/sigmoid.h, commit
 * e5c3fa9327ea, lines 52-95 (Init), 96-141 (Compute) and 143-155
 * (Process), for a float tensor, with the tiling of
 * op_host/arch22/sigmoid_tiling.cpp (lines 67-200): at most one core per
 * 1024 elements, 1 KiB of the Unified Buffer reserved, a single buffer
 * when the input fits the cores' Unified Buffers and is short, else two,
 * tiles of a third of a buffer's share.  Our own code: the Ascend C calls
 * become asc_core_*() calls, each data move or vector instruction a work
 * item with the buffers it touches (vec.c), and the functions keep the
 * original's names.
 *
 * Sync, as the original has it:
 * - queBind, a TQueBind<VECIN, VECOUT>: a copy through the Unified
 *   Buffer, whose free event is MTE3_MTE2.  Each tile takes a buffer
 *   (AllocTensor waits for its free event), copies x into its second half
 *   (MTE2) and computes y into its first (V); FreeTensor sets the free
 *   event after the copy out (MTE3).  It is never enqueued: the tile's
 *   hand-off goes by hand.
 * - the hand-off by hand: MTE2_V and V_MTE3 with IDs from FetchEventID,
 *   set and waited at once, per tile.
 * - tmpCommon, a TBuf of ones that V fills once and reads every tile.
 * With two buffers (the tiling takes two for a long input, -n 100000)
 * the fetched IDs are those of the source article's hazard: the next
 * tile's MTE2 sets MTE2_V id 0 while nothing orders V's wait for the
 * previous tile's set before it (that tile's buffer is not the one the
 * next tile waits for), and the detector says so, a possible double set,
 * on every run.  With one buffer the free event of the buffer orders it.
 *
 * Options: -n N elements (default 2000), -c CORES the AIVs the tiling may
 * use (default 4), -t TILE elements per tile instead of the tiling's (as
 * a smaller Unified Buffer would give; default the tiling's, 16296 with
 * one buffer).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "vec.h"

#define BLOCK_SIZE		32
#define MAX_CORES		64
#define DATA_NUM_BIT32		3
#define TILE_SPLIT_NUM		1024
#define UB_RESERVED_BYTE	1024

#define MTE2_V	ASC_HARD_EVENT_MTE2_V
#define V_MTE3	ASC_HARD_EVENT_V_MTE3

static const struct ex_site sites[] = {
	{ "105", "SetFlag<HardEvent::MTE2_V>(eventIDMTE2ToV)" },
	{ "106", "WaitFlag<HardEvent::MTE2_V>(eventIDMTE2ToV)" },
	{ "137", "SetFlag<HardEvent::V_MTE3>(eventIDVToMTE3)" },
	{ "138", "WaitFlag<HardEvent::V_MTE3>(eventIDVToMTE3)" },
	{ "140", "queBind.FreeTensor(yLocal)" },
};

static uint64_t inputNum = 2000;
static uint64_t platformCoreNum = 4;
static uint64_t tileOverride;

/* SigmoidTilingData, as sigmoid_tiling.cpp fills it in, and its choices. */
static struct {
	uint64_t smallCoreDataNum, bigCoreDataNum, tileDataNum;
	uint64_t smallTailDataNum, bigTailDataNum;
	uint64_t finalSmallTileNum, finalBigTileNum, tailBlockNum;
	uint64_t coreNum, bufferNum;
} tiling;

static float *x_gm, *y_gm, *expect;

/* One core's KernelSigmoid. */
struct KernelSigmoid {
	struct asc_que *queBind, *tmpCommon;
	float *xGm, *yGm;
	uint64_t coreDataNum, tileNum, tileDataNum, tailDataNum, processDataNum;
};

static struct KernelSigmoid ops[MAX_CORES];

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static int Init(struct asc_core *core, struct KernelSigmoid *op)
{
	uint64_t coreId = asc_core_block_idx(core);
	uint64_t globalBufferIndex = tiling.bigCoreDataNum * coreId;
	struct asc_local oneLocal;

	op->tileDataNum = tiling.tileDataNum;
	if (coreId < tiling.tailBlockNum) {
		op->coreDataNum = tiling.bigCoreDataNum;
		op->tileNum = tiling.finalBigTileNum;
		op->tailDataNum = tiling.bigTailDataNum;
	} else {
		op->coreDataNum = tiling.smallCoreDataNum;
		op->tileNum = tiling.finalSmallTileNum;
		op->tailDataNum = tiling.smallTailDataNum;
		globalBufferIndex -= (tiling.bigCoreDataNum - tiling.smallCoreDataNum) *
				     (coreId - tiling.tailBlockNum);
	}
	op->xGm = x_gm + globalBufferIndex;
	op->yGm = y_gm + globalBufferIndex;

	op->queBind = asc_core_tque_bind(core, ASC_POS_VECIN, ASC_POS_VECOUT,
					 tiling.bufferNum, "queBind");
	op->tmpCommon = asc_core_tbuf(core, ASC_POS_VECCALC, "tmpCommon");
	if (!op->queBind || !op->tmpCommon)
		return -1;
	TRY(asc_core_init_buffer(core, op->queBind, tiling.bufferNum,
				 op->tileDataNum * sizeof(float) * 2));
	TRY(asc_core_init_buffer(core, op->tmpCommon, 1, op->tileDataNum * sizeof(float)));
	TRY(asc_core_tbuf_get(core, op->tmpCommon, 0, &oneLocal));
	TRY(ex_vec(core, ASC_PIPE_V, EX_DUP, "Duplicate(oneLocal, 1.0f)",
		   EX_LOCAL(oneLocal), EX_NONE, EX_NONE, 1.0f, op->tileDataNum));
	return 0;
}

static int Compute(struct asc_core *core, struct KernelSigmoid *op, uint64_t offset)
{
	struct asc_local yLocal, xLocal, oneLocal;
	uint64_t n = op->processDataNum;
	int eventIDMTE2ToV, eventIDVToMTE3;

	TRY(asc_core_alloc_tensor(core, op->queBind, &yLocal));
	TRY(asc_local_sub(&yLocal, n * sizeof(float), 0, &xLocal));
	eventIDMTE2ToV = asc_core_fetch_event_id(core, MTE2_V);
	eventIDVToMTE3 = asc_core_fetch_event_id(core, V_MTE3);
	TRY(eventIDMTE2ToV);
	TRY(eventIDVToMTE3);

	TRY(ex_vec(core, ASC_PIPE_MTE2, EX_COPY_F32, "DataCopy(xLocal, xGm)",
		   EX_LOCAL(xLocal), EX_GM(op->xGm + offset, "xGm"), EX_NONE, 0, n));
	TRY(ex_set(core, "105", MTE2_V, eventIDMTE2ToV));
	TRY(ex_wait(core, "106", MTE2_V, eventIDMTE2ToV));

	/*
	 * The original writes no PipeBarrier<PIPE_V>: the compiler's
	 * automatic sync inserts one between two vector instructions that
	 * share bytes (the Duplicate of Init and the Div too).  Here they
	 * are written out, where it puts them.
	 */
	TRY(asc_core_tbuf_get(core, op->tmpCommon, 0, &oneLocal));
	TRY(ex_vec(core, ASC_PIPE_V, EX_MULS, "Muls(xLocal, xLocal, -1.0f)",
		   EX_LOCAL(xLocal), EX_LOCAL(xLocal), EX_NONE, -1.0f, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_EXP, "Exp(xLocal, xLocal)",
		   EX_LOCAL(xLocal), EX_LOCAL(xLocal), EX_NONE, 0, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_ADDS, "Adds(xLocal, xLocal, 1.0f)",
		   EX_LOCAL(xLocal), EX_LOCAL(xLocal), EX_NONE, 1.0f, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_DIV, "Div(yLocal, oneLocal, xLocal)",
		   EX_LOCAL(yLocal), EX_LOCAL(oneLocal), EX_LOCAL(xLocal), 0, n));

	TRY(ex_set(core, "137", V_MTE3, eventIDVToMTE3));
	TRY(ex_wait(core, "138", V_MTE3, eventIDVToMTE3));
	TRY(ex_vec(core, ASC_PIPE_MTE3, EX_COPY_F32, "DataCopy(yGm, yLocal)",
		   EX_GM(op->yGm + offset, "yGm"), EX_LOCAL(yLocal), EX_NONE, 0, n));
	TRY(ex_free_tensor(core, "140", op->queBind, &yLocal));
	return 0;
}

static void Process(struct asc_core *core, void *arg)
{
	struct KernelSigmoid *op = &ops[asc_core_block_idx(core) % MAX_CORES];
	uint64_t loopCount, offset = 0, i;

	(void)arg;
	if (Init(core, op))
		return;
	loopCount = op->tileNum;
	op->processDataNum = op->tileDataNum;
	for (i = 0; i < loopCount - 1; i++, offset += op->tileDataNum)
		if (Compute(core, op, offset))
			return;
	op->processDataNum = op->tailDataNum;
	Compute(core, op, offset);
}

/* sigmoid_tiling.cpp for float (DATA_NUM_BIT32: a tile is a third). */
static void Tiling(void)
{
	uint64_t ubSize = ASC_MEM_UB_BYTES - UB_RESERVED_BYTE, inputBytes = 4;
	uint64_t calcCoreNum, coreNum, inputLengthAlgin32, singleBufferNeedSize;
	uint64_t tileBlockNum, everyCoreInputBlockNum, smallTileNum, bigTileNum;

	memset(&tiling, 0, sizeof(tiling));
	calcCoreNum = (inputNum + TILE_SPLIT_NUM - 1) / TILE_SPLIT_NUM;
	coreNum = calcCoreNum < platformCoreNum ? calcCoreNum : platformCoreNum;
	inputLengthAlgin32 = (inputNum * inputBytes + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
	singleBufferNeedSize = inputLengthAlgin32 * DATA_NUM_BIT32;
	tiling.bufferNum = singleBufferNeedSize <= coreNum * ubSize &&
			   inputNum < TILE_SPLIT_NUM * coreNum ? 1 : 2;
	tileBlockNum = ubSize / tiling.bufferNum / BLOCK_SIZE / DATA_NUM_BIT32;
	if (tileOverride)
		tileBlockNum = (tileOverride * inputBytes + BLOCK_SIZE - 1) / BLOCK_SIZE;
	tiling.tileDataNum = tileBlockNum * BLOCK_SIZE / inputBytes;

	everyCoreInputBlockNum = inputLengthAlgin32 / BLOCK_SIZE / coreNum;
	tiling.tailBlockNum = (inputLengthAlgin32 / BLOCK_SIZE) % coreNum;
	tiling.smallCoreDataNum = everyCoreInputBlockNum * BLOCK_SIZE / inputBytes;
	smallTileNum = everyCoreInputBlockNum / tileBlockNum;
	tiling.finalSmallTileNum = everyCoreInputBlockNum % tileBlockNum ? smallTileNum + 1 :
				   smallTileNum;
	tiling.smallTailDataNum = tiling.smallCoreDataNum - tiling.tileDataNum * smallTileNum;
	if (!tiling.smallTailDataNum)
		tiling.smallTailDataNum = tiling.tileDataNum;

	everyCoreInputBlockNum += 1;
	tiling.bigCoreDataNum = everyCoreInputBlockNum * BLOCK_SIZE / inputBytes;
	bigTileNum = everyCoreInputBlockNum / tileBlockNum;
	tiling.finalBigTileNum = everyCoreInputBlockNum % tileBlockNum ? bigTileNum + 1 :
				 bigTileNum;
	tiling.bigTailDataNum = tiling.bigCoreDataNum - tiling.tileDataNum * bigTileNum;
	if (!tiling.bigTailDataNum)
		tiling.bigTailDataNum = tiling.tileDataNum;
	tiling.coreNum = coreNum;
}

static struct example sigmoid;

static int prepare(void)
{
	uint64_t n = (inputNum * 4 + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE / 4, i;
	float t;

	Tiling();
	sigmoid.block_dim = tiling.coreNum;
	x_gm = calloc(n, sizeof(float));
	y_gm = calloc(n, sizeof(float));
	expect = calloc(n, sizeof(float));
	if (!x_gm || !y_gm || !expect)
		return -1;
	for (i = 0; i < inputNum; i++) {
		x_gm[i] = (float)((int)(i % 401) - 200) / 25.0f;
		t = x_gm[i] * -1.0f;
		t = expf(t);
		t = t + 1.0f;
		expect[i] = 1.0f / t;
	}
	return 0;
}

static int verify(void)
{
	uint64_t i;

	for (i = 0; i < inputNum; i++) {
		if (y_gm[i] != expect[i]) {
			fprintf(stderr, "sigmoid: y[%llu] = %g, expected %g\n",
				(unsigned long long)i, y_gm[i], expect[i]);
			return -1;
		}
	}
	return 0;
}

static void cleanup(void)
{
	free(x_gm);
	free(y_gm);
	free(expect);
}

static int option(int opt, const char *arg)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	if (end == arg || *end || !v)
		return -1;
	switch (opt) {
	case 'n':
		inputNum = v;
		return v <= (1ULL << 26) ? 0 : -1;
	case 'c':
		platformCoreNum = v;
		return v <= MAX_CORES ? 0 : -1;
	case 't':
		tileOverride = v;
		return v <= 16296 ? 0 : -1;
	default:
		return -1;
	}
}

static struct example sigmoid = {
	.name = "sigmoid",
	.what = "y = 1 / (1 + exp(-x)), float, on AIVs through a TQueBind, a TBuf and fetched IDs",
	.follows = "hicann/ops-nn experimental/activation/sigmoid/op_kernel/sigmoid.h lines 52-155 (e5c3fa9327ea)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "n:c:t:",
	.options_help = "  -n N       elements (default 2000; from 4096 on 4 AIVs the tiling takes\n"
			"             two buffers, and the fetched IDs are a possible double set)\n"
			"  -c CORES   the AIVs the tiling may use, 1..64 (default 4)\n"
			"  -t TILE    elements per tile, 1..16296 (default: the tiling's)\n",
	.option = option,
	.prepare = prepare,
	.launch_kind = ASC_LAUNCH_AIV,
	.block_dim = 1,
	.kernel = Process,
	.verify = verify,
	.cleanup = cleanup,
};

int main(int argc, char **argv)
{
	return ex_main(&sigmoid, argc, argv);
}
