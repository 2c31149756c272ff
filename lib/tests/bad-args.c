// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A NULL pipe is refused by every function with EINVAL, before anything
 * reaches a device; asc_pipe_close(NULL) is a no-op.  So is a NULL core
 * by the core runtime's calls, and asc_core_run() without a kernel.
 */
#include <errno.h>
#include <stdlib.h>

#include <asc.h>

#include "kselftest_harness.h"

#define EXPECT_EINVAL(call) do {		\
	errno = 0;				\
	EXPECT_EQ(-1, (call));			\
	EXPECT_EQ(EINVAL, errno);		\
} while (0)

TEST(reset)
{
	EXPECT_EINVAL(asc_pipe_reset(NULL));
}

TEST(reset_leftovers)
{
	unsigned int ids = 77, flags = 78;

	EXPECT_EINVAL(asc_pipe_reset_leftovers(NULL, &ids, &flags));
	EXPECT_EINVAL(asc_pipe_reset_leftovers(NULL, NULL, NULL));
	EXPECT_EQ(77U, ids);
	EXPECT_EQ(78U, flags);
}

TEST(bind)
{
	EXPECT_EINVAL(asc_pipe_bind(NULL, ASC_PIPE_V));
	EXPECT_EINVAL(asc_pipe_bind(NULL, ASC_PIPE_NONE));
	EXPECT_EINVAL(asc_pipe_bind(NULL, 6));
}

TEST(set_checked)
{
	EXPECT_EINVAL(asc_pipe_set_checked(NULL, 0));
	EXPECT_EINVAL(asc_pipe_set_checked(NULL, 1));
}

TEST(checked)
{
	EXPECT_EINVAL(asc_pipe_checked(NULL));
}

TEST(alloc_event_id)
{
	EXPECT_EINVAL(asc_alloc_event_id(NULL, ASC_HARD_EVENT_MTE2_V));
}

TEST(fetch_event_id)
{
	EXPECT_EINVAL(asc_fetch_event_id(NULL, ASC_HARD_EVENT_MTE2_V));
}

TEST(release_event_id)
{
	EXPECT_EINVAL(asc_release_event_id(NULL, 0, ASC_HARD_EVENT_MTE2_V));
}

TEST(set_flag)
{
	EXPECT_EINVAL(asc_set_flag(NULL, ASC_HARD_EVENT_MTE2_V, 0));
}

TEST(wait_flag)
{
	EXPECT_EINVAL(asc_wait_flag(NULL, ASC_HARD_EVENT_MTE2_V, 0));
}

TEST(wait_flag_timeout)
{
	EXPECT_EINVAL(asc_wait_flag_timeout(NULL, ASC_HARD_EVENT_MTE2_V, 0, 0));
	EXPECT_EINVAL(asc_wait_flag_timeout(NULL, ASC_HARD_EVENT_MTE2_V, 0, -1));
	EXPECT_EINVAL(asc_wait_flag_timeout(NULL, ASC_HARD_EVENT_MTE2_V, 0,
					    1000000));
}

TEST(event_ids)
{
	EXPECT_EINVAL(asc_event_ids(NULL));
}

TEST(set_mode)
{
	EXPECT_EINVAL(asc_pipe_set_mode(NULL, 0));
	EXPECT_EINVAL(asc_pipe_set_mode(NULL, ASC_MODE_CHECKED));
}

TEST(mode)
{
	EXPECT_EINVAL(asc_pipe_mode(NULL));
}

static void no_kernel(struct asc_core *core, void *arg)
{
	(void)core;
	(void)arg;
}

TEST(core_run)
{
	struct asc_core_attr both = { .unchecked = 1, .strict_ids = 1 };
	char *report = (char *)&both;

	EXPECT_EINVAL(asc_core_run(NULL, NULL, NULL, &report));
	EXPECT_EQ(NULL, report);
	EXPECT_EINVAL(asc_core_run(no_kernel, NULL, &both, NULL));
}

TEST(core_calls)
{
	struct asc_access a = { &a, 1, 0, "a" };

	EXPECT_EINVAL(asc_core_issue(NULL, ASC_PIPE_V, (asc_work_fn)free, NULL,
				     "x", &a, 1));
	EXPECT_EINVAL(asc_core_set_flag(NULL, ASC_HARD_EVENT_MTE2_V, 0));
	EXPECT_EINVAL(asc_core_wait_flag(NULL, ASC_HARD_EVENT_MTE2_V, 0));
	EXPECT_EINVAL(asc_core_pipe_barrier(NULL, ASC_PIPE_ALL));
	EXPECT_EINVAL(asc_core_alloc_event_id(NULL, ASC_HARD_EVENT_MTE2_V));
	EXPECT_EINVAL(asc_core_fetch_event_id(NULL, ASC_HARD_EVENT_MTE2_V));
	EXPECT_EINVAL(asc_core_release_event_id(NULL, 0, ASC_HARD_EVENT_MTE2_V));
	EXPECT_EINVAL(asc_core_reset(NULL));
	errno = 0;
	EXPECT_EQ(NULL, asc_core_pipe(NULL));
	EXPECT_EQ(EINVAL, errno);
	/* The plain functions, without the call-site macros. */
	EXPECT_EINVAL((asc_core_set_flag)(NULL, ASC_HARD_EVENT_MTE2_V, 0));
	EXPECT_EINVAL((asc_core_reset)(NULL));
	EXPECT_EINVAL(asc_core_set_flag_at(NULL, ASC_HARD_EVENT_MTE2_V, 0, NULL, 0));
}

TEST(queue_calls)
{
	struct asc_local t = { 0 };
	size_t size = 1;

	errno = 0;
	EXPECT_EQ(NULL, asc_core_tque(NULL, ASC_POS_VECIN, 2, "q"));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(NULL, asc_core_tque_bind(NULL, ASC_POS_VECIN, ASC_POS_VECOUT, 2, "q"));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(NULL, asc_core_tbuf(NULL, ASC_POS_VECCALC, "b"));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(NULL, asc_core_local_mem(NULL, ASC_MEM_UB, &size));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1U, size);
	EXPECT_EINVAL(asc_core_gm_buffer(NULL, &size, sizeof(size), "g"));
	EXPECT_EINVAL(asc_core_init_buffer(NULL, NULL, 1, 32));
	EXPECT_EINVAL(asc_core_alloc_tensor(NULL, NULL, &t));
	EXPECT_EINVAL(asc_core_enque(NULL, NULL, &t));
	EXPECT_EINVAL(asc_core_deque(NULL, NULL, &t));
	EXPECT_EINVAL(asc_core_deque_tensor(NULL, NULL, &t));
	EXPECT_EINVAL(asc_core_free_tensor(NULL, NULL, &t));
	EXPECT_EINVAL(asc_core_tbuf_get(NULL, NULL, 0, &t));
	EXPECT_EINVAL(asc_core_tbuf_get_with_offset(NULL, NULL, 32, 0, &t));
	EXPECT_EINVAL(asc_core_tpipe_init(NULL));
	EXPECT_EINVAL(asc_core_tpipe_destroy(NULL));
	EXPECT_EINVAL((asc_core_alloc_tensor)(NULL, NULL, &t));
}

TEST(close_null_keeps_errno)
{
	errno = EXDEV;
	asc_pipe_close(NULL);
	EXPECT_EQ(EXDEV, errno);
}

TEST_HARNESS_MAIN
