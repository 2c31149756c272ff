// SPDX-License-Identifier: GPL-2.0
/*
 * mix-matmul-epilogue - D = relu(A x B + bias) on a mix launch: per AI
 * core, the AIC multiplies tiles of A and B on the cube pipes into a
 * workspace in global memory, and its two AIVs each take half of the rows
 * of every tile, add the bias and clamp at 0 on V.  Two workspace slots
 * per AI core, handed over with mode-2 cross-core flags: the AIC sets
 * "stored" when a slot is written, both AIVs wait for it; both AIVs set
 * "computed" when they are done with it, and the AIC waits for that
 * before it writes the slot again.
 *
 * Follows repository hicann/catlass (github.com/hicann/catlass), commit
 * 0dfcf9df304f:
 * - the kernel: include/catlass/gemm/kernel/
 *   quant_matmul_multistage_workspace.hpp lines 133-138 (the flag IDs:
 *   per stage, "AIC finished store" 2 * stage, "AIV finished compute"
 *   2 * stage + 1), 147-219 (the AIC: tiles loopIdx = coreIdx, coreIdx +
 *   coreNum, ...; before a stage is reused, wait for its AIVs; after the
 *   tile is stored, a mode-2 set on FIX; at the end, wait for every stage
 *   still in use) and 224-266 (the AIV: the same tiles, wait, epilogue,
 *   a mode-2 set on MTE3), with WORKSPACE_STAGES 2 and the synchronous
 *   BlockMmad (callbackBeforeFixpipe before it, callbackAfterFixpipe
 *   after);
 * - the AIC's block: include/catlass/gemm/block/block_mmad_pingpong.hpp
 *   lines 143-362 as mmad-pingpong.c ports them, here with one L1 and one
 *   L0 buffer of each operand (STAGES 1: no preload of the next K tile)
 *   and an L0 tile as large as the L1 tile;
 * - the AIVs' epilogue, catlass's per-row epilogue reduced to bias + ReLU
 *   and written as Ascend C TQues (one VECIN, one VECOUT): EnQue allocates
 *   an ID of the queue's enqueue event and sets it, DeQue waits for it and
 *   releases it, FreeTensor and AllocTensor do the same with the free
 *   event, and the TPipe's destruction waits for the free events still
 *   set.  Each AIV takes the rows of its half of the tile
 *   (GetSubBlockIdx()).
 * Our own code: the Ascend C calls become asc_core_*() calls, each copy,
 * mmad or vector instruction a work item with the buffers it touches; the
 * IDs of the AIC are allocated (catlass writes them by hand), so that the
 * example passes with strict IDs.
 *
 * Sites: the block's lines ("203"), the kernel's ("kernel:299"; its three
 * cross-core waits by what they are, "kernel:aic-wait", "kernel:aic-end"
 * and "kernel:aiv-wait") and the epilogue's queue calls ("epi:in.EnQue").
 * Without a cross-core wait, one core's pipe touches a workspace slot
 * another core's pipe may still be writing or reading: a race between two
 * cores, which the cross-core detector reports after the launch (naming
 * both cores, pipes and instructions); without the AIC's last waits,
 * nothing races but the AIVs' sets count on the AIC and no wait takes
 * them, which it reports as missing waits.  Without a cross-core set the
 * launch deadlocks, and that is reported.
 *
 * Options: -m M -n N -k K (multiples of 16, default 128 x 64 x 48: 4 x 2
 * tiles of 32 x 32, two K tiles, the last one short), -b BLOCK_DIM (AI
 * cores, default 2).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "tile.h"

#define TILE_M		32	/* L1TileShape::M, and L0 */
#define TILE_N		32	/* L1TileShape::N, and L0 */
#define TILE_K		32	/* L1TileShape::K, and L0 */
#define ALIGNED		16
#define WORKSPACE_STAGES 2
#define SUB_BLOCKS	2

#define MTE1_MTE2	ASC_HARD_EVENT_MTE1_MTE2
#define MTE2_MTE1	ASC_HARD_EVENT_MTE2_MTE1
#define M_MTE1		ASC_HARD_EVENT_M_MTE1
#define MTE1_M		ASC_HARD_EVENT_MTE1_M
#define M_FIX		ASC_HARD_EVENT_M_FIX
#define FIX_M		ASC_HARD_EVENT_FIX_M
#define MTE2_V		ASC_HARD_EVENT_MTE2_V
#define V_MTE2		ASC_HARD_EVENT_V_MTE2
#define V_MTE3		ASC_HARD_EVENT_V_MTE3
#define MTE3_V		ASC_HARD_EVENT_MTE3_V

static const struct ex_site sites[] = {
	{ "164", "SetFlag<HardEvent::MTE1_MTE2>(l1AEventList[i])" },
	{ "165", "SetFlag<HardEvent::MTE1_MTE2>(l1BEventList[i])" },
	{ "166", "SetFlag<HardEvent::M_MTE1>(l0AEventList[i])" },
	{ "167", "SetFlag<HardEvent::M_MTE1>(l0BEventList[i])" },
	{ "170", "SetFlag<HardEvent::FIX_M>(EVENT_ID0)" },
	{ "178", "WaitFlag<HardEvent::MTE1_MTE2>(l1AEventList[i])" },
	{ "179", "WaitFlag<HardEvent::MTE1_MTE2>(l1BEventList[i])" },
	{ "180", "WaitFlag<HardEvent::M_MTE1>(l0AEventList[i])" },
	{ "181", "WaitFlag<HardEvent::M_MTE1>(l0BEventList[i])" },
	{ "183", "WaitFlag<HardEvent::FIX_M>(EVENT_ID0)" },
	{ "203", "WaitFlag<HardEvent::MTE1_MTE2>(l1AEventList[l1ListId])" },
	{ "206", "SetFlag<HardEvent::MTE2_MTE1>(l1AEventList[l1ListId])" },
	{ "209", "WaitFlag<HardEvent::MTE1_MTE2>(l1BEventList[l1ListId])" },
	{ "212", "SetFlag<HardEvent::MTE2_MTE1>(l1BEventList[l1ListId])" },
	{ "215", "WaitFlag<HardEvent::FIX_M>(EVENT_ID0)" },
	{ "276", "WaitFlag<HardEvent::M_MTE1>(l0AEventList[l0AListId])" },
	{ "278", "WaitFlag<HardEvent::MTE2_MTE1>(l1AEventList[l1ListId])" },
	{ "285", "SetFlag<HardEvent::MTE1_MTE2>(l1AEventList[l1ListId])" },
	{ "300", "WaitFlag<HardEvent::M_MTE1>(l0BEventList[l0BListId])" },
	{ "303", "WaitFlag<HardEvent::MTE2_MTE1>(l1BEventList[l1ListId])" },
	{ "311", "SetFlag<HardEvent::MTE1_MTE2>(l1BEventList[l1ListId])" },
	{ "314", "SetFlag<HardEvent::MTE1_M>(EVENT_ID0)" },
	{ "322", "WaitFlag<HardEvent::MTE1_M>(EVENT_ID0)" },
	{ "340", "SetFlag<HardEvent::M_MTE1>(l0BEventList[l0BListId])" },
	{ "343", "SetFlag<HardEvent::M_MTE1>(l0AEventList[l0AListId])" },
	{ "355", "SetFlag<HardEvent::M_FIX>(EVENT_ID0)" },
	{ "356", "WaitFlag<HardEvent::M_FIX>(EVENT_ID0)" },
	{ "358", "SetFlag<HardEvent::FIX_M>(EVENT_ID0)" },
	{ "kernel:299", "CrossCoreSetFlag<0x2, PIPE_FIX>(flagAicFinishStoreList[stageId])" },
	{ "kernel:262", "CrossCoreSetFlag<0x2, PIPE_MTE3>(flagAivFinishComputeList[stageId])" },
	{ "kernel:aic-wait", "CrossCoreWaitFlag(flagAivFinishComputeList[stageId])" },
	{ "kernel:aic-end", "CrossCoreWaitFlag(flagAivFinishComputeList[aivComputeStageId])" },
	{ "kernel:aiv-wait", "CrossCoreWaitFlag(flagAicFinishStoreList[stageId])" },
	{ "epi:in.AllocTensor", "inQueue.AllocTensor<float>()" },
	{ "epi:in.EnQue", "inQueue.EnQue(cLocal)" },
	{ "epi:in.DeQue", "inQueue.DeQue<float>()" },
	{ "epi:out.AllocTensor", "outQueue.AllocTensor<float>()" },
	{ "epi:in.FreeTensor", "inQueue.FreeTensor(cLocal)" },
	{ "epi:out.EnQue", "outQueue.EnQue(dLocal)" },
	{ "epi:out.DeQue", "outQueue.DeQue<float>()" },
	{ "epi:out.FreeTensor", "outQueue.FreeTensor(dLocal)" },
	{ "epi:destroy", "~TPipe(): wait for the free events still set" },
};

/* The problem, global memory and the workspace. */
static uint32_t M = 128, N = 64, K = 48;
static float *gmA, *gmB, *gmBias, *gmD, *expected, *gmWorkspace;

/* The buffers and state of one AIC (BlockMmad's members). */
struct aic {
	float l1A[TILE_M * TILE_K], l1B[TILE_K * TILE_N];
	float l0A[TILE_M * TILE_K], l0B[TILE_K * TILE_N];
	float l0C[TILE_M * TILE_N];
	int l1AEvent, l1BEvent;		/* MTE1_MTE2 and MTE2_MTE1 */
	int l1AFull, l1BFull;
	int l0AEvent, l0BEvent;		/* M_MTE1 */
	int mte1M, mFix, fixM;
};

/* The unified buffer of one AIV and its queues' IDs. */
struct aiv {
	float c[TILE_M / SUB_BLOCKS * TILE_N];		/* inQueue */
	float bias[TILE_N];				/* inQueue too */
	float d[TILE_M / SUB_BLOCKS * TILE_N];		/* outQueue */
	int held[ASC_HARD_EVENT_COUNT];	/* the ID a queue set, or -1 */
};

static struct aic *aics;
static struct aiv *aivs;

static struct example mix;

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static uint32_t CeilDiv(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

static uint32_t Min(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The flags of kernel lines 135-137. */
static int flagAicFinishStore(uint32_t stageId)
{
	return 2 * stageId;
}

static int flagAivFinishCompute(uint32_t stageId)
{
	return 2 * stageId + 1;
}

/* The tile of C (and D) that loop @loopIdx computes: corner and size. */
struct tile {
	uint32_t row, col, m, n;
};

static struct tile GetBlockCoord(uint32_t loopIdx)
{
	uint32_t tilesN = CeilDiv(N, TILE_N);
	struct tile t;

	t.row = loopIdx / tilesN * TILE_M;
	t.col = loopIdx % tilesN * TILE_N;
	t.m = Min(M - t.row, TILE_M);
	t.n = Min(N - t.col, TILE_N);
	return t;
}

static uint32_t GetCoreLoops(void)
{
	return CeilDiv(M, TILE_M) * CeilDiv(N, TILE_N);
}

/* Workspace slot (stageId * coreNum + coreIdx), TILE_M x TILE_N. */
static float *workspace_slot(uint32_t stageId, uint32_t coreNum,
			     uint32_t coreIdx)
{
	return gmWorkspace + (size_t)(stageId * coreNum + coreIdx) * TILE_M * TILE_N;
}

/* The epilogue on V: d = max(c + bias, 0), rows x cols, stride TILE_N. */
static void bias_relu_op(void *arg)
{
	struct ex_tile_op *o = arg;
	uint32_t r, j;
	float v;

	for (r = 0; r < o->rows; r++) {
		for (j = 0; j < o->cols; j++) {
			v = o->src[r * TILE_N + j] + o->bias[j];
			o->dst[r * TILE_N + j] = v > 0 ? v : 0;
		}
	}
	free(o);
}

/* ---- the AIC ---- */

static int alloc_id(struct asc_core *core, int event, int *id)
{
	*id = asc_core_alloc_event_id(core, event);
	return *id;
}

/* Block lines 143-171: the constructor (its IDs allocated here). */
static int BlockMmad(struct asc_core *core, struct aic *c)
{
	TRY(alloc_id(core, MTE1_MTE2, &c->l1AEvent));
	TRY(alloc_id(core, MTE1_MTE2, &c->l1BEvent));
	TRY(alloc_id(core, MTE2_MTE1, &c->l1AFull));
	TRY(alloc_id(core, MTE2_MTE1, &c->l1BFull));
	TRY(alloc_id(core, M_MTE1, &c->l0AEvent));
	TRY(alloc_id(core, M_MTE1, &c->l0BEvent));
	TRY(alloc_id(core, MTE1_M, &c->mte1M));
	TRY(alloc_id(core, M_FIX, &c->mFix));
	TRY(alloc_id(core, FIX_M, &c->fixM));
	TRY(ex_set(core, "164", MTE1_MTE2, c->l1AEvent));
	TRY(ex_set(core, "165", MTE1_MTE2, c->l1BEvent));
	TRY(ex_set(core, "166", M_MTE1, c->l0AEvent));
	TRY(ex_set(core, "167", M_MTE1, c->l0BEvent));
	return ex_set(core, "170", FIX_M, c->fixM);
}

/* Block lines 173-184: the destructor. */
static int BlockMmad_destroy(struct asc_core *core, struct aic *c)
{
	TRY(ex_wait(core, "178", MTE1_MTE2, c->l1AEvent));
	TRY(ex_wait(core, "179", MTE1_MTE2, c->l1BEvent));
	TRY(ex_wait(core, "180", M_MTE1, c->l0AEvent));
	TRY(ex_wait(core, "181", M_MTE1, c->l0BEvent));
	return ex_wait(core, "183", FIX_M, c->fixM);
}

/*
 * Block lines 186-362, one stage: the tile @t of C over all of K, into
 * the workspace slot @out (row stride TILE_N).
 */
static int BlockMmad_run(struct asc_core *core, struct aic *c,
			 const struct tile *t, float *out)
{
	uint32_t kTileCount = CeilDiv(K, TILE_K), kLoopIdx, kActual;
	const float *blkA = gmA + (size_t)t->row * K, *blkB = gmB + t->col;
	const struct asc_access mm_acc[] = {
		{ c->l0A, sizeof(c->l0A), 0, "l0A" },
		{ c->l0B, sizeof(c->l0B), 0, "l0B" },
		{ c->l0C, sizeof(c->l0C), 1, "l0C" },
	};
	struct ex_tile_op mm = { .dst = c->l0C, .dst_stride = TILE_N, .a = c->l0A,
			 .b = c->l0B, .m = t->m, .n = t->n };

	TRY(ex_wait(core, "215", FIX_M, c->fixM));	/* !ENABLE_UNIT_FLAG */
	for (kLoopIdx = 0; kLoopIdx < kTileCount; kLoopIdx++) {
		kActual = Min(K - kLoopIdx * TILE_K, TILE_K);

		/* load matrix A and B tiles from GM to L1 */
		TRY(ex_wait(core, "203", MTE1_MTE2, c->l1AEvent));
		TRY(ex_issue_copy(core, ASC_PIPE_MTE2, "copyGmToL1", c->l1A, TILE_K, "l1A",
			 blkA + kLoopIdx * TILE_K, K, "gmA", t->m, kActual));
		TRY(ex_set(core, "206", MTE2_MTE1, c->l1AFull));
		TRY(ex_wait(core, "209", MTE1_MTE2, c->l1BEvent));
		TRY(ex_issue_copy(core, ASC_PIPE_MTE2, "copyGmToL1", c->l1B, TILE_N, "l1B",
			 blkB + (size_t)kLoopIdx * TILE_K * N, N, "gmB", kActual,
			 t->n));
		TRY(ex_set(core, "212", MTE2_MTE1, c->l1BFull));

		/* L1 to L0A, packed m x kActual */
		TRY(ex_wait(core, "276", M_MTE1, c->l0AEvent));
		TRY(ex_wait(core, "278", MTE2_MTE1, c->l1AFull));
		TRY(ex_issue_copy(core, ASC_PIPE_MTE1, "copyL1ToL0", c->l0A, kActual, "l0A",
			 c->l1A, TILE_K, "l1A", t->m, kActual));
		TRY(ex_set(core, "285", MTE1_MTE2, c->l1AEvent));

		/* L1 to L0B, packed kActual x n */
		TRY(ex_wait(core, "300", M_MTE1, c->l0BEvent));
		TRY(ex_wait(core, "303", MTE2_MTE1, c->l1BFull));
		TRY(ex_issue_copy(core, ASC_PIPE_MTE1, "copyL1ToL0", c->l0B, t->n, "l0B",
			 c->l1B, TILE_N, "l1B", kActual, t->n));
		TRY(ex_set(core, "311", MTE1_MTE2, c->l1BEvent));
		TRY(ex_set(core, "314", MTE1_M, c->mte1M));

		TRY(ex_wait(core, "322", MTE1_M, c->mte1M));
		mm.k = kActual;
		mm.initC = kLoopIdx == 0;
		TRY(ex_issue(core, ASC_PIPE_M, ex_mmad_work, "tileMmad", &mm, mm_acc, 3));
		TRY(ex_set(core, "340", M_MTE1, c->l0BEvent));
		TRY(ex_set(core, "343", M_MTE1, c->l0AEvent));
	}

	/* copy block out */
	TRY(ex_set(core, "355", M_FIX, c->mFix));
	TRY(ex_wait(core, "356", M_FIX, c->mFix));
	TRY(ex_issue_copy(core, ASC_PIPE_FIX, "copyL0CToGm", out, TILE_N, "workspace",
		 c->l0C, TILE_N, "l0C", t->m, t->n));
	return ex_set(core, "358", FIX_M, c->fixM);
}

/* Kernel lines 147-219: the AIC. */
static int aic_kernel(struct asc_core *core)
{
	uint32_t coreIdx = asc_core_block_idx(core);
	uint32_t coreNum = asc_core_block_num(core);
	uint32_t coreLoops = GetCoreLoops(), loopIdx;
	uint32_t stageId = 0, stageUsed = 0, aivComputeStageId;
	struct aic *c = &aics[coreIdx];
	struct tile t;

	TRY(BlockMmad(core, c));
	for (loopIdx = coreIdx; loopIdx < coreLoops; loopIdx += coreNum) {
		t = GetBlockCoord(loopIdx);
		/* callbackBeforeFixpipe: the stage's AIVs are done with it */
		if (stageUsed == WORKSPACE_STAGES)
			TRY(ex_cross_wait(core, "kernel:aic-wait",
					  flagAivFinishCompute(stageId),
					  ASC_PIPE_S));
		else
			++stageUsed;
		TRY(BlockMmad_run(core, c, &t,
				  workspace_slot(stageId, coreNum, coreIdx)));
		/* callbackAfterFixpipe */
		TRY(ex_cross_set(core, "kernel:299", flagAicFinishStore(stageId),
				 2, ASC_PIPE_FIX));
		stageId = (stageId + 1 < WORKSPACE_STAGES) ? (stageId + 1) : 0;
	}
	while (stageUsed > 0) {
		aivComputeStageId = (stageId >= stageUsed) ?
			(stageId - stageUsed) :
			(stageId + WORKSPACE_STAGES - stageUsed);
		TRY(ex_cross_wait(core, "kernel:aic-end",
				  flagAivFinishCompute(aivComputeStageId),
				  ASC_PIPE_S));
		--stageUsed;
	}
	TRY(BlockMmad_destroy(core, c));
	TRY(asc_core_release_event_id(core, c->l1AEvent, MTE1_MTE2));
	TRY(asc_core_release_event_id(core, c->l1BEvent, MTE1_MTE2));
	TRY(asc_core_release_event_id(core, c->l1AFull, MTE2_MTE1));
	TRY(asc_core_release_event_id(core, c->l1BFull, MTE2_MTE1));
	TRY(asc_core_release_event_id(core, c->l0AEvent, M_MTE1));
	TRY(asc_core_release_event_id(core, c->l0BEvent, M_MTE1));
	TRY(asc_core_release_event_id(core, c->mte1M, MTE1_M));
	TRY(asc_core_release_event_id(core, c->mFix, M_FIX));
	return asc_core_release_event_id(core, c->fixM, FIX_M);
}

/* ---- the AIVs ---- */

/* EnQue / FreeTensor: alloc an ID of @event, set it. */
static int que_set(struct asc_core *core, struct aiv *v, const char *site,
		   int event)
{
	int id = asc_core_alloc_event_id(core, event);

	if (id < 0)
		return -1;
	v->held[event] = id;
	return ex_set(core, site, event, id);
}

/*
 * DeQue / AllocTensor: wait for the ID the last set took, release it.  An
 * AllocTensor of a buffer never freed waits for nothing.
 */
static int que_wait(struct asc_core *core, struct aiv *v, const char *site,
		    int event)
{
	int id = v->held[event];

	if (id < 0)
		return 0;
	v->held[event] = -1;
	TRY(ex_wait(core, site, event, id));
	return asc_core_release_event_id(core, id, event);
}

/*
 * The epilogue of rows @r0..@r0 + @rows - 1 of tile @t, from workspace
 * slot @slot.
 */
static int BlockEpilogue(struct asc_core *core, struct aiv *v,
			 const struct tile *t, const float *slot, uint32_t r0,
			 uint32_t rows)
{
	float *dst = gmD + (size_t)(t->row + r0) * N + t->col;
	const struct ex_tile_op ep = { .dst = v->d, .src = v->c, .bias = v->bias,
			       .rows = rows, .cols = t->n };
	const struct asc_access ep_acc[] = {
		{ v->c, ex_span(rows, t->n, TILE_N), 0, "cLocal" },
		{ v->bias, t->n * sizeof(float), 0, "biasLocal" },
		{ v->d, ex_span(rows, t->n, TILE_N), 1, "dLocal" },
	};

	TRY(que_wait(core, v, "epi:in.AllocTensor", V_MTE2));
	TRY(ex_issue_copy(core, ASC_PIPE_MTE2, "DataCopy(cLocal, gmBlockC)", v->c, TILE_N,
		 "cLocal", slot + r0 * TILE_N, TILE_N, "workspace", rows, t->n));
	TRY(ex_issue_copy(core, ASC_PIPE_MTE2, "DataCopy(biasLocal, gmBias)", v->bias,
		 TILE_N, "biasLocal", gmBias + t->col, N, "gmBias", 1, t->n));
	TRY(que_set(core, v, "epi:in.EnQue", MTE2_V));

	TRY(que_wait(core, v, "epi:in.DeQue", MTE2_V));
	TRY(que_wait(core, v, "epi:out.AllocTensor", MTE3_V));
	TRY(ex_issue(core, ASC_PIPE_V, bias_relu_op, "Add(biasLocal); Relu", &ep,
		  ep_acc, 3));
	TRY(que_set(core, v, "epi:in.FreeTensor", V_MTE2));
	TRY(que_set(core, v, "epi:out.EnQue", V_MTE3));

	TRY(que_wait(core, v, "epi:out.DeQue", V_MTE3));
	TRY(ex_issue_copy_rows(core, ASC_PIPE_MTE3, "DataCopy(gmD, dLocal)", dst, N, "gmD",
		 v->d, TILE_N, "dLocal", rows, t->n));
	return que_set(core, v, "epi:out.FreeTensor", MTE3_V);
}

/* Kernel lines 224-266: an AIV. */
static int aiv_kernel(struct asc_core *core)
{
	uint32_t coreIdx = asc_core_block_idx(core) / asc_core_sub_block_num(core);
	uint32_t coreNum = asc_core_block_num(core);
	uint32_t subIdx = asc_core_sub_block_idx(core);
	uint32_t coreLoops = GetCoreLoops(), loopIdx, stageId = 0, half, r0;
	struct aiv *v = &aivs[asc_core_block_idx(core)];
	struct tile t;
	int i;

	for (i = 0; i < ASC_HARD_EVENT_COUNT; i++)
		v->held[i] = -1;
	for (loopIdx = coreIdx; loopIdx < coreLoops; loopIdx += coreNum) {
		t = GetBlockCoord(loopIdx);
		half = CeilDiv(t.m, SUB_BLOCKS);
		r0 = subIdx * half;
		TRY(ex_cross_wait(core, "kernel:aiv-wait",
				  flagAicFinishStore(stageId), ASC_PIPE_S));
		TRY(BlockEpilogue(core, v, &t,
				  workspace_slot(stageId, coreNum, coreIdx), r0,
				  Min(t.m - r0, half)));
		TRY(ex_cross_set(core, "kernel:262", flagAivFinishCompute(stageId),
				 2, ASC_PIPE_MTE3));
		stageId = (stageId + 1 < WORKSPACE_STAGES) ? (stageId + 1) : 0;
	}
	/* ~TPipe(): the free events still set. */
	TRY(que_wait(core, v, "epi:destroy", V_MTE2));
	return que_wait(core, v, "epi:destroy", MTE3_V);
}

static void kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	if (asc_core_type(core) == ASC_CORE_AIC)
		aic_kernel(core);
	else
		aiv_kernel(core);
}

static int prepare(void)
{
	uint32_t i, j, p;
	float sum;

	gmA = malloc((size_t)M * K * sizeof(float));
	gmB = malloc((size_t)K * N * sizeof(float));
	gmBias = malloc((size_t)N * sizeof(float));
	gmD = malloc((size_t)M * N * sizeof(float));
	expected = malloc((size_t)M * N * sizeof(float));
	gmWorkspace = calloc((size_t)TILE_M * TILE_N * mix.block_dim *
			     WORKSPACE_STAGES, sizeof(float));
	aics = calloc(mix.block_dim, sizeof(*aics));
	aivs = calloc((size_t)SUB_BLOCKS * mix.block_dim, sizeof(*aivs));
	if (!gmA || !gmB || !gmBias || !gmD || !expected || !gmWorkspace ||
	    !aics || !aivs)
		return -1;
	/* Small integers: every sum is exact, in any order. */
	for (i = 0; i < M * K; i++)
		gmA[i] = (float)((int)(i * 7 % 13) - 6);
	for (i = 0; i < K * N; i++)
		gmB[i] = (float)((int)(i * 5 % 11) - 5);
	for (j = 0; j < N; j++)
		gmBias[j] = (float)((int)(j * 3 % 17) - 8);
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			sum = 0;
			for (p = 0; p < K; p++)
				sum += gmA[(size_t)i * K + p] * gmB[(size_t)p * N + j];
			sum += gmBias[j];
			expected[(size_t)i * N + j] = sum > 0 ? sum : 0;
			gmD[(size_t)i * N + j] = -1e30f;
		}
	}
	return 0;
}

static int verify(void)
{
	return ex_check_matrix("mix-matmul-epilogue", "D", gmD, expected, M, N);
}

static void cleanup(void)
{
	free(gmA);
	free(gmB);
	free(gmBias);
	free(gmD);
	free(expected);
	free(gmWorkspace);
	free(aics);
	free(aivs);
}

static int option(int opt, const char *arg)
{
	char *end;
	unsigned long v;

	v = strtoul(arg, &end, 10);
	if (end == arg || *end || !v)
		return -1;
	if (opt == 'b') {
		if (v > 64)
			return -1;
		mix.block_dim = v;
		return 0;
	}
	/* Multiples of 16 (the alignment of L1), up to 1024. */
	if (v % ALIGNED || v > 1024)
		return -1;
	if (opt == 'm')
		M = v;
	else if (opt == 'n')
		N = v;
	else if (opt == 'k')
		K = v;
	else
		return -1;
	return 0;
}

static struct example mix = {
	.name = "mix-matmul-epilogue",
	.what = "D = relu(A x B + bias) on a mix launch: per AI core the AIC multiplies\n"
		"tiles into a workspace (MTE2 -> MTE1 -> M -> FIX), its two AIVs add the bias\n"
		"and clamp, two workspace slots handed over with mode-2 cross-core flags.",
	.follows = "hicann/catlass include/catlass/gemm/kernel/\n"
		   "quant_matmul_multistage_workspace.hpp lines 133-266 and\n"
		   "include/catlass/gemm/block/block_mmad_pingpong.hpp lines 143-362\n"
		   "(commit 0dfcf9df304f)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "m:n:k:b:",
	.options_help = "  -m M, -n N, -k K  the sizes, multiples of 16 up to 1024 (default\n"
			"             128 x 64 x 48)\n"
			"  -b BLOCK_DIM  AI cores, 1..64 (default 2): 3 * BLOCK_DIM cores\n",
	.option = option,
	.prepare = prepare,
	.launch_kind = ASC_LAUNCH_MIX,
	.block_dim = 2,
	.kernel = kernel,
	.verify = verify,
	.cleanup = cleanup,
};

int main(int argc, char **argv)
{
	return ex_main(&mix, argc, argv);
}
