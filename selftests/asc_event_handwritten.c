// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: hand-written event IDs.
 *
 * Ascend C allows an ID that no alloc or fetch handed out (catlass writes
 * every ID by hand, pyasc's tutorial 01_add too); checked mode by default
 * does the same.  What the source article warns of is the collision: an
 * alloc or fetch that hands out an ID hand-written code uses.  The device
 * sees it and refuses the alloc or fetch with EADDRINUSE, changing
 * nothing, counting it (id_collisions) and logging a report that names the
 * use: a flag set by a hand-written set, a hand-written set or wait issued
 * and not yet run, a hand-written wait blocked.  Strict IDs (pyasc's rule)
 * refuse the hand-written ID itself; checked mode off checks nothing.
 */
#include "asc_event_test.h"

#define STRICT		((int)(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS))

/* Set by MTE2, waited for by V. */
#define EV		ASC_EVENT_MTE2_V

#define BLOCK_MS	2000

/* A collision report starts with this ... and names the use after it. */
#define REPORT_HEAD	"asc_event: TPipe "
#define REPORT_WHAT	" which hand-written code uses: "

FIXTURE(handwritten) {
	int fd;
	int ids;
	struct asc_worker mte2, v;
	struct asc_kmsg kmsg;
	struct asc_text log;
};

FIXTURE_SETUP(handwritten)
{
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(self->fd));
	ASSERT_EQ(0, asc_kmsg_open(&self->kmsg));
	ASSERT_EQ(0, asc_worker_start(&self->mte2, self->fd));
	ASSERT_EQ(0, asc_worker_start(&self->v, self->fd));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_V));
	if (self->ids < 2)
		SKIP(return, "%s: needs 2 IDs, the device has %d", _metadata->name, self->ids);
}

FIXTURE_TEARDOWN(handwritten)
{
	if (self->fd >= 0)
		asc_reset(self->fd, NULL);
	asc_worker_stop(&self->mte2);
	asc_worker_stop(&self->v);
	if (self->fd >= 0)
		close(self->fd);
	asc_kmsg_close(&self->kmsg);
	asc_text_free(&self->log);
}

/* Catlass style: every ID by hand, from the right pipes, in checked mode. */
TEST_F(handwritten, legal_by_default)
{
	int id;

	for (id = 0; id < self->ids; id++) {
		ASSERT_EQ(0, W_SET(&self->mte2, EV, id)) TH_LOG("id %d", id);
		ASSERT_EQ(0, W_WAIT(&self->v, EV, id, ASC_EVENT_WAIT_FOREVER));
	}
	/* The role checks stay: V does not set MTE2's flags. */
	ASSERT_EQ(-EPERM, W_SET(&self->v, EV, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * Assert that @ret is the refusal of a collision, that nothing was
 * handed out, and that the report names @use.
 */
static void expect_collision_on(struct __test_metadata *_metadata,
				FIXTURE_DATA(handwritten) *self, int ret, const char *what,
				const char *event, const char *use)
{
	char want[192];

	ASSERT_EQ(-EADDRINUSE, ret);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	snprintf(want, sizeof(want), ": %s of %s would hand out ID 0,%s%s", what, event,
		 REPORT_WHAT, use);
	ASSERT_TRUE(strstr(asc_text_str(&self->log), want) != NULL) {
		TH_LOG("no \"%s\" in:\n%s", want, asc_text_str(&self->log));
	}
	asc_text_free(&self->log);
}

/* expect_collision_on() for EV, MTE2_V. */
static void expect_collision(struct __test_metadata *_metadata,
			     FIXTURE_DATA(handwritten) *self, int ret, const char *what,
			     const char *use)
{
	expect_collision_on(_metadata, self, ret, what, "MTE2_V", use);
}

/* The flag of ID 0, set by hand: alloc and fetch may not hand 0 out. */
TEST_F(handwritten, alloc_collides_with_a_set_flag)
{
	long long collisions = asc_test_stat_read("id_collisions");

	asc_kmsg_settle(REPORT_HEAD, 2);
	ASSERT_EQ(0, W_SET(&self->mte2, EV, 0));
	expect_collision(_metadata, self, asc_alloc(self->fd, EV), "ALLOC_ID",
			 "its flag, set by a hand-written set on MTE2");
	expect_collision(_metadata, self, asc_fetch(self->fd, EV), "FETCH_ID",
			 "its flag, set by a hand-written set on MTE2");
	if (collisions >= 0) {
		ASSERT_EQ(collisions + 2, asc_test_stat_read("id_collisions"));
	}
	/* Nothing was handed out; once V has consumed the flag, 0 is free to take. */
	ASSERT_EQ(0, W_WAIT(&self->v, EV, 0, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* A hand-written wait blocked on ID 0. */
TEST_F(handwritten, alloc_collides_with_a_blocked_wait)
{
	asc_kmsg_settle(REPORT_HEAD, 1);
	ASSERT_EQ(0, W_WAIT_POST(&self->v, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&self->v, BLOCK_MS));
	expect_collision(_metadata, self, asc_alloc(self->fd, EV), "ALLOC_ID",
			 "a hand-written wait, blocked on V");
	ASSERT_EQ(0, W_SET(&self->mte2, EV, 0));
	ASSERT_EQ(0, asc_worker_result(&self->v, BLOCK_MS));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 0);
}

/* A hand-written set and wait issued by the scalar, not yet run. */
TEST_F(handwritten, alloc_collides_with_issued_instructions)
{
	long long set, wait;

	asc_kmsg_settle(REPORT_HEAD, 3);
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_S));
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	ASSERT_LT(0, set);
	expect_collision(_metadata, self, asc_alloc(self->fd, EV), "ALLOC_ID",
			 "a hand-written set, issued on MTE2");
	ASSERT_EQ(0, W_EXEC(&self->mte2, set));
	expect_collision(_metadata, self, asc_alloc(self->fd, EV), "ALLOC_ID",
			 "its flag, set by a hand-written set on MTE2");
	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_EQ(0, W_EXEC(&self->v, wait));

	wait = asc_issue(self->fd, ASC_EVENT_OP_WAIT, EV, 0);
	ASSERT_LT(0, wait);
	expect_collision(_metadata, self, asc_fetch(self->fd, EV), "FETCH_ID",
			 "a hand-written wait, issued on V");
	set = asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0);
	ASSERT_EQ(0, W_EXEC(&self->mte2, set));
	ASSERT_EQ(0, W_EXEC(&self->v, wait));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * The same on FIX, the last pipe: a hand-written set of FIX_M and a wait
 * for M_FIX, each issued on FIX's queue and the only ticket there is.
 */
TEST_F(handwritten, alloc_collides_with_instructions_issued_on_fix)
{
	asc_kmsg_settle(REPORT_HEAD, 2);
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_S));
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, ASC_EVENT_FIX_M, 0));
	expect_collision_on(_metadata, self, asc_alloc(self->fd, ASC_EVENT_FIX_M), "ALLOC_ID",
			    "FIX_M", "a hand-written set, issued on FIX");
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_WAIT, ASC_EVENT_M_FIX, 0));
	expect_collision_on(_metadata, self, asc_alloc(self->fd, ASC_EVENT_M_FIX), "ALLOC_ID",
			    "M_FIX", "a hand-written wait, issued on FIX");
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_FIX_M)) TH_LOG("the reset dropped the tickets");
	ASSERT_RESET(self->fd, 1, 0);
}

/* A use of another ID is no collision: the lowest free ID is handed out. */
TEST_F(handwritten, other_ids_no_collision)
{
	ASSERT_EQ(0, W_SET(&self->mte2, EV, self->ids - 1));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(self->ids > 2 ? 1 : -EADDRINUSE, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, W_WAIT(&self->v, EV, self->ids - 1, 0));
	ASSERT_RESET(self->fd, 1, 0);
}

/* Strict IDs: the hand-written ID itself is refused, so no collision arises. */
TEST_F(handwritten, strict_refuses_the_id)
{
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(-ENOENT, W_SET(&self->mte2, EV, 0));
	ASSERT_EQ(-ENOENT, W_WAIT(&self->v, EV, 0, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, W_SET(&self->mte2, EV, 0));
	ASSERT_EQ(0, W_WAIT(&self->v, EV, 0, 0));
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * Strict IDs: nothing collides, not even the flag a hand-written set left
 * before the mode changed.
 */
TEST_F(handwritten, strict_never_collides)
{
	ASSERT_EQ(0, W_SET(&self->mte2, EV, 0));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(0, asc_alloc(self->fd, EV)) TH_LOG("strict IDs: no EADDRINUSE");
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * Strict IDs never collide on the general way of ALLOC_ID either: an
 * argument not yet in memory (a fresh page, all zero: ALLOC_ID of event 0,
 * MTE2_MTE1) is copied in before the ID is picked.
 */
TEST_F(handwritten, strict_never_collides_with_the_argument_paged_out)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct asc_event_ref *ref;

	ASSERT_EQ(0, ASC_EVENT_MTE2_MTE1);
	ASSERT_EQ(0, W_SET(&self->mte2, ASC_EVENT_MTE2_MTE1, 0));
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ref = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(ref != MAP_FAILED);
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, ref))
		TH_LOG("strict IDs: no EADDRINUSE");
	ASSERT_EQ(0U, ref->id);
	munmap(ref, page);
	ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_MTE2_MTE1, 0, 0));
	ASSERT_RESET(self->fd, 1, 0);
}

/* Checked mode off: no collision check (the hardware's own behaviour). */
TEST_F(handwritten, unchecked_no_collision_check)
{
	ASSERT_EQ(0, W_BIND(&self->mte2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(&self->v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 1);
}

TEST_HARNESS_MAIN
