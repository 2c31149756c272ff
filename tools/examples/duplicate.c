// SPDX-License-Identifier: GPL-2.0
/*
 * duplicate - z = a scalar everywhere, float, on a launch of AIVs through
 * one VECOUT TQue: the example of the memory checks.
 *
 * Follows, line by line, pyasc's generalization test of Duplicate:
 * repository hicann/pyasc (github.com/hicann/pyasc), file
 * python/test/generalization/basic/test_duplicate.py, commit
 * cecba26ace65, lines 21-32 (duplicate_kernel), 35-39 (compute), 42-46
 * (copy_out) and 49-58 (duplicate_launch, its tiling), for float32.  Our
 * own code: the pyasc calls become asc_core_*() calls, the Duplicate and
 * the DataCopy work items with the buffers they touch (vec.c), and the
 * functions keep the original's names.  As the Python package does, the
 * array z the launch is given is declared to the memory checks
 * (asc_core_gm_buffer()) under its parameter's name; z_gm, whose
 * set_global_buffer() takes no size, is not.
 *
 * Sync, as the original has it: none by hand.  out_queue_z, a TQue at
 * VECOUT of depth 1 (V_MTE3, MTE3_V), its enque, deque and free_tensor
 * the sites (`-l`); alloc_tensor waits for the free event.
 *
 * The tiling as written (-w): 16 cores, a block of ceil(size / 16)
 * elements each, and tile_num tiles of 512 elements copied out from the
 * block's start, whatever the block's length.  With pyasc's first size,
 * 1000, a block is 63 elements and each core copies 512 of them: the
 * cores' copies overlap (core c writes z[63c] to z[63c + 511], over the
 * blocks of the next eight cores), and the last core's runs 457 elements
 * past the end of z.  On the chip that writes memory the test never
 * allocated; here the memory check refuses the copy before it runs (an
 * "out of bounds:" line, exit status 3).  Cores 8 to 15 each copy past
 * the end; the report names core 8, the lowest (as a launch's report
 * does), and its offset in z (252c bytes, 2048 long) is the overlap.  With 8192
 * (pyasc's int32 size) a block is one tile and the tiling as written is
 * right.
 *
 * The tiling by default: the block rounded up to 32 bytes (8 floats, so
 * that each core's part of z starts on a 32-byte boundary), each core
 * copying only its own block, the last core's block and the last tile of
 * each block cut short (the tail; DataCopyPad's exact length on the
 * chip), and a core whose block starts past the end doing nothing.
 *
 * Options: -n N elements (default 1000, pyasc's), -c CORES (default 16,
 * use_core_num), -t TILE elements per tile (default 512, tile_length),
 * -w the tiling as written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "vec.h"

#define MAX_CORES	64
#define BLOCK_ELEMS	8	/* 32 bytes of float */

static const struct ex_site sites[] = {
	{ "39", "out_queue_z.enque(z_local)" },
	{ "44", "out_queue_z.deque(z_gm.dtype)" },
	{ "46", "out_queue_z.free_tensor(z_local)" },
};

/* The launch's parameters (duplicate_launch) and the choice of tiling. */
static uint64_t size = 1000;
static uint64_t use_core_num = 16;
static uint64_t tile_length = 512;
static int as_written;
static const float scalar = 0.75f;

/* The kernel's constants, and per core the elements it owns (default). */
static uint64_t block_length, tile_num, buffer_num;

/*
 * z, the launch's size floats (declared so), in an allocation that also
 * holds what the tiling as written writes past them: a copy that starts
 * past the end of z is in no declared buffer and goes unchecked.
 */
static float *z;

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static int compute(struct asc_core *core, struct asc_que *out_queue_z,
		   uint64_t count)
{
	struct asc_local z_local;

	TRY(asc_core_alloc_tensor(core, out_queue_z, &z_local));
	TRY(ex_vec(core, ASC_PIPE_V, EX_DUP, "duplicate(z_local, scalar)",
		   EX_LOCAL(z_local), EX_NONE, EX_NONE, scalar, count));
	return ex_enque(core, "39", out_queue_z, &z_local);
}

static int copy_out(struct asc_core *core, uint64_t i, float *z_gm,
		    struct asc_que *out_queue_z, uint64_t count)
{
	struct asc_local z_local;

	TRY(ex_deque(core, "44", out_queue_z, &z_local));
	TRY(ex_vec(core, ASC_PIPE_MTE3, EX_COPY_F32, "data_copy(z_gm[i * tile_length:], z_local)",
		   EX_GM(z_gm + i * tile_length, "z_gm"), EX_LOCAL(z_local), EX_NONE, 0,
		   count));
	return ex_free_tensor(core, "46", out_queue_z, &z_local);
}

/*
 * The elements tile @i of a core copies out of its block of @own: as
 * written, always tile_length; else what is left of the block.
 */
static uint64_t tile_count(uint64_t i, uint64_t own)
{
	if (as_written || (i + 1) * tile_length <= own)
		return tile_length;
	return own - i * tile_length;
}

static void duplicate_kernel(struct asc_core *core, void *arg)
{
	uint64_t offset = asc_core_block_idx(core) * block_length;
	uint64_t own, n, i;
	struct asc_que *out_queue_z;
	float *z_gm;

	(void)arg;
	if (asc_core_gm_buffer(core, z, size * sizeof(float), "z") < 0)
		return;
	/* Default: what is left of z from the block's start, at most a block. */
	own = offset >= size ? 0 : size - offset < block_length ? size - offset :
	      block_length;
	if (!as_written && !own)
		return;
	n = as_written ? tile_num : (own + tile_length - 1) / tile_length;
	z_gm = z + offset;
	out_queue_z = asc_core_tque(core, ASC_POS_VECOUT, buffer_num, "out_queue_z");
	if (!out_queue_z ||
	    asc_core_init_buffer(core, out_queue_z, buffer_num, tile_length * sizeof(float)) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (compute(core, out_queue_z, tile_count(i, own)) < 0 ||
		    copy_out(core, i, z_gm, out_queue_z, tile_count(i, own)) < 0)
			return;
	}
}

static struct example duplicate;

static int prepare(void)
{
	block_length = (size + use_core_num - 1) / use_core_num;
	if (!as_written)
		block_length = (block_length + BLOCK_ELEMS - 1) / BLOCK_ELEMS * BLOCK_ELEMS;
	tile_num = (block_length + tile_length - 1) / tile_length;
	buffer_num = 1;
	duplicate.block_dim = use_core_num;
	z = calloc(size + (use_core_num - 1) * block_length + tile_num * tile_length,
		   sizeof(float));
	return z ? 0 : -1;
}

static int verify(void)
{
	uint64_t i;

	for (i = 0; i < size; i++) {
		if (z[i] != scalar) {
			fprintf(stderr, "duplicate: z[%llu] = %g, expected %g\n",
				(unsigned long long)i, z[i], scalar);
			return -1;
		}
	}
	return 0;
}

static void cleanup(void)
{
	free(z);
}

static int option(int opt, const char *arg)
{
	char *end;
	unsigned long long v;

	if (opt == 'w') {
		as_written = 1;
		return 0;
	}
	v = strtoull(arg, &end, 10);
	if (end == arg || *end || !v)
		return -1;
	switch (opt) {
	case 'n':
		size = v;
		return v <= (1ULL << 26) ? 0 : -1;
	case 'c':
		use_core_num = v;
		return v <= MAX_CORES ? 0 : -1;
	case 't':
		tile_length = v;
		return v <= 16384 ? 0 : -1;
	default:
		return -1;
	}
}

static struct example duplicate = {
	.name = "duplicate",
	.what = "z = a scalar everywhere, float, on AIVs through a VECOUT TQue; -w: pyasc's tiling, out of bounds",
	.follows = "hicann/pyasc python/test/generalization/basic/test_duplicate.py lines 21-58 (cecba26ace65)",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.options = "n:c:t:w",
	.options_help = "  -n N       elements (default 1000, pyasc's)\n"
			"  -c CORES   the AIVs of the launch, 1..64 (default 16)\n"
			"  -t TILE    elements per tile, 1..16384 (default 512)\n"
			"  -w         the tiling as written: every tile of TILE elements, from the\n"
			"             block's start; with 1000 elements the cores' copies overlap\n"
			"             and run past the end of z, which the memory checks report\n"
			"             (exit status 3)\n",
	.option = option,
	.prepare = prepare,
	.launch_kind = ASC_LAUNCH_AIV,
	.block_dim = 1,
	.kernel = duplicate_kernel,
	.verify = verify,
	.cleanup = cleanup,
};

int main(int argc, char **argv)
{
	return ex_main(&duplicate, argc, argv);
}
