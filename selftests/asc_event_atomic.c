// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: an ioctl that writes a result to userspace is one
 * atomic step, however long its copy takes.
 *
 * FETCH_ID and ALLOC_ID write the ID into the caller's struct, RESET its
 * counts.  The tests hold that write up: the struct sits in a page that is
 * write-protected through userfaultfd, so the kernel's write to it stops
 * until the test lets it go, while another thread runs other ioctls on the
 * same TPipe.  Whatever happens meanwhile, the stalled call must end as if
 * it had run entirely before or entirely after the others: its result and
 * the state it leaves agree.  The driver before this rule computed the
 * result, dropped its lock, copied it out and only then recorded it: a
 * fetched ID survived a RESET, two fetches recorded out of order, and an
 * ALLOC_ID whose copy failed released an ID that meanwhile belonged to
 * someone else.
 *
 * The tests skip where userfaultfd write-protection is not available.
 */
#include "asc_event_test.h"

/* Set by MTE2, waited for by V: no thread is bound in these tests. */
#define EV	ASC_EVENT_MTE2_V

FIXTURE(atomic) {
	int fd;
	int ids;
	struct asc_stall st;
	struct asc_stalled_call call;
	bool started;
};

FIXTURE_SETUP(atomic)
{
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	/* Strict IDs: the tests tell fetched IDs from hand-written ones. */
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS));
	self->st.uffd = -1;
}

FIXTURE_TEARDOWN(atomic)
{
	if (self->started) {
		asc_stall_release(&self->st);
		asc_stalled_call_end(&self->call);
	}
	asc_stall_fini(&self->st);
	if (self->fd >= 0)
		close(self->fd);
}

/* Start @cmd with @arg (@len bytes) in a stall page; it stops at its write. */
static void start_stalled(struct __test_metadata *_metadata, FIXTURE_DATA(atomic) *self,
			  unsigned long cmd, const void *arg, size_t len)
{
	int ret = asc_stall_init(&self->st, ASC_STALL_WRITE, arg, len);

	if (ret > 0)
		SKIP(return, "%s: userfaultfd write-protection: %s", _metadata->name,
		     strerror(ret));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, asc_stalled_call_start(&self->call, &self->st, self->fd, cmd));
	self->started = true;
	ASSERT_TRUE(asc_stall_hit(&self->st)) TH_LOG("the call's write did not stop");
}

static int end_stalled(FIXTURE_DATA(atomic) *self)
{
	self->started = false;
	return asc_stalled_call_end(&self->call);
}

/*
 * A FETCH_ID stalled while a RESET runs: its ID is the one a fetch after
 * the reset returns (0), and remembered as fetched; nothing older is.
 */
TEST_F(atomic, fetch_stalled_across_reset)
{
	struct asc_event_ref ref = { .event = EV };
	struct asc_event_ref *out;
	int i;

	if (self->ids < 3)
		SKIP(return, "%s: needs 3 IDs, the device has %d", _metadata->name, self->ids);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	start_stalled(_metadata, self, ASC_EVENT_IOC_FETCH_ID, &ref, sizeof(ref));
	if (_metadata->skip)
		return;
	ASSERT_RESET(self->fd, 2, 0);
	ASSERT_EQ(0, asc_stall_release(&self->st));
	ASSERT_EQ(0, end_stalled(self));
	out = (struct asc_event_ref *)self->st.page;
	ASSERT_EQ(0U, out->id) TH_LOG("the fetch returned %u, stale from before the reset",
				      out->id);
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ((int)out->id == i ? 0 : -ENOENT, asc_set(self->fd, EV, i)) {
			TH_LOG("set of ID %d after a fetch that returned %u", i, out->id);
		}
	}
	ASSERT_EQ(0, asc_wait(self->fd, EV, out->id, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * Two fetches: the first stalls at its write, the second completes after an
 * alloc took ID 0.  The first then completes too: it must not go back to 0,
 * which is allocated, nor forget the second's ID, which it returns itself.
 */
TEST_F(atomic, fetches_in_order)
{
	struct asc_event_ref ref = { .event = EV };
	struct asc_event_ref *out;

	if (self->ids < 3)
		SKIP(return, "%s: needs 3 IDs, the device has %d", _metadata->name, self->ids);
	start_stalled(_metadata, self, ASC_EVENT_IOC_FETCH_ID, &ref, sizeof(ref));
	if (_metadata->skip)
		return;
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_stall_release(&self->st));
	ASSERT_EQ(0, end_stalled(self));
	out = (struct asc_event_ref *)self->st.page;
	ASSERT_EQ(1U, out->id) TH_LOG("the stalled fetch returned %u", out->id);
	/* 1, the last fetch, and 0, allocated, are usable; 2 is not. */
	ASSERT_EQ(0, asc_set(self->fd, EV, 1));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, 2));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 1, 0));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * An ALLOC_ID stalled at its write, which then fails (the page turned
 * read-only): the call fails with EFAULT and leaves the pool as it found
 * it when it failed.  Meanwhile a RESET ran and another ALLOC_ID took ID
 * 0: that ID stays the other caller's, and its RELEASE works.
 */
TEST_F(atomic, failed_alloc_keeps_others_ids)
{
	struct asc_event_ref ref = { .event = EV };

	start_stalled(_metadata, self, ASC_EVENT_IOC_ALLOC_ID, &ref, sizeof(ref));
	if (_metadata->skip)
		return;
	ASSERT_EQ(0, asc_reset(self->fd, NULL));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_stall_fail(&self->st));
	ASSERT_EQ(-EFAULT, end_stalled(self));
	ASSERT_EQ(1, asc_fetch(self->fd, EV)) TH_LOG("ID 0 is no longer allocated");
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * An ALLOC_ID stalled at its write, which then goes through: it took the
 * lowest ID free when it completed, after another caller's ALLOC_ID.
 */
TEST_F(atomic, stalled_alloc_completes_after_others)
{
	struct asc_event_ref ref = { .event = EV };
	struct asc_event_ref *out;

	start_stalled(_metadata, self, ASC_EVENT_IOC_ALLOC_ID, &ref, sizeof(ref));
	if (_metadata->skip)
		return;
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_stall_release(&self->st));
	ASSERT_EQ(0, end_stalled(self));
	out = (struct asc_event_ref *)self->st.page;
	if (self->ids > 1) {
		ASSERT_EQ(1U, out->id);
		ASSERT_EQ(0, asc_release(self->fd, EV, 1));
	} else {
		/* One ID only: the stalled call found none left. */
		ASSERT_EQ(-ENOSPC, self->call.ret);
	}
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * A RESET stalled at writing its counts, while an ALLOC_ID and a SET_FLAG
 * run: the counts it reports are those of the state it cleared, and it
 * cleared what it reports (the ID and flag set meanwhile, if it ran after
 * them; nothing left behind either way).
 */
TEST_F(atomic, stalled_reset_reports_what_it_cleared)
{
	struct asc_event_reset arg = { 0 };
	struct asc_event_reset *out, after;

	start_stalled(_metadata, self, ASC_EVENT_IOC_RESET, &arg, sizeof(arg));
	if (_metadata->skip)
		return;
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_stall_release(&self->st));
	ASSERT_EQ(0, end_stalled(self));
	out = (struct asc_event_reset *)self->st.page;
	ASSERT_EQ(0, asc_reset(self->fd, &after));
	/* Together the two resets found the ID and the flag exactly once. */
	ASSERT_EQ(1U, out->ids_held + after.ids_held);
	ASSERT_EQ(1U, out->flags_pending + after.flags_pending);
	ASSERT_EQ(out->ids_held, out->flags_pending);
}

TEST_HARNESS_MAIN
