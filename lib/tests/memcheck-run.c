// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core runtime's memory checks on the device, run by asc_core_run()
 * and asc_launch_run() in the test guest (tools/testing/asc-check-guest).
 * Needs /dev/asc_event; skips without it.  The calls go through <asc.h>'s
 * call-site macros: every report names lines of this file.
 *
 * - Out of bounds (EFAULT): past a TBuf's buffer, past a queue's buffer
 *   into the next one, past the end of the Unified Buffer, past a global
 *   buffer declared with asc_core_gm_buffer() (the smallest that holds the
 *   first byte), on one core and on the 16 cores of a launch that give
 *   each core 63 floats of a 1000 and copy 512 out from its start.
 * - Misaligned (EFAULT): MTE2 and MTE3 at a Unified Buffer address off a
 *   32-byte boundary; V there is fine.
 * - Uninitialized reads: a read of a buffer nothing wrote is a warning in
 *   the report of a run that succeeds, once per call site and buffer;
 *   with ASC_UNINIT_READS=error an error (EFAULT); init_buffer() after a
 *   reset forgets what was written.
 * - asc_core_gm_buffer()'s own errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "need-device.h"

#define CHECK(call) do { if ((call) < 0) return; } while (0)

static int run(asc_kernel_fn kernel, void *arg, char **report)
{
	errno = 0;
	return asc_core_run(kernel, arg, NULL, report) ? errno : 0;
}

/* The report has @text and "memcheck-run.c:@line". */
static int says(const char *report, const char *text, int line)
{
	char at[40];

	snprintf(at, sizeof(at), "memcheck-run.c:%d", line);
	return report && strstr(report, text) && strstr(report, at);
}

static void nothing(void *arg)
{
	(void)arg;
}

/* Issue work to @pipe touching @size bytes at @addr (@write), named @name. */
#define TOUCH(core, pipe, what, addr, size, write, name) ({		\
	const struct asc_access acc_[] = { { (addr), (size), (write), (name) } }; \
	asc_core_issue((core), (pipe), nothing, NULL, (what), acc_, 1);	\
})

static int line;

/* ---- out of bounds ---- */

static void tbuf_past_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmpBuf");
	struct asc_local t;

	(void)arg;
	if (!buf)
		return;
	CHECK(asc_core_init_buffer(core, buf, 1, 1000));
	CHECK(asc_core_tbuf_get(core, buf, 1000, &t));
	CHECK(TOUCH(core, ASC_PIPE_V, "Duplicate", t.addr, 1024, 1, "tmpLocal"));
	line = __LINE__ + 1;
	TOUCH(core, ASC_PIPE_V, "Duplicate", (char *)t.addr + 992, 64, 1, "tmpLocal");
}

TEST(past_a_tbufs_buffer)
{
	char *report = NULL;

	need_device(_metadata);
	ASSERT_EQ(EFAULT, run(tbuf_past_kernel, NULL, &report));
	ASSERT_TRUE(says(report, "out of bounds: #5 Duplicate on V of core 0 writes \"tmpLocal\" at \"tmpBuf\" [992+64], past its 1024 bytes at ",
			 line)) TH_LOG("%s", report);
	ASSERT_TRUE(strstr(report, ": Bad address") != NULL);
	ASSERT_EQ(NULL, strstr(report, "0x"));
	free(report);
}

static void queue_past_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECIN, 2, "inQueueX");
	struct asc_local x;

	(void)arg;
	if (!q)
		return;
	CHECK(asc_core_init_buffer(core, q, 2, 256));
	CHECK(asc_core_alloc_tensor(core, q, &x));
	line = __LINE__ + 1;
	TOUCH(core, ASC_PIPE_MTE2, "DataCopy", x.addr, 2 * x.size, 1, x.name);
}

TEST(past_a_queues_buffer_into_the_next)
{
	char *report = NULL;

	need_device(_metadata);
	ASSERT_EQ(EFAULT, run(queue_past_kernel, NULL, &report));
	ASSERT_TRUE(says(report, "out of bounds: #4 DataCopy on MTE2 of core 0 writes \"inQueueX[0]\" [0+512], past its 256 bytes",
			 line)) TH_LOG("%s", report);
	free(report);
}

static void ub_end_kernel(struct asc_core *core, void *arg)
{
	size_t size;
	char *ub = asc_core_local_mem(core, ASC_MEM_UB, &size);

	(void)arg;
	line = __LINE__ + 1;
	TOUCH(core, ASC_PIPE_V, "Adds", ub + size - 32, 64, 1, "yLocal");
}

TEST(past_the_end_of_the_unified_buffer)
{
	char *report = NULL;

	need_device(_metadata);
	ASSERT_EQ(EFAULT, run(ub_end_kernel, NULL, &report));
	ASSERT_TRUE(says(report, "out of bounds: #1 Adds on V of core 0 writes \"yLocal\" at \"UB\" [196576+64], past its 196608 bytes",
			 line)) TH_LOG("%s", report);
	free(report);
}

/*
 * pyasc's duplicate pattern: 1000 floats on 16 cores, a block of 63 each
 * (63 * 16 = 1008), and a copy of a 512-float tile out from the block's
 * start.  @block is the core to play in asc_core_run(), -1 in a launch.
 */
#define DUP_SIZE	1000
#define DUP_CORES	16
#define DUP_BLOCK	((DUP_SIZE + DUP_CORES - 1) / DUP_CORES)
#define DUP_TILE	512

struct dup {
	float z[DUP_SIZE];
	int block;
	int slice;	/* declare the core's block as a slice too */
};

static void dup_kernel(struct asc_core *core, void *arg)
{
	struct dup *d = arg;
	int b = d->block >= 0 ? d->block : asc_core_block_idx(core);
	float *zgm = d->z + b * DUP_BLOCK;
	struct asc_que *q = asc_core_tque(core, ASC_POS_VECOUT, 1, "outQueueZ");
	struct asc_local z;

	if (!q)
		return;
	CHECK(asc_core_gm_buffer(core, d->z, sizeof(d->z), "z"));
	if (d->slice)
		CHECK(asc_core_gm_buffer(core, zgm, DUP_BLOCK * sizeof(float), "zGm"));
	CHECK(asc_core_init_buffer(core, q, 1, DUP_TILE * sizeof(float)));
	CHECK(asc_core_alloc_tensor(core, q, &z));
	CHECK(TOUCH(core, ASC_PIPE_V, "Duplicate", z.addr, z.size, 1, z.name));
	CHECK(asc_core_enque(core, q, &z));
	CHECK(asc_core_deque(core, q, &z));
	{
		const struct asc_access acc[] = {
			{ z.addr, z.size, 0, z.name },
			{ zgm, DUP_TILE * sizeof(float), 1, "zGm" },
		};

		if (d->block >= 0)
			line = __LINE__ + 1;
		CHECK(asc_core_issue(core, ASC_PIPE_MTE3, nothing, NULL, "DataCopy", acc, 2));
	}
	asc_core_free_tensor(core, q, &z);
}

TEST(duplicate_past_the_end_of_the_array)
{
	static struct dup d = { .block = DUP_CORES - 1 };
	char *report = NULL;

	need_device(_metadata);
	ASSERT_EQ(EFAULT, run(dup_kernel, &d, &report));
	/* 15 * 63 * 4 = 3780; 512 floats, 2048 bytes, end 457 floats past. */
	ASSERT_TRUE(says(report, "out of bounds: #7 DataCopy on MTE3 of core 0 writes \"zGm\" at \"z\" [3780+2048], past its 4000 bytes",
			 line)) TH_LOG("%s", report);
	free(report);
}

TEST(duplicate_past_the_slice)
{
	static struct dup d = { .block = 0, .slice = 1 };
	char *report = NULL;

	need_device(_metadata);
	/* Core 0's copy stays in the array, but not in its 63-float slice. */
	ASSERT_EQ(EFAULT, run(dup_kernel, &d, &report));
	ASSERT_TRUE(says(report, "out of bounds: #7 DataCopy on MTE3 of core 0 writes \"zGm\" [0+2048], past its 252 bytes",
			 line)) TH_LOG("%s", report);
	free(report);
}

TEST(duplicate_on_16_cores)
{
	static struct dup d = { .block = -1 };
	char *report = NULL;
	int core, n;

	need_device(_metadata);
	errno = 0;
	ASSERT_EQ(-1, asc_launch_run(dup_kernel, &d, ASC_LAUNCH_AIV, DUP_CORES, NULL,
				     &report));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_TRUE(report && strstr(report, "past its 4000 bytes at memcheck-run.c:"))
		TH_LOG("%s", report);
	/* Cores 8..15 copy past the end: 8 * 252 + 2048 > 4000. */
	n = sscanf(strstr(report, "on MTE3 of core "), "on MTE3 of core %d", &core);
	ASSERT_EQ(1, n);
	ASSERT_GE(core, 8);
	free(report);
}

/* ---- misaligned ---- */

static int align_pipe;

static void align_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmpBuf");
	struct asc_local t;

	(void)arg;
	if (!buf)
		return;
	CHECK(asc_core_init_buffer(core, buf, 1, 1024));
	CHECK(asc_core_tbuf_get_with_offset(core, buf, 64, 16, &t));
	line = __LINE__ + 1;
	TOUCH(core, align_pipe, "DataCopy", t.addr, t.size, align_pipe != ASC_PIPE_MTE3, t.name);
}

TEST(misaligned_data_copy)
{
	char *report = NULL;

	need_device(_metadata);
	align_pipe = ASC_PIPE_MTE2;
	ASSERT_EQ(EFAULT, run(align_kernel, NULL, &report));
	ASSERT_TRUE(says(report, "misaligned: #4 DataCopy on MTE2 of core 0 writes \"tmpBuf\" [16+64], UB+16 is not on a 32-byte boundary",
			 line)) TH_LOG("%s", report);
	free(report);
	align_pipe = ASC_PIPE_MTE3;
	ASSERT_EQ(EFAULT, run(align_kernel, NULL, &report));
	ASSERT_TRUE(says(report, "misaligned: #4 DataCopy on MTE3 of core 0 reads \"tmpBuf\" [16+64]",
			 line)) TH_LOG("%s", report);
	free(report);
	align_pipe = ASC_PIPE_V;
	ASSERT_EQ(0, run(align_kernel, NULL, &report));
	ASSERT_EQ(NULL, report);
}

/* ---- uninitialized reads ---- */

static int uninit_reset;

static void uninit_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmpBuf");
	struct asc_local t;
	int i;

	(void)arg;
	if (!buf)
		return;
	CHECK(asc_core_init_buffer(core, buf, 1, 256));
	CHECK(asc_core_tbuf_get(core, buf, 256, &t));
	CHECK(TOUCH(core, ASC_PIPE_V, "Duplicate", t.addr, 128, 1, "xLocal"));
	CHECK(asc_core_pipe_barrier(core, ASC_PIPE_V));
	if (uninit_reset) {
		CHECK(asc_core_reset(core));
		CHECK(asc_core_init_buffer(core, buf, 1, 256));
	}
	/* The first 128 bytes were written, unless the reset forgot them. */
	CHECK(TOUCH(core, ASC_PIPE_V, "Adds", t.addr, 128, 0, "xLocal"));
	for (i = 0; i < 3; i++) {
		line = __LINE__ + 1;
		CHECK(TOUCH(core, ASC_PIPE_V, "Adds", t.addr, 256, 0, "xLocal"));
	}
}

TEST(uninitialized_read_is_a_warning)
{
	char *report = NULL;

	need_device(_metadata);
	unsetenv("ASC_UNINIT_READS");
	uninit_reset = 0;
	ASSERT_EQ(0, run(uninit_kernel, NULL, &report));
	ASSERT_TRUE(says(report, "uninitialized read: #7 Adds on V of core 0 reads \"xLocal\" at \"tmpBuf\" [0+256], 128 of its bytes never written since init_buffer (the first at 128) at ",
			 line)) TH_LOG("%s", report);
	ASSERT_TRUE(strstr(report, "(a warning)\n") != NULL);
	/* Once per call site and buffer, not once per iteration. */
	ASSERT_EQ(NULL, strstr(strchr(report, '\n') + 1, "uninitialized"));
	free(report);
}

TEST(uninitialized_read_as_an_error)
{
	char *report = NULL;

	need_device(_metadata);
	setenv("ASC_UNINIT_READS", "error", 1);
	uninit_reset = 0;
	ASSERT_EQ(EFAULT, run(uninit_kernel, NULL, &report));
	unsetenv("ASC_UNINIT_READS");
	ASSERT_TRUE(says(report, "uninitialized read: #7 Adds on V of core 0 reads \"xLocal\" at \"tmpBuf\" [0+256], 128 of its bytes",
			 line)) TH_LOG("%s", report);
	ASSERT_TRUE(strstr(report, ": Bad address") != NULL);
	free(report);
}

TEST(init_buffer_forgets_what_was_written)
{
	char *report = NULL;

	need_device(_metadata);
	unsetenv("ASC_UNINIT_READS");
	uninit_reset = 1;
	ASSERT_EQ(0, run(uninit_kernel, NULL, &report));
	/* The read of the first 128 bytes after the reset is uninitialized now. */
	ASSERT_TRUE(report && strstr(report, "reads \"xLocal\" at \"tmpBuf\" [0+128], 128 of its bytes never written"))
		TH_LOG("%s", report);
	free(report);
}

static void written_kernel(struct asc_core *core, void *arg)
{
	struct asc_que *buf = asc_core_tbuf(core, ASC_POS_VECCALC, "tmpBuf");
	struct asc_local t;

	(void)arg;
	if (!buf)
		return;
	CHECK(asc_core_init_buffer(core, buf, 1, 256));
	CHECK(asc_core_tbuf_get(core, buf, 256, &t));
	CHECK(TOUCH(core, ASC_PIPE_MTE2, "DataCopy", t.addr, 256, 1, "xLocal"));
	CHECK(asc_core_pipe_barrier(core, ASC_PIPE_ALL));
	CHECK(TOUCH(core, ASC_PIPE_V, "Adds", t.addr, 256, 0, "xLocal"));
}

TEST(a_read_of_written_bytes_warns_of_nothing)
{
	char *report = (char *)1;

	need_device(_metadata);
	setenv("ASC_UNINIT_READS", "error", 1);
	ASSERT_EQ(0, run(written_kernel, NULL, &report));
	unsetenv("ASC_UNINIT_READS");
	ASSERT_EQ(NULL, report);
}

/* ---- asc_core_gm_buffer() ---- */

static int gm_errs[4];

static void gm_args_kernel(struct asc_core *core, void *arg)
{
	static char a[64];

	(void)arg;
	errno = 0;
	gm_errs[0] = asc_core_gm_buffer(core, NULL, 8, "a") ? errno : 0;
	gm_errs[1] = asc_core_gm_buffer(core, a, 0, "a") ? errno : 0;
	gm_errs[2] = asc_core_gm_buffer(core, (void *)-8, 16, "a") ? errno : 0;
	gm_errs[3] = asc_core_gm_buffer(core, a, sizeof(a), NULL) ? errno : 0;
	/* Declared twice: one declaration, and the access inside is fine. */
	CHECK(asc_core_gm_buffer(core, a, sizeof(a), NULL));
	CHECK(TOUCH(core, ASC_PIPE_MTE2, "DataCopy", a, sizeof(a), 0, "aGm"));
	line = __LINE__ + 1;
	TOUCH(core, ASC_PIPE_MTE2, "DataCopy", a + 8, sizeof(a), 0, "aGm");
}

TEST(gm_buffer_arguments)
{
	char *report = NULL;

	need_device(_metadata);
	ASSERT_EQ(-1, asc_core_gm_buffer(NULL, "x", 1, "x"));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(EFAULT, run(gm_args_kernel, NULL, &report));
	ASSERT_EQ(EINVAL, gm_errs[0]);
	ASSERT_EQ(EINVAL, gm_errs[1]);
	ASSERT_EQ(EINVAL, gm_errs[2]);
	ASSERT_EQ(0, gm_errs[3]);
	ASSERT_TRUE(says(report, "out of bounds: #2 DataCopy on MTE2 of core 0 reads \"aGm\" at \"GM\" [8+64], past its 64 bytes",
			 line)) TH_LOG("%s", report);
	free(report);
}

TEST_HARNESS_MAIN
