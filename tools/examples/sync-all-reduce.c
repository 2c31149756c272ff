// SPDX-License-Identifier: GPL-2.0
/*
 * sync-all-reduce - z = the sum over the 8 cores of 2 * x: each of 8 AIVs
 * doubles its slice of x, hands it to the others through a workspace in
 * global memory, meets them in SyncAll, and adds every other core's slice
 * to its own.
 *
 * Follows, line by line, Ascend C's SyncAll sample: repository
 * cannmirror/asc-devkit (a mirror of CANN's asc-devkit), file
 * examples/02_features/11_synchronous_control/sync_all/sync_all.asc,
 * commit a0ceec03f4a2, lines 44-66 (Process) and 68-110 (CopyToWorkGlobal,
 * CopyFromOtherCore, Accumulate, CopyIn, FirstCompute, CopyOut), launched
 * on 8 vector cores (KERNEL_TYPE_AIV_ONLY, <<<8>>>) with 256 floats.  Our
 * own code: the Ascend C calls become asc_core_*() calls, each data move
 * or vector instruction a work item with the buffers it touches, and the
 * functions keep the original's names.
 *
 * Sync, as the original has it:
 * - the TQue calls as Ascend C makes them: EnQue allocates an ID of the
 *   queue's enqueue event and sets it, DeQue waits for it and releases
 *   it; FreeTensor allocates an ID of the free event and sets it, the next
 *   AllocTensor waits for it and releases it; the TPipe's destruction
 *   waits for the free events still set.  inQueueSrc1 is VECIN (MTE2_V,
 *   V_MTE2), outQueueDst VECOUT (V_MTE3, MTE3_V).  inQueueSrc2 is written
 *   and read by V alone, so its EnQue and DeQue order nothing V's own
 *   queue does not: they are left out.
 * - SyncAll: the original calls the software variant, over a workspace
 *   (syncGm, workQueue); this port calls the hardware one,
 *   asc_core_sync_all(), which the chip runs over its reserved cross-core
 *   flags; the data hand-over through workGlobal is the same.  It is a
 *   site ("SyncAll"): without it, a core's MTE2 reads the slice of
 *   workGlobal another core's MTE3 may still be writing, and the
 *   cross-core detector reports that race after the launch.  The copies
 *   declare the global memory they touch (srcGlobal, workGlobal,
 *   dstGlobal), as the cross-core detector needs.
 *
 * Option: -c CORES, the launch's AIVs (1..64, default 8 as the original),
 * each with a slice of 32 floats: -c 64 is a launch of 64 cores of 7
 * pipes each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define MAX_CORES	64
#define PER_BLOCK	32
#define MAX_SIZE	(MAX_CORES * PER_BLOCK)

/* The cores (8 as the original, -c), and the floats of x: 32 each. */
static unsigned int cores = 8;

#define MTE2_V		ASC_HARD_EVENT_MTE2_V
#define V_MTE2		ASC_HARD_EVENT_V_MTE2
#define V_MTE3		ASC_HARD_EVENT_V_MTE3
#define MTE3_V		ASC_HARD_EVENT_MTE3_V

static const struct ex_site sites[] = {
	{ "90", "inQueueSrc1.EnQue(srcLocal)" },
	{ "94", "inQueueSrc1.DeQue<float>()" },
	{ "101", "inQueueSrc1.FreeTensor(srcLocal1)" },
	{ "103", "outQueueDst.EnQue(dstLocal)" },
	{ "70", "outQueueDst.DeQue<float>()" },
	{ "72", "outQueueDst.FreeTensor(dstLocal)" },
	{ "55", "outQueueDst.AllocTensor<float>()" },
	{ "76", "inQueueSrc1.AllocTensor<float>()" },
	{ "78", "inQueueSrc1.EnQue(srcLocal)" },
	{ "82", "inQueueSrc1.DeQue<float>()" },
	{ "84", "inQueueSrc1.FreeTensor(srcLocal1)" },
	{ "64", "outQueueDst.EnQue(dstLocal)" },
	{ "107", "outQueueDst.DeQue<float>()" },
	{ "109", "outQueueDst.FreeTensor(dstLocal)" },
	{ "destroy", "~TPipe(): wait for the free events still set" },
	{ "SyncAll", "SyncAll<false>(syncGm, workQueue, blockNum)" },
};

/* Global memory. */
static float src_gm[MAX_SIZE], dst_gm[MAX_SIZE], work_gm[MAX_SIZE];
static float expect[MAX_SIZE];

/* One core's unified buffer and the arguments of its work items. */
struct ub {
	int block_idx;
	float src1[PER_BLOCK];	/* inQueueSrc1 */
	float src2[PER_BLOCK];	/* inQueueSrc2 */
	float dst[PER_BLOCK];	/* outQueueDst */
	int held[ASC_HARD_EVENT_COUNT];	/* the ID a queue set, or -1 */
};

static struct ub ubs[MAX_CORES];

/* CopyFromOtherCore(index) of a core: its own argument, as MTE2 runs later. */
struct other {
	struct ub *u;
	int index;
};

static struct other others[MAX_CORES][MAX_CORES];

/* EnQue / FreeTensor: alloc an ID of @event, set it. */
static int que_set(struct asc_core *core, struct ub *u, const char *site,
		   int event)
{
	int id = asc_core_alloc_event_id(core, event);

	if (id < 0)
		return -1;
	u->held[event] = id;
	return ex_set(core, site, event, id);
}

/*
 * DeQue / AllocTensor: wait for the ID the last set took, release it.  An
 * AllocTensor of a buffer never freed waits for nothing.
 */
static int que_wait(struct asc_core *core, struct ub *u, const char *site,
		    int event)
{
	int id = u->held[event];

	if (id < 0)
		return 0;
	u->held[event] = -1;
	if (ex_wait(core, site, event, id) < 0)
		return -1;
	return asc_core_release_event_id(core, id, event);
}

static void copy_in(void *arg)		/* MTE2 */
{
	struct ub *u = arg;

	memcpy(u->src1, src_gm + u->block_idx * PER_BLOCK, sizeof(u->src1));
}

static void muls(void *arg)		/* V */
{
	struct ub *u = arg;
	int i;

	for (i = 0; i < PER_BLOCK; i++)
		u->dst[i] = u->src1[i] * 2.0f;
}

static void copy_dst_to_src2(void *arg)	/* V */
{
	struct ub *u = arg;

	memcpy(u->src2, u->dst, sizeof(u->src2));
}

static void copy_to_work(void *arg)	/* MTE3 */
{
	struct ub *u = arg;

	memcpy(work_gm + u->block_idx * PER_BLOCK, u->dst, sizeof(u->dst));
}

static void copy_src2_to_dst(void *arg)	/* V */
{
	struct ub *u = arg;

	memcpy(u->dst, u->src2, sizeof(u->dst));
}

static void copy_from_other(void *arg)	/* MTE2 */
{
	struct other *o = arg;

	memcpy(o->u->src1, work_gm + o->index * PER_BLOCK, sizeof(o->u->src1));
}

static void add(void *arg)		/* V */
{
	struct ub *u = arg;
	int i;

	for (i = 0; i < PER_BLOCK; i++)
		u->dst[i] += u->src1[i];
}

static void copy_out(void *arg)		/* MTE3 */
{
	struct ub *u = arg;

	memcpy(dst_gm + u->block_idx * PER_BLOCK, u->dst, sizeof(u->dst));
}

/* An access of the whole buffer @p, written when @w. */
#define ACC(p, w, name)	{ (p), sizeof(p), (w), (name) }
/* An access of core @i's slice of global memory @gm. */
#define GM(gm, i, w, name) \
	{ (gm) + (i) * PER_BLOCK, PER_BLOCK * sizeof(float), (w), (name) }

static void CopyIn(struct asc_core *core, struct ub *u)
{
	const struct asc_access acc[] = {
		ACC(u->src1, 1, "srcLocal"),
		GM(src_gm, u->block_idx, 0, "srcGlobal"),
	};

	asc_core_issue(core, ASC_PIPE_MTE2, copy_in, u, "DataCopy(srcLocal, srcGlobal)", acc, 2);
	que_set(core, u, "90", MTE2_V);
}

static void FirstCompute(struct asc_core *core, struct ub *u)
{
	const struct asc_access mul[] = { ACC(u->src1, 0, "srcLocal1"),
					  ACC(u->dst, 1, "dstLocal") };
	const struct asc_access cp[] = { ACC(u->dst, 0, "dstLocal"),
					 ACC(u->src2, 1, "srcLocal2") };

	que_wait(core, u, "94", MTE2_V);
	asc_core_issue(core, ASC_PIPE_V, muls, u, "Muls", mul, 2);
	asc_core_pipe_barrier(core, ASC_PIPE_V);
	asc_core_issue(core, ASC_PIPE_V, copy_dst_to_src2, u, "DataCopy(srcLocal2, dstLocal)", cp, 2);
	que_set(core, u, "101", V_MTE2);
	que_set(core, u, "103", V_MTE3);
}

static void CopyToWorkGlobal(struct asc_core *core, struct ub *u)
{
	const struct asc_access acc[] = {
		ACC(u->dst, 0, "dstLocal"),
		GM(work_gm, u->block_idx, 1, "workGlobal"),
	};

	que_wait(core, u, "70", V_MTE3);
	asc_core_issue(core, ASC_PIPE_MTE3, copy_to_work, u, "DataCopy(workGlobal, dstLocal)", acc, 2);
	que_set(core, u, "72", MTE3_V);
}

static void CopyFromOtherCore(struct asc_core *core, struct ub *u, int index)
{
	const struct asc_access acc[] = {
		ACC(u->src1, 1, "srcLocal"),
		GM(work_gm, index, 0, "workGlobal"),
	};
	struct other *o = &others[u->block_idx][index];

	o->u = u;
	o->index = index;
	que_wait(core, u, "76", V_MTE2);
	asc_core_issue(core, ASC_PIPE_MTE2, copy_from_other, o, "DataCopy(srcLocal, workGlobal)", acc, 2);
	que_set(core, u, "78", MTE2_V);
}

static void Accumulate(struct asc_core *core, struct ub *u)
{
	const struct asc_access acc[] = { ACC(u->src1, 0, "srcLocal1"),
					  ACC(u->dst, 1, "dstLocal") };

	que_wait(core, u, "82", MTE2_V);
	asc_core_issue(core, ASC_PIPE_V, add, u, "Add", acc, 2);
	que_set(core, u, "84", V_MTE2);
}

static void CopyOut(struct asc_core *core, struct ub *u)
{
	const struct asc_access acc[] = {
		ACC(u->dst, 0, "dstLocal"),
		GM(dst_gm, u->block_idx, 1, "dstGlobal"),
	};

	que_wait(core, u, "107", V_MTE3);
	asc_core_issue(core, ASC_PIPE_MTE3, copy_out, u, "DataCopy(dstGlobal, dstLocal)", acc, 2);
	que_set(core, u, "109", MTE3_V);
}

static void Process(struct asc_core *core, void *arg)
{
	int block_idx = asc_core_block_idx(core);
	struct ub *u = &ubs[block_idx < 0 ? 0 : block_idx % MAX_CORES];
	const struct asc_access cp[] = { ACC(u->src2, 0, "srcLocal2"),
					 ACC(u->dst, 1, "dstLocal") };
	int i;

	(void)arg;
	for (i = 0; i < ASC_HARD_EVENT_COUNT; i++)
		u->held[i] = -1;
	u->block_idx = block_idx;
	CopyIn(core, u);
	FirstCompute(core, u);
	CopyToWorkGlobal(core, u);
	/* Wait until every core has done its first compute. */
	ex_sync_all(core, "SyncAll");
	que_wait(core, u, "55", MTE3_V);
	asc_core_issue(core, ASC_PIPE_V, copy_src2_to_dst, u, "DataCopy(dstLocal, srcLocal2)", cp, 2);
	/*
	 * Not in the sample: the first Add reads dstLocal, and the
	 * compiler's automatic sync puts a PipeBarrier<PIPE_V> between the
	 * two (each later Add is ordered by its queue's flags, V_MTE2 and
	 * MTE2_V, that come back to V).
	 */
	asc_core_pipe_barrier(core, ASC_PIPE_V);
	for (i = 0; i < (int)cores; i++) {
		if (i != block_idx) {
			CopyFromOtherCore(core, u, i);
			Accumulate(core, u);
		}
	}
	que_set(core, u, "64", V_MTE3);
	CopyOut(core, u);
	/* ~TPipe(): the free events still set. */
	que_wait(core, u, "destroy", V_MTE2);
	que_wait(core, u, "destroy", MTE3_V);
}

static int prepare(void)
{
	int i, j, b;

	for (i = 0; i < (int)(cores * PER_BLOCK); i++)
		src_gm[i] = (float)((i * 7) % 23) - 11.0f;
	for (j = 0; j < PER_BLOCK; j++) {
		float sum = 0;

		for (b = 0; b < (int)cores; b++)
			sum += 2.0f * src_gm[b * PER_BLOCK + j];
		for (b = 0; b < (int)cores; b++)
			expect[b * PER_BLOCK + j] = sum;
	}
	memset(dst_gm, 0, sizeof(dst_gm));
	return 0;
}

static int verify(void)
{
	int i;

	for (i = 0; i < (int)(cores * PER_BLOCK); i++) {
		if (dst_gm[i] != expect[i]) {
			fprintf(stderr, "sync-all-reduce: z[%d] = %g, expected %g\n",
				i, dst_gm[i], expect[i]);
			return -1;
		}
	}
	return 0;
}

static struct example sync_all_reduce;

static int option(int opt, const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (opt != 'c' || end == arg || *end || !v || v > MAX_CORES)
		return -1;
	cores = v;
	sync_all_reduce.block_dim = v;
	return 0;
}

static struct example sync_all_reduce = {
	.name = "sync-all-reduce",
	.what = "z = the sum over the AIVs (8 by default) of 2 * x, through a workspace and SyncAll",
	.follows = "cannmirror/asc-devkit examples/02_features/11_synchronous_control/sync_all/sync_all.asc lines 44-110 (a0ceec03f4a2)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "c:",
	.options_help = "  -c CORES   AIVs, 1..64, each with 32 floats of x (default 8, as the\n"
			"             original)\n",
	.option = option,
	.prepare = prepare,
	.launch_kind = ASC_LAUNCH_AIV,
	.block_dim = 8,
	.kernel = Process,
	.verify = verify,
};

int main(int argc, char **argv)
{
	return ex_main(&sync_all_reduce, argc, argv);
}
