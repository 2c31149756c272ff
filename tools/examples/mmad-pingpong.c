// SPDX-License-Identifier: GPL-2.0
/*
 * mmad-pingpong - C = A x B on the cube unit, catlass's ping-pong block:
 * MTE2 loads tiles of A and B from global memory into L1, MTE1 moves
 * parts of them into L0A and L0B, M multiplies them into L0C, FIX copies
 * L0C out; two buffers of each of L1A, L1B, L0A and L0B, and every event
 * ID written by hand.
 *
 * Follows, line by line, repository hicann/catlass
 * (github.com/hicann/catlass), file
 * include/catlass/gemm/block/block_mmad_pingpong.hpp, commit 0dfcf9df304f,
 * lines 143-184 (the constructor, which sets the "buffer free" flags, and
 * the destructor, which takes them back) and 186-362 (operator(): one
 * block of C, the L1 tiles of K double-buffered and the L0 parts of each
 * tile ping-ponged), without the unit flag (ENABLE_UNIT_FLAG false).  The
 * block loop is that of include/catlass/gemm/kernel/basic_matmul.hpp
 * lines 111-140 (one BlockMmad for every block of the core), with the
 * blocks in row-major order.  Our own code: the Ascend C calls become
 * asc_core_*() calls, each copy or mmad a work item with the buffers it
 * touches, the layouts plain row-major.
 *
 * IDs, as catlass writes them: L1A stage i uses MTE1_MTE2/MTE2_MTE1 ID i,
 * L1B stage i ID i + STAGES; L0A stage i uses M_MTE1 ID i, L0B stage i ID
 * i + STAGES; MTE1_M, M_FIX and FIX_M use EVENT_ID0.
 *
 * One line departs from the original, and -u puts it back.  Line 314 sets
 * MTE1_M with EVENT_ID0 for every L0 part, and line 322 waits for it on
 * M.  MTE1 sets it for part j + 1 once M has freed the L0 buffers of part
 * j - 1 (line 343), but nothing orders that after M's wait for part j: M
 * takes the flag at once on the chip, where the pipes keep time, but a
 * pipe that is held up between its set of M_MTE1 and its next wait (a
 * preempted thread here) lets the second set come first, and the flag,
 * one bit, is set twice.  The detector reports it ("possible double set",
 * the same on every run).  By default the port uses the ping-pong ID of
 * the L0B buffer (l0BEventList[l0BListId]) for MTE1_M, as catlass's own
 * later blocks do (block_mmad_fai_qk_normal.hpp, l0ABPingPongFlag).
 *
 * Options: -m M -n N -k K (default 64 x 48 x 80: two block rows, a block
 * column of 16, three L1 tiles of K, the last one short), -u.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "tile.h"

#define STAGES		2
/* L1TileShape M, N, K and L0TileShape M, N, K (M and N equal, as catlass asks). */
#define L1_M		32
#define L1_N		32
#define L1_K		32
#define L0_M		32
#define L0_N		32
#define L0_K		16
#define ALIGNED		16
#define EVENT_ID0	0

#define MTE1_MTE2	ASC_HARD_EVENT_MTE1_MTE2
#define MTE2_MTE1	ASC_HARD_EVENT_MTE2_MTE1
#define M_MTE1		ASC_HARD_EVENT_M_MTE1
#define MTE1_M		ASC_HARD_EVENT_MTE1_M
#define M_FIX		ASC_HARD_EVENT_M_FIX
#define FIX_M		ASC_HARD_EVENT_FIX_M

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
	{ "242", "WaitFlag<HardEvent::MTE1_MTE2>(l1AEventList[l1ListIdNext])" },
	{ "245", "SetFlag<HardEvent::MTE2_MTE1>(l1AEventList[l1ListIdNext])" },
	{ "248", "WaitFlag<HardEvent::MTE1_MTE2>(l1BEventList[l1ListIdNext])" },
	{ "251", "SetFlag<HardEvent::MTE2_MTE1>(l1BEventList[l1ListIdNext])" },
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
};

/* The problem and its buffers: global memory, L1, L0A, L0B, L0C. */
static uint32_t M = 64, N = 48, K = 80;
static int upstream_mte1_m;
static float *gmA, *gmB, *gmC, *expected;
static float l1ATensorList[STAGES][L1_M * L1_K], l1BTensorList[STAGES][L1_K * L1_N];
static float l0ATensorList[STAGES][L0_M * L0_K], l0BTensorList[STAGES][L0_K * L0_N];
static float l0CTensor[L1_M * L1_N];

/* The block's state, as BlockMmad's members. */
static int l1AEventList[STAGES], l1BEventList[STAGES];
static int l0AEventList[STAGES], l0BEventList[STAGES];
static uint32_t l1ListId, l0AListId, l0BListId;

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static uint32_t CeilDiv(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

static uint32_t RoundUp(uint32_t a, uint32_t b)
{
	return CeilDiv(a, b) * b;
}

/* MTE2: rows x cols of global memory into an L1 buffer. */
static int copyGmToL1(struct asc_core *core, float *l1, uint32_t l1_stride,
		      const float *gm, uint32_t gm_stride, uint32_t rows,
		      uint32_t cols, const char *name)
{
	const struct ex_tile_op op = { .dst = l1, .src = gm, .dst_stride = l1_stride,
			       .src_stride = gm_stride, .rows = rows, .cols = cols };
	const struct asc_access acc[] = {
		{ gm, ex_span(rows, cols, gm_stride), 0, "gm" },
		{ l1, ex_span(rows, cols, l1_stride), 1, name },
	};

	return ex_issue(core, ASC_PIPE_MTE2, ex_copy_work, "copyGmToL1", &op, acc, 2);
}

/* MTE1: a part of an L1 buffer into an L0 buffer, packed. */
static int copyL1ToL0(struct asc_core *core, float *l0, const float *l1,
		      uint32_t l1_stride, uint32_t rows, uint32_t cols,
		      const char *l0_name, const char *l1_name)
{
	const struct ex_tile_op op = { .dst = l0, .src = l1, .dst_stride = cols,
			       .src_stride = l1_stride, .rows = rows, .cols = cols };
	const struct asc_access acc[] = {
		{ l1, ex_span(rows, cols, l1_stride), 0, l1_name },
		{ l0, ex_span(rows, cols, cols), 1, l0_name },
	};

	return ex_issue(core, ASC_PIPE_MTE1, ex_copy_work, "copyL1ToL0", &op, acc, 2);
}

static const char *const l1a_name[] = { "l1A[0]", "l1A[1]" };
static const char *const l1b_name[] = { "l1B[0]", "l1B[1]" };
static const char *const l0a_name[] = { "l0A[0]", "l0A[1]" };
static const char *const l0b_name[] = { "l0B[0]", "l0B[1]" };

/* Lines 143-171: the constructor. */
static int BlockMmad(struct asc_core *core)
{
	uint32_t i;

	for (i = 0; i < STAGES; i++) {
		l1AEventList[i] = i;
		l1BEventList[i] = i + STAGES;
		l0AEventList[i] = i;
		l0BEventList[i] = i + STAGES;

		TRY(ex_set(core, "164", MTE1_MTE2, l1AEventList[i]));
		TRY(ex_set(core, "165", MTE1_MTE2, l1BEventList[i]));
		TRY(ex_set(core, "166", M_MTE1, l0AEventList[i]));
		TRY(ex_set(core, "167", M_MTE1, l0BEventList[i]));
	}
	return ex_set(core, "170", FIX_M, EVENT_ID0);
}

/* Lines 173-184: the destructor. */
static int BlockMmad_destroy(struct asc_core *core)
{
	uint32_t i;

	for (i = 0; i < STAGES; i++) {
		TRY(ex_wait(core, "178", MTE1_MTE2, l1AEventList[i]));
		TRY(ex_wait(core, "179", MTE1_MTE2, l1BEventList[i]));
		TRY(ex_wait(core, "180", M_MTE1, l0AEventList[i]));
		TRY(ex_wait(core, "181", M_MTE1, l0BEventList[i]));
	}
	return ex_wait(core, "183", FIX_M, EVENT_ID0);
}

/*
 * Lines 186-362: one block of C, m x n at (bm, bn), over all of K.  The
 * GM tensors are A, B and C at the block's corner (row strides K, N, N).
 */
static int BlockMmad_run(struct asc_core *core, const float *blkA,
			 const float *blkB, float *blkC, uint32_t m, uint32_t n,
			 uint32_t k)
{
	uint32_t mRound = RoundUp(m, ALIGNED), nRound = RoundUp(n, ALIGNED);
	uint32_t kActual = k < L1_K ? k : L1_K;
	uint32_t mPartLoop, nPartLoop, kTileCount, kLoopIdx;
	const struct asc_access out_acc[] = {
		{ l0CTensor, sizeof(l0CTensor), 0, "l0C" },
		{ blkC, ex_span(m, n, N), 1, "gmC" },
	};
	const struct ex_tile_op out = { .dst = blkC, .src = l0CTensor, .dst_stride = N,
				.src_stride = L1_N, .rows = m, .cols = n };

	/* load first matrix A tile from GM to L1 */
	TRY(ex_wait(core, "203", MTE1_MTE2, l1AEventList[l1ListId]));
	TRY(copyGmToL1(core, l1ATensorList[l1ListId], L1_K, blkA, K, m, kActual,
		       l1a_name[l1ListId]));
	TRY(ex_set(core, "206", MTE2_MTE1, l1AEventList[l1ListId]));

	/* load first matrix B tile from GM to L1 */
	TRY(ex_wait(core, "209", MTE1_MTE2, l1BEventList[l1ListId]));
	TRY(copyGmToL1(core, l1BTensorList[l1ListId], L1_N, blkB, N, kActual, n,
		       l1b_name[l1ListId]));
	TRY(ex_set(core, "212", MTE2_MTE1, l1BEventList[l1ListId]));

	TRY(ex_wait(core, "215", FIX_M, EVENT_ID0));	/* !ENABLE_UNIT_FLAG */

	mPartLoop = CeilDiv(mRound, L0_M);
	nPartLoop = CeilDiv(nRound, L0_N);

	kTileCount = CeilDiv(k, L1_K);
	for (kLoopIdx = 0; kLoopIdx < kTileCount; kLoopIdx++) {
		uint32_t l1ListIdNext = (l1ListId + 1 < STAGES) ? (l1ListId + 1) : 0;
		uint32_t kActualNext = 0, kPartLoop, mPartIdx, kPartIdx, nPartIdx;

		/* preload next tile from GM to L1 */
		if (kLoopIdx < kTileCount - 1) {
			uint32_t kLoopIdxNext = kLoopIdx + 1;

			kActualNext = (kLoopIdxNext < kTileCount - 1) ? L1_K :
				      (k - kLoopIdxNext * L1_K);

			TRY(ex_wait(core, "242", MTE1_MTE2, l1AEventList[l1ListIdNext]));
			TRY(copyGmToL1(core, l1ATensorList[l1ListIdNext], L1_K,
				       blkA + kLoopIdxNext * L1_K, K, m, kActualNext,
				       l1a_name[l1ListIdNext]));
			TRY(ex_set(core, "245", MTE2_MTE1, l1AEventList[l1ListIdNext]));

			TRY(ex_wait(core, "248", MTE1_MTE2, l1BEventList[l1ListIdNext]));
			TRY(copyGmToL1(core, l1BTensorList[l1ListIdNext], L1_N,
				       blkB + (size_t)kLoopIdxNext * L1_K * N, N,
				       kActualNext, n, l1b_name[l1ListIdNext]));
			TRY(ex_set(core, "251", MTE2_MTE1, l1BEventList[l1ListIdNext]));
		}

		kPartLoop = CeilDiv(kActual, L0_K);

		for (mPartIdx = 0; mPartIdx < mPartLoop; mPartIdx++) {
			uint32_t mPartActual = (mPartIdx < mPartLoop - 1) ? L0_M :
					       (mRound - mPartIdx * L0_M);

			for (kPartIdx = 0; kPartIdx < kPartLoop; kPartIdx++) {
				uint32_t kPartActual = (kPartIdx < kPartLoop - 1) ? L0_K :
						       (kActual - kPartIdx * L0_K);
				float *l0ATile = l0ATensorList[l0AListId];
				const float *l1ATile = l1ATensorList[l1ListId] +
					mPartIdx * L0_M * L1_K + kPartIdx * L0_K;

				TRY(ex_wait(core, "276", M_MTE1, l0AEventList[l0AListId]));
				if (mPartIdx == 0 && kPartIdx == 0)
					TRY(ex_wait(core, "278", MTE2_MTE1, l1AEventList[l1ListId]));

				/* Load current tile from L1 to L0A */
				TRY(copyL1ToL0(core, l0ATile, l1ATile, L1_K, mPartActual,
					       kPartActual, l0a_name[l0AListId],
					       l1a_name[l1ListId]));

				if (mPartIdx == mPartLoop - 1 && kPartIdx == kPartLoop - 1)
					TRY(ex_set(core, "285", MTE1_MTE2, l1AEventList[l1ListId]));

				for (nPartIdx = 0; nPartIdx < nPartLoop; nPartIdx++) {
					uint32_t nPartActual = (nPartIdx < nPartLoop - 1) ? L0_N :
							       (nRound - nPartIdx * L0_N);
					float *l0BTile = l0BTensorList[l0BListId];
					const float *l1BTile = l1BTensorList[l1ListId] +
						kPartIdx * L0_K * L1_N + nPartIdx * L0_N;
					int mte1_m = upstream_mte1_m ? EVENT_ID0 :
						     l0BEventList[l0BListId];
					struct ex_tile_op mm = {
						.dst = l0CTensor + mPartIdx * L0_M * L1_N +
						       nPartIdx * L0_N,
						.dst_stride = L1_N, .a = l0ATile,
						.b = l0BTile, .m = mPartActual,
						.n = nPartActual, .k = kPartActual,
						/* first tile on the k axis: reset */
						.initC = kLoopIdx == 0 && kPartIdx == 0,
					};
					const struct asc_access mm_acc[] = {
						{ l0ATile, sizeof(l0ATensorList[0]), 0,
						  l0a_name[l0AListId] },
						{ l0BTile, sizeof(l0BTensorList[0]), 0,
						  l0b_name[l0BListId] },
						{ l0CTensor, sizeof(l0CTensor), 1, "l0C" },
					};

					/* Wait for mmad finished */
					TRY(ex_wait(core, "300", M_MTE1, l0BEventList[l0BListId]));
					if (kPartIdx == 0 && nPartIdx == 0)
						TRY(ex_wait(core, "303", MTE2_MTE1,
							    l1BEventList[l1ListId]));

					/* Load current tile from L1 to L0B */
					TRY(copyL1ToL0(core, l0BTile, l1BTile, L1_N,
						       kPartActual, nPartActual,
						       l0b_name[l0BListId],
						       l1b_name[l1ListId]));

					if (kPartIdx == kPartLoop - 1 && nPartIdx == nPartLoop - 1)
						TRY(ex_set(core, "311", MTE1_MTE2,
							   l1BEventList[l1ListId]));
					/* Notify to do mmad */
					TRY(ex_set(core, "314", MTE1_M, mte1_m));
					/* Wait for loading L0B */
					TRY(ex_wait(core, "322", MTE1_M, mte1_m));

					TRY(ex_issue(core, ASC_PIPE_M, ex_mmad_work, "tileMmad", &mm,
						  mm_acc, 3));

					/* Notify to move the next L0B tile */
					TRY(ex_set(core, "340", M_MTE1, l0BEventList[l0BListId]));
					l0BListId = (l0BListId + 1 < STAGES) ? (l0BListId + 1) : 0;
				}
				TRY(ex_set(core, "343", M_MTE1, l0AEventList[l0AListId]));
				l0AListId = (l0AListId + 1 < STAGES) ? (l0AListId + 1) : 0;
			}
		}
		l1ListId = l1ListIdNext;
		kActual = kActualNext;
	}

	/* copy block out */
	TRY(ex_set(core, "355", M_FIX, EVENT_ID0));
	TRY(ex_wait(core, "356", M_FIX, EVENT_ID0));
	TRY(ex_issue(core, ASC_PIPE_FIX, ex_copy_work, "copyL0CToGm", &out, out_acc, 2));
	return ex_set(core, "358", FIX_M, EVENT_ID0);
}

/* basic_matmul.hpp lines 111-140: one BlockMmad, every block in turn. */
static void kernel(struct asc_core *core, void *arg)
{
	uint32_t bm, bn, m, n;

	(void)arg;
	l1ListId = l0AListId = l0BListId = 0;
	if (BlockMmad(core) < 0)
		return;
	for (bm = 0; bm < M; bm += L1_M) {
		for (bn = 0; bn < N; bn += L1_N) {
			m = M - bm < L1_M ? M - bm : L1_M;
			n = N - bn < L1_N ? N - bn : L1_N;
			if (BlockMmad_run(core, gmA + (size_t)bm * K, gmB + bn,
					  gmC + (size_t)bm * N + bn, m, n, K) < 0)
				return;
		}
	}
	BlockMmad_destroy(core);
}

static int prepare(void)
{
	uint32_t i, j, p;
	float sum;

	gmA = malloc((size_t)M * K * sizeof(float));
	gmB = malloc((size_t)K * N * sizeof(float));
	gmC = malloc((size_t)M * N * sizeof(float));
	expected = malloc((size_t)M * N * sizeof(float));
	if (!gmA || !gmB || !gmC || !expected)
		return -1;
	/* Small integers: every sum is exact, in any order. */
	for (i = 0; i < M * K; i++)
		gmA[i] = (float)((int)(i * 7 % 13) - 6);
	for (i = 0; i < K * N; i++)
		gmB[i] = (float)((int)(i * 5 % 11) - 5);
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			sum = 0;
			for (p = 0; p < K; p++)
				sum += gmA[(size_t)i * K + p] * gmB[(size_t)p * N + j];
			expected[(size_t)i * N + j] = sum;
			gmC[(size_t)i * N + j] = -1e30f;
		}
	}
	return 0;
}

static int verify(void)
{
	return ex_check_matrix("mmad-pingpong", "C", gmC, expected, M, N);
}

static void cleanup(void)
{
	free(gmA);
	free(gmB);
	free(gmC);
	free(expected);
}

static int option(int opt, const char *arg)
{
	char *end;
	unsigned long v;

	if (opt == 'u') {
		upstream_mte1_m = 1;
		return 0;
	}
	v = strtoul(arg, &end, 10);
	/* Multiples of 16 (the alignment of L1), up to 4096. */
	if (end == arg || *end || !v || v % ALIGNED || v > 4096)
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

static const struct example mmad_pingpong = {
	.name = "mmad-pingpong",
	.what = "C = A x B over floats, catlass's ping-pong block: MTE2 -> MTE1 -> M -> FIX,\n"
		"two buffers of L1A, L1B, L0A and L0B, every event ID written by hand.",
	.follows = "hicann/catlass include/catlass/gemm/block/block_mmad_pingpong.hpp\n"
		   "lines 143-362 (commit 0dfcf9df304f)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "m:n:k:u",
	.options_help = "  -m M, -n N, -k K  the sizes, multiples of 16 (default 64 x 48 x 80)\n"
			"  -u         line 314 as upstream: MTE1_M with EVENT_ID0 (a possible\n"
			"             double set, reported)\n",
	.option = option,
	.prepare = prepare,
	.kernel = kernel,
	.verify = verify,
	.cleanup = cleanup,
};

int main(int argc, char **argv)
{
	return ex_main(&mmad_pingpong, argc, argv);
}
