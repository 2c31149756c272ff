// SPDX-License-Identifier: GPL-2.0
/*
 * lerp - y = start + weight * (end - start), bfloat16, on a launch of
 * AIVs, through double-buffered queues and two TBuf temporaries.
 *
 * Follows, line by line, the Lerp operator of CANN's ops-math: repository
 * hicann/ops-math (github.com/hicann/ops-math), file
 * experimental/math/lerp/op_kernel/lerp.h, commit c41933244c31, lines
 * 33-75 (Init), 77-91 (Process), 93-106 (CopyIn), 108-143 (Compute) and
 * 145-150 (CopyOut), for bfloat16 tensors (its half/bfloat16 path, the
 * one with the TBufs), with the tiling of op_host/lerp_tiling.cpp (lines
 * 27-98): 32-byte blocks spread over the cores, the first tailBlockNum
 * cores taking one more ("big" cores), each core's data in tiles of
 * ubPartDataNum elements, the Unified Buffer cut in 6 parts, double
 * buffered.  Our own code: the Ascend C calls become asc_core_*() calls,
 * each data move or vector instruction a work item with the buffers it
 * touches (vec.c), and the functions keep the original's names.
 *
 * Sync, as the original has it: none by hand.  Four TQues of depth 2 with
 * two buffers each, inQueueStart, inQueueEnd and inQueueWeight at VECIN
 * (MTE2_V, V_MTE2) and outQueueY at VECOUT (V_MTE3, MTE3_V), their
 * EnQue, DeQue and FreeTensor the sites (`-l`); AllocTensor waits for the
 * free events.  The TBufs tmp1 and tmp2 (VECCALC) take no events: only V
 * touches them.  With the default tiling the Unified Buffer is full: 4
 * queues x 2 x 16 KiB and 2 TBufs of 32 KiB, 192 KiB.
 *
 * Options: -n N elements (default 100000), -c CORES the AIVs the tiling
 * may use (default 4), -u BYTES the Unified Buffer the tiling cuts
 * (default 196608, the chip's).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "vec.h"

#define BUFFER_NUM	2
#define BLOCK_SIZE	32
#define MAX_CORES	64

static const struct ex_site sites[] = {
	{ "103", "inQueueStart.EnQue(startLocal)" },
	{ "104", "inQueueEnd.EnQue(endLocal)" },
	{ "105", "inQueueWeight.EnQue(weightLocal)" },
	{ "110", "inQueueStart.DeQue<TYPE_START>()" },
	{ "111", "inQueueEnd.DeQue<TYPE_END>()" },
	{ "112", "inQueueWeight.DeQue<TYPE_WEIGHT>()" },
	{ "139", "outQueueY.EnQue<TYPE_Y>(yLocal)" },
	{ "140", "inQueueStart.FreeTensor(startLocal)" },
	{ "141", "inQueueEnd.FreeTensor(endLocal)" },
	{ "142", "inQueueWeight.FreeTensor(weightLocal)" },
	{ "147", "outQueueY.DeQue<TYPE_Y>()" },
	{ "149", "outQueueY.FreeTensor(yLocal)" },
};

/* The problem and the platform the tiling sees. */
static uint64_t inputDataNum = 100000;
static uint64_t platformCoreNum = 4;
static uint64_t ubLength = 196608;

/* LerpTilingData, as lerp_tiling.cpp fills it in. */
static struct {
	uint64_t smallCoreDataNum, bigCoreDataNum, bigCoreLoopNum, smallCoreLoopNum;
	uint64_t ubPartDataNum, smallCoreTailDataNum, bigCoreTailDataNum, tailBlockNum;
	uint64_t coreNum;
} tiling;

/* Global memory: bfloat16 as its 16 bits. */
static uint16_t *start_gm, *end_gm, *weight_gm, *y_gm, *expect;

/* One core's Lerp object: its queues, TBufs and tiling. */
struct Lerp {
	struct asc_que *inQueueStart, *inQueueEnd, *inQueueWeight, *outQueueY;
	struct asc_que *tmp1, *tmp2;
	uint16_t *startGm, *endGm, *weightGm, *yGm;
	uint64_t coreDataNum, tileNum, ubPartDataNum, tailDataNum, processDataNum;
};

static struct Lerp ops[MAX_CORES];

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static int Init(struct asc_core *core, struct Lerp *op)
{
	uint64_t coreNum = asc_core_block_idx(core);
	uint64_t globalBufferIndex = tiling.bigCoreDataNum * coreNum;

	op->ubPartDataNum = tiling.ubPartDataNum;
	if (tiling.tailBlockNum) {	/* IsExistBigCore */
		if (coreNum < tiling.tailBlockNum) {
			op->coreDataNum = tiling.bigCoreDataNum;
			op->tileNum = tiling.bigCoreLoopNum;
			op->tailDataNum = tiling.bigCoreTailDataNum;
		} else {
			op->coreDataNum = tiling.smallCoreDataNum;
			op->tileNum = tiling.smallCoreLoopNum;
			op->tailDataNum = tiling.smallCoreTailDataNum;
			globalBufferIndex -= (tiling.bigCoreDataNum - tiling.smallCoreDataNum) *
					     (coreNum - tiling.tailBlockNum);
		}
	} else {
		op->coreDataNum = tiling.smallCoreDataNum;
		op->tileNum = tiling.smallCoreLoopNum;
		op->tailDataNum = tiling.smallCoreTailDataNum;
		globalBufferIndex = tiling.smallCoreDataNum * coreNum;
	}
	op->startGm = start_gm + globalBufferIndex;
	op->endGm = end_gm + globalBufferIndex;
	op->weightGm = weight_gm + globalBufferIndex;
	op->yGm = y_gm + globalBufferIndex;

	op->inQueueStart = asc_core_tque(core, ASC_POS_VECIN, BUFFER_NUM, "inQueueStart");
	op->inQueueEnd = asc_core_tque(core, ASC_POS_VECIN, BUFFER_NUM, "inQueueEnd");
	op->inQueueWeight = asc_core_tque(core, ASC_POS_VECIN, BUFFER_NUM, "inQueueWeight");
	op->outQueueY = asc_core_tque(core, ASC_POS_VECOUT, BUFFER_NUM, "outQueueY");
	op->tmp1 = asc_core_tbuf(core, ASC_POS_VECCALC, "tmp1");
	op->tmp2 = asc_core_tbuf(core, ASC_POS_VECCALC, "tmp2");
	if (!op->inQueueStart || !op->inQueueEnd || !op->inQueueWeight ||
	    !op->outQueueY || !op->tmp1 || !op->tmp2)
		return -1;
	TRY(asc_core_init_buffer(core, op->inQueueStart, BUFFER_NUM,
				 op->ubPartDataNum * sizeof(uint16_t)));
	TRY(asc_core_init_buffer(core, op->inQueueEnd, BUFFER_NUM,
				 op->ubPartDataNum * sizeof(uint16_t)));
	TRY(asc_core_init_buffer(core, op->inQueueWeight, BUFFER_NUM,
				 op->ubPartDataNum * sizeof(uint16_t)));
	TRY(asc_core_init_buffer(core, op->outQueueY, BUFFER_NUM,
				 op->ubPartDataNum * sizeof(uint16_t)));
	TRY(asc_core_init_buffer(core, op->tmp1, 1, op->ubPartDataNum * sizeof(float)));
	TRY(asc_core_init_buffer(core, op->tmp2, 1, op->ubPartDataNum * sizeof(float)));
	return 0;
}

static int CopyIn(struct asc_core *core, struct Lerp *op, uint64_t progress)
{
	struct asc_local startLocal, endLocal, weightLocal;
	uint64_t at = progress * op->ubPartDataNum;

	TRY(asc_core_alloc_tensor(core, op->inQueueStart, &startLocal));
	TRY(asc_core_alloc_tensor(core, op->inQueueEnd, &endLocal));
	TRY(asc_core_alloc_tensor(core, op->inQueueWeight, &weightLocal));

	TRY(ex_vec(core, ASC_PIPE_MTE2, EX_COPY_BF16, "DataCopy(startLocal, startGm)",
		   EX_LOCAL(startLocal), EX_GM(op->startGm + at, "startGm"), EX_NONE, 0,
		   op->processDataNum));
	TRY(ex_vec(core, ASC_PIPE_MTE2, EX_COPY_BF16, "DataCopy(endLocal, endGm)",
		   EX_LOCAL(endLocal), EX_GM(op->endGm + at, "endGm"), EX_NONE, 0,
		   op->processDataNum));
	TRY(ex_vec(core, ASC_PIPE_MTE2, EX_COPY_BF16, "DataCopy(weightLocal, weightGm)",
		   EX_LOCAL(weightLocal), EX_GM(op->weightGm + at, "weightGm"), EX_NONE, 0,
		   op->processDataNum));

	TRY(ex_enque(core, "103", op->inQueueStart, &startLocal));
	TRY(ex_enque(core, "104", op->inQueueEnd, &endLocal));
	TRY(ex_enque(core, "105", op->inQueueWeight, &weightLocal));
	return 0;
}

static int Compute(struct asc_core *core, struct Lerp *op)
{
	struct asc_local startLocal, endLocal, weightLocal, yLocal, fstart, fend;
	uint64_t n = op->processDataNum;

	TRY(ex_deque(core, "110", op->inQueueStart, &startLocal));
	TRY(ex_deque(core, "111", op->inQueueEnd, &endLocal));
	TRY(ex_deque(core, "112", op->inQueueWeight, &weightLocal));
	TRY(asc_core_alloc_tensor(core, op->outQueueY, &yLocal));

	/* FP16 high precision path: the bfloat16 one too. */
	TRY(asc_core_tbuf_get(core, op->tmp1, 0, &fstart));
	TRY(asc_core_tbuf_get(core, op->tmp2, 0, &fend));

	/*
	 * The original writes no PipeBarrier<PIPE_V>: the compiler's
	 * automatic sync inserts one between two vector instructions that
	 * share bytes.  Here they are written out, where it puts them.
	 */
	/* Convert to float with no rounding. */
	TRY(ex_vec(core, ASC_PIPE_V, EX_CAST_BF16_F32, "Cast(fstart, startLocal)",
		   EX_LOCAL(fstart), EX_LOCAL(startLocal), EX_NONE, 0, n));
	TRY(ex_vec(core, ASC_PIPE_V, EX_CAST_BF16_F32, "Cast(fend, endLocal)",
		   EX_LOCAL(fend), EX_LOCAL(endLocal), EX_NONE, 0, n));

	/* High precision computation: fy = start + weight * (end - start). */
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_SUB, "Sub(fend, fend, fstart)",
		   EX_LOCAL(fend), EX_LOCAL(fend), EX_LOCAL(fstart), 0, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_CAST_BF16_F32, "Cast(fstart, weightLocal)",
		   EX_LOCAL(fstart), EX_LOCAL(weightLocal), EX_NONE, 0, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_MUL, "Mul(fend, fstart, fend)",
		   EX_LOCAL(fend), EX_LOCAL(fstart), EX_LOCAL(fend), 0, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_CAST_BF16_F32, "Cast(fstart, startLocal)",
		   EX_LOCAL(fstart), EX_LOCAL(startLocal), EX_NONE, 0, n));
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_ADD, "Add(fend, fend, fstart)",
		   EX_LOCAL(fend), EX_LOCAL(fend), EX_LOCAL(fstart), 0, n));

	/* Convert back with rounding to nearest even. */
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));
	TRY(ex_vec(core, ASC_PIPE_V, EX_CAST_F32_BF16, "Cast(yLocal, fend)",
		   EX_LOCAL(yLocal), EX_LOCAL(fend), EX_NONE, 0, n));
	/* And before the next tile's casts write fstart and fend again. */
	TRY(asc_core_pipe_barrier(core, ASC_PIPE_V));

	TRY(ex_enque(core, "139", op->outQueueY, &yLocal));
	TRY(ex_free_tensor(core, "140", op->inQueueStart, &startLocal));
	TRY(ex_free_tensor(core, "141", op->inQueueEnd, &endLocal));
	TRY(ex_free_tensor(core, "142", op->inQueueWeight, &weightLocal));
	return 0;
}

static int CopyOut(struct asc_core *core, struct Lerp *op, uint64_t progress)
{
	struct asc_local yLocal;

	TRY(ex_deque(core, "147", op->outQueueY, &yLocal));
	TRY(ex_vec(core, ASC_PIPE_MTE3, EX_COPY_BF16, "DataCopy(yGm, yLocal)",
		   EX_GM(op->yGm + progress * op->ubPartDataNum, "yGm"), EX_LOCAL(yLocal),
		   EX_NONE, 0, op->processDataNum));
	TRY(ex_free_tensor(core, "149", op->outQueueY, &yLocal));
	return 0;
}

static void Process(struct asc_core *core, void *arg)
{
	struct Lerp *op = &ops[asc_core_block_idx(core) % MAX_CORES];
	uint64_t loopCount, i;

	(void)arg;
	if (Init(core, op))
		return;
	loopCount = op->tileNum;
	op->processDataNum = op->ubPartDataNum;
	for (i = 0; i < loopCount - 1; i++) {
		if (CopyIn(core, op, i) || Compute(core, op) || CopyOut(core, op, i))
			return;
	}
	op->processDataNum = op->tailDataNum;
	if (CopyIn(core, op, loopCount - 1) || Compute(core, op) ||
	    CopyOut(core, op, loopCount - 1))
		return;
}

/* lerp_tiling.cpp for bfloat16 (dataTypeLength 2: the UB in 6 parts). */
static void Tiling(void)
{
	uint64_t dataTypeLength = 2, ubPartNum = 6, everyCoreInputBlockNum;
	uint64_t ubPartLength = ubLength / ubPartNum / BUFFER_NUM;
	uint64_t ubPartBlockNum = ubPartLength / BLOCK_SIZE;
	uint64_t inputLengthAlign32, coreNum = platformCoreNum;

	memset(&tiling, 0, sizeof(tiling));
	tiling.ubPartDataNum = ubPartBlockNum * BLOCK_SIZE / dataTypeLength;
	inputLengthAlign32 = (inputDataNum * dataTypeLength + BLOCK_SIZE - 1) / BLOCK_SIZE *
			     BLOCK_SIZE;
	if (tiling.ubPartDataNum >= inputDataNum)
		coreNum = 1;
	else
		coreNum = coreNum < inputLengthAlign32 / BLOCK_SIZE ? coreNum :
			  inputLengthAlign32 / BLOCK_SIZE;
	everyCoreInputBlockNum = inputLengthAlign32 / BLOCK_SIZE / coreNum;
	tiling.tailBlockNum = (inputLengthAlign32 / BLOCK_SIZE) % coreNum;
	tiling.smallCoreDataNum = everyCoreInputBlockNum * BLOCK_SIZE / dataTypeLength;
	tiling.smallCoreLoopNum = tiling.smallCoreDataNum / tiling.ubPartDataNum;
	if (everyCoreInputBlockNum % ubPartBlockNum)
		tiling.smallCoreLoopNum++;
	tiling.smallCoreTailDataNum = tiling.smallCoreDataNum -
				      tiling.ubPartDataNum * (tiling.smallCoreLoopNum - 1);
	if (!tiling.smallCoreTailDataNum)
		tiling.smallCoreTailDataNum = tiling.ubPartDataNum;
	if (tiling.tailBlockNum) {
		everyCoreInputBlockNum += 1;
		tiling.bigCoreDataNum = everyCoreInputBlockNum * BLOCK_SIZE / dataTypeLength;
		tiling.bigCoreLoopNum = tiling.bigCoreDataNum / tiling.ubPartDataNum;
		if (everyCoreInputBlockNum % ubPartBlockNum)
			tiling.bigCoreLoopNum++;
		tiling.bigCoreTailDataNum = tiling.bigCoreDataNum -
					    tiling.ubPartDataNum * (tiling.bigCoreLoopNum - 1);
		if (!tiling.bigCoreTailDataNum)
			tiling.bigCoreTailDataNum = tiling.ubPartDataNum;
	}
	tiling.coreNum = coreNum;
}

static struct example lerp;

/* The inputs, and y in plain C, the same operations in the same order. */
static int prepare(void)
{
	/* The padding of the last 32-byte block is copied in and out too. */
	uint64_t n = (inputDataNum * 2 + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE / 2, i;
	float fs, fe, fw, fy;

	Tiling();
	lerp.block_dim = tiling.coreNum;
	start_gm = calloc(n, 2);
	end_gm = calloc(n, 2);
	weight_gm = calloc(n, 2);
	y_gm = calloc(n, 2);
	expect = calloc(n, 2);
	if (!start_gm || !end_gm || !weight_gm || !y_gm || !expect)
		return -1;
	for (i = 0; i < inputDataNum; i++) {
		start_gm[i] = ex_bf16((float)((int)(i % 199) - 99) / 8.0f);
		end_gm[i] = ex_bf16((float)((int)((i * 7) % 211) - 105) / 4.0f);
		weight_gm[i] = ex_bf16((float)(i % 17) / 16.0f);
		fs = ex_bf16_float(start_gm[i]);
		fe = ex_bf16_float(end_gm[i]);
		fw = ex_bf16_float(weight_gm[i]);
		fe = fe - fs;
		fy = fw * fe + fs;
		expect[i] = ex_bf16(fy);
	}
	return 0;
}

static int verify(void)
{
	uint64_t i;

	for (i = 0; i < inputDataNum; i++) {
		if (y_gm[i] != expect[i]) {
			fprintf(stderr, "lerp: y[%llu] = %g, expected %g\n",
				(unsigned long long)i, ex_bf16_float(y_gm[i]),
				ex_bf16_float(expect[i]));
			return -1;
		}
	}
	return 0;
}

static void cleanup(void)
{
	free(start_gm);
	free(end_gm);
	free(weight_gm);
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
		inputDataNum = v;
		return v <= (1ULL << 26) ? 0 : -1;
	case 'c':
		platformCoreNum = v;
		return v <= MAX_CORES ? 0 : -1;
	case 'u':
		ubLength = v;
		return v >= 6 * BUFFER_NUM * BLOCK_SIZE && v <= ASC_MEM_UB_BYTES ? 0 : -1;
	default:
		return -1;
	}
}

static struct example lerp = {
	.name = "lerp",
	.what = "y = start + weight * (end - start), bfloat16, on AIVs through double-buffered queues",
	.follows = "hicann/ops-math experimental/math/lerp/op_kernel/lerp.h lines 33-150 (c41933244c31)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "n:c:u:",
	.options_help = "  -n N       elements (default 100000)\n"
			"  -c CORES   the AIVs the tiling may use, 1..64 (default 4)\n"
			"  -u BYTES   the Unified Buffer the tiling cuts in 12 (default 196608)\n",
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
	return ex_main(&lerp, argc, argv);
}
