// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: the pool in the flag page (ASC_EVENT_FEATURE_MAP_IDS).
 *
 * From the first mmap() of a TPipe its pool is the flag page's ids words,
 * which userspace changes by compare-and-swap as the driver does: an alloc
 * sets the lowest clear bit, a release clears a set one.  The tests play
 * libasc's side themselves and check that the driver takes what the page
 * says for its own: an ID taken in the page is allocated for checked
 * mode, the ioctls' alloc skips it, its release frees it, a reset and a
 * close count it and empty the page; that a pool taken before the mapping
 * moves into the page; that garbage there is masked to the TPipe's IDs;
 * that the page and the ioctl never hand out one ID twice when they race;
 * and that the state page says when instructions were issued, which an
 * alloc in userspace must leave to the ioctl.
 */
#include "asc_event_test.h"

#include <pthread.h>

#define EV	ASC_EVENT_MTE2_V

/*
 * Allocs and releases of the ioctl's side of the race, or as many as it
 * makes in RACE_MS (a debug kernel's ioctls take milliseconds).
 */
#define RACE_ROUNDS	20000
#define RACE_MS		5000

struct pages {
	struct asc_event_map_state *st;
	struct asc_event_map_flags *fl;
};

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static int map_pages(int fd, struct pages *p)
{
	size_t size = page_size();

	p->st = mmap(NULL, size, PROT_READ, MAP_SHARED, fd,
		     (off_t)ASC_EVENT_MAP_STATE * size);
	p->fl = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     (off_t)ASC_EVENT_MAP_FLAGS * size);
	return p->st == MAP_FAILED || p->fl == MAP_FAILED ? -errno : 0;
}

static void unmap_pages(struct pages *p)
{
	if (p->st && p->st != MAP_FAILED)
		munmap(p->st, page_size());
	if (p->fl && p->fl != MAP_FAILED)
		munmap(p->fl, page_size());
	p->st = NULL;
	p->fl = NULL;
}

static __u64 pool(struct pages *p, int ev)
{
	return __atomic_load_n(&p->fl->ids[ev], __ATOMIC_SEQ_CST);
}

/*
 * libasc's alloc: the lowest clear bit below @ids, or -ENOSPC.  Not
 * inlined into a test, whose failed assertion longjmp()s past its loop.
 */
static __attribute__((noinline)) int page_alloc(struct pages *p, int ev, int ids)
{
	__u64 *w = &p->fl->ids[ev], old = __atomic_load_n(w, __ATOMIC_RELAXED), free;
	int id;

	do {
		free = ~old & ((2ULL << (ids - 1)) - 1);
		if (!free)
			return -ENOSPC;
		id = __builtin_ctzll(free);
	} while (!__atomic_compare_exchange_n(w, &old, old | 1ULL << id, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return id;
}

/* libasc's release: 0 when @id was taken, else -ENOENT (nothing changed). */
static int page_release(struct pages *p, int ev, int id)
{
	__u64 bit = 1ULL << id;

	return __atomic_fetch_and(&p->fl->ids[ev], ~bit, __ATOMIC_SEQ_CST) & bit ?
	       0 : -ENOENT;
}

FIXTURE(ids) {
	int fd;
	int ids;
	struct pages p;
};

FIXTURE_SETUP(ids)
{
	struct asc_event_info info = { 0 };

	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, asc_info(self->fd, &info));
	ASSERT_TRUE(!!(info.features & ASC_EVENT_FEATURE_MAP_IDS));
	if (self->ids > ASC_EVENT_MAP_IDS_MAX)
		ASC_SKIP_SETUP("event_ids=%d: nothing to map", self->ids);
	ASSERT_EQ(0, map_pages(self->fd, &self->p));
}

FIXTURE_TEARDOWN(ids)
{
	unmap_pages(&self->p);
	if (self->fd >= 0)
		close(self->fd);
}

/* Tests that open and map on their own: the fixture's TPipe is unmapped. */
ASC_FIXTURE(raw)

TEST_F(ids, the_ioctls_change_the_page_pool)
{
	ASSERT_EQ(0ULL, pool(&self->p, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	EXPECT_EQ(3ULL, pool(&self->p, EV));
	EXPECT_EQ(3ULL, self->p.st->pool[EV]);
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	EXPECT_EQ(2ULL, pool(&self->p, EV));
	EXPECT_EQ(2ULL, self->p.st->pool[EV]);
	EXPECT_EQ(0ULL, pool(&self->p, ASC_EVENT_V_MTE2));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_F(raw, a_pool_taken_before_the_mapping_moves_into_the_page)
{
	struct pages p = { 0 };

	if (self->ids > ASC_EVENT_MAP_IDS_MAX)
		SKIP(return, "event_ids=%d: nothing to map", self->ids);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(0, map_pages(self->fd, &p));
	EXPECT_EQ(2ULL, pool(&p, EV));
	ASSERT_EQ(0, page_release(&p, EV, 1));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 1));
	unmap_pages(&p);
	ASSERT_RESET(self->fd, 0, 0);
}

/* Strict mode makes the driver's view of the pool visible: ENOENT or not. */
TEST_F(ids, an_alloc_in_the_page_is_the_drivers)
{
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, page_alloc(&self->p, EV, self->ids));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	if (self->ids > 1) {
		ASSERT_EQ(1, asc_alloc(self->fd, EV));
		ASSERT_EQ(0, asc_release(self->fd, EV, 1));
	}
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, 0));
	EXPECT_EQ(0ULL, pool(&self->p, EV));
	EXPECT_EQ(0ULL, self->p.st->pool[EV]);
}

TEST_F(ids, a_release_in_the_page_is_the_drivers)
{
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, page_release(&self->p, EV, 0));
	ASSERT_EQ(-ENOENT, page_release(&self->p, EV, 0));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_F(ids, the_ioctl_alloc_skips_ids_taken_in_the_page)
{
	int i;

	for (i = 0; i < self->ids - 1; i++)
		ASSERT_EQ(i, page_alloc(&self->p, EV, self->ids));
	ASSERT_EQ(self->ids - 1, asc_alloc(self->fd, EV));
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	ASSERT_EQ(-ENOSPC, page_alloc(&self->p, EV, self->ids));
	ASSERT_EQ(0, page_release(&self->p, EV, 0));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, self->ids, 0);
}

TEST_F(ids, a_reset_counts_and_empties_the_page_pool)
{
	ASSERT_EQ(0, page_alloc(&self->p, EV, self->ids));
	ASSERT_EQ(0, page_alloc(&self->p, ASC_EVENT_V_MTE2, self->ids));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_S_V));
	ASSERT_RESET(self->fd, 3, 0);
	EXPECT_EQ(0ULL, pool(&self->p, EV));
	EXPECT_EQ(0ULL, pool(&self->p, ASC_EVENT_V_MTE2));
	EXPECT_EQ(0ULL, pool(&self->p, ASC_EVENT_S_V));
	EXPECT_EQ(0ULL, self->p.st->pool[ASC_EVENT_S_V]);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
}

/* Bits past the TPipe's IDs, a waiter bit's place included, are nobody's. */
TEST_F(ids, garbage_in_the_page_pool_is_masked)
{
	int id;

	__atomic_store_n(&self->p.fl->ids[EV], ~0ULL, __ATOMIC_SEQ_CST);
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	for (id = self->ids; id < 64; id++)
		ASSERT_EQ(-EINVAL, asc_release(self->fd, EV, id));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, self->ids - 1, 0);
	EXPECT_EQ(0ULL, pool(&self->p, EV));

	__atomic_store_n(&self->p.fl->ids[EV], ~0ULL << self->ids, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_F(raw, a_close_reports_ids_taken_in_the_page)
{
	struct pages p = { 0 };
	struct asc_stats s, after;
	int fd;

	if (self->ids > ASC_EVENT_MAP_IDS_MAX)
		SKIP(return, "event_ids=%d: nothing to map", self->ids);
	fd = asc_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_pages(fd, &p));
	ASSERT_EQ(0, page_alloc(&p, EV, self->ids));
	ASSERT_EQ(0, page_alloc(&p, ASC_EVENT_V_MTE2, self->ids));
	unmap_pages(&p);
	asc_stats_read(_metadata, &s);
	close(fd);
	asc_stats_read(_metadata, &after);
	/* The report itself may be rate-limited: the count is not. */
	EXPECT_EQ(1, after.v[ST_LEAK_REPORTS] - s.v[ST_LEAK_REPORTS]);
	EXPECT_EQ(2, after.v[ST_LEAKED_IDS] - s.v[ST_LEAKED_IDS]);
	EXPECT_EQ(0, after.v[ST_LEAKED_FLAGS] - s.v[ST_LEAKED_FLAGS]);
}

TEST_F(ids, the_state_page_shows_the_first_issue)
{
	int id;

	EXPECT_EQ(0U, self->p.st->issued);
	id = asc_alloc(self->fd, EV);
	ASSERT_LE(0, id);
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, id));
	EXPECT_EQ(1U, self->p.st->issued);
	ASSERT_RESET(self->fd, 1, 0);
	EXPECT_EQ(1U, self->p.st->issued);
}

TEST_F(raw, an_issue_before_the_mapping_is_shown)
{
	struct pages p = { 0 };

	if (self->ids > ASC_EVENT_MAP_IDS_MAX)
		SKIP(return, "event_ids=%d: nothing to map", self->ids);
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_EQ(0, map_pages(self->fd, &p));
	EXPECT_EQ(1U, p.st->issued);
	unmap_pages(&p);
}

/*
 * One side of the race.  The ioctl's side makes RACE_ROUNDS allocs (or
 * stops at RACE_MS), then sets *@stop; the page's side, much faster, goes
 * on until then.
 */
struct racer {
	int fd;
	int ids;
	struct pages *p;
	bool in_page;
	int *owner;
	int *stop;
	int rounds;
	int clashes;
	int errors;
};

/*
 * Take an ID, own it alone for a moment, give it back; count what breaks.
 * An ID handed out twice makes one of its two releases fail.
 */
static void *race_main(void *arg)
{
	__u64 start = asc_now_ns();
	struct racer *r = arg;
	int i, id, was;

	for (i = 0; r->in_page ? !__atomic_load_n(r->stop, __ATOMIC_RELAXED) :
				 i < RACE_ROUNDS && asc_ms_since(start) < RACE_MS; i++) {
		id = r->in_page ? page_alloc(r->p, EV, r->ids) : asc_alloc(r->fd, EV);
		if (id == -ENOSPC || id == -EAGAIN)
			continue;
		if (id < 0 || id >= r->ids) {
			r->errors++;
			continue;
		}
		was = __atomic_exchange_n(&r->owner[id], 1 + r->in_page, __ATOMIC_SEQ_CST);
		if (was)
			r->clashes++;
		__atomic_store_n(&r->owner[id], 0, __ATOMIC_SEQ_CST);
		if ((r->in_page ? page_release(r->p, EV, id) : asc_release(r->fd, EV, id)))
			r->errors++;
	}
	if (!r->in_page)
		__atomic_store_n(r->stop, 1, __ATOMIC_RELAXED);
	r->rounds = i;
	return NULL;
}

TEST_F_TIMEOUT(ids, the_page_and_the_ioctl_never_hand_out_one_id_twice, 300)
{
	int owner[ASC_EVENT_MAP_IDS_MAX] = { 0 }, stop = 0;
	struct racer r[2];
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++) {
		r[i] = (struct racer){ .fd = self->fd, .ids = self->ids, .p = &self->p,
				       .in_page = i, .owner = owner, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, race_main, &r[i]));
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	TH_LOG("%d rounds by ioctl, %d in the page", r[0].rounds, r[1].rounds);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, r[i].clashes) TH_LOG("%s", i ? "page" : "ioctl");
		EXPECT_EQ(0, r[i].errors) TH_LOG("%s", i ? "page" : "ioctl");
	}
	EXPECT_EQ(0ULL, pool(&self->p, EV));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_HARNESS_MAIN
