// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: the event-ID pool of one TPipe.
 *
 * alloc takes the lowest free ID, fetch reports it without taking it,
 * release gives an allocated ID back; exhaustion is -ENOSPC and changes
 * nothing; every HardEvent has a pool of its own.
 *
 * alloc and fetch read their reference and write the ID in one user access
 * when they can, with page faults disabled; a reference in a page that is
 * not mapped in yet, or that may only be read, takes the general way and
 * must end as it always did.
 */
#include "asc_event_test.h"

#define EV	ASC_EVENT_V_S

ASC_FIXTURE(pool)

/* Take every ID of @event: they come out 0, 1, 2... */
static void fill(struct __test_metadata *_metadata, int fd, int event, int ids)
{
	int i;

	for (i = 0; i < ids; i++) {
		ASSERT_EQ(i, asc_alloc(fd, event));
	}
}

TEST_F(pool, alloc_lowest_free_order)
{
	fill(_metadata, self->fd, EV, self->ids);
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
}

TEST_F(pool, alloc_refills_lowest_first)
{
	int i;

	fill(_metadata, self->fd, EV, self->ids);
	for (i = self->ids - 1; i >= 0; i--) {
		if (i & 1) {
			ASSERT_EQ(0, asc_release(self->fd, EV, i));
		}
	}
	for (i = 1; i < self->ids; i += 2) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
}

TEST_F(pool, exhaustion_changes_nothing)
{
	int i;

	fill(_metadata, self->fd, EV, self->ids);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
		ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	}
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, EV, i));
	}
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, i));
	}
	ASSERT_RESET(self->fd, 0, 0);
	fill(_metadata, self->fd, EV, self->ids);
	ASSERT_RESET(self->fd, self->ids, 0);
}

TEST_F(pool, exhaustion_recovery)
{
	int mid = self->ids / 2, last = self->ids - 1;

	fill(_metadata, self->fd, EV, self->ids);
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, mid));
	ASSERT_EQ(mid, asc_fetch(self->fd, EV));
	ASSERT_EQ(mid, asc_alloc(self->fd, EV));
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, last));
	if (last) {
		ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	}
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	if (last) {
		ASSERT_EQ(last, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
}

TEST_F(pool, fetch_does_not_occupy)
{
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	if (self->ids > 1) {
		ASSERT_EQ(1, asc_fetch(self->fd, EV));
		ASSERT_EQ(1, asc_fetch(self->fd, EV));
		ASSERT_EQ(1, asc_alloc(self->fd, EV));
	} else {
		ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	}
	ASSERT_RESET(self->fd, self->ids > 1 ? 2 : 1, 0);
}

TEST_F(pool, fetch_lowest_hole)
{
	int last = self->ids - 1;

	fill(_metadata, self->fd, EV, self->ids);
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, last));
	ASSERT_EQ(last, asc_fetch(self->fd, EV));
	ASSERT_EQ(last, asc_fetch(self->fd, EV));
	if (last) {
		ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	}
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_RESET(self->fd, last ? self->ids - 2 : 0, 0);
}

TEST_F(pool, output_id_ignored_on_input)
{
	static const __u32 junk[] = { 1, 0xa5a5a5a5, ASC_EVENT_IDS_MAX, ~0U };
	struct asc_event_ref ref;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(junk); i++) {
		memset(&ref, 0, sizeof(ref));
		ref.event = EV;
		ref.id = junk[i];
		ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_FETCH_ID, &ref));
		ASSERT_EQ(0U, ref.id);
	}
	for (i = 0; i < ARRAY_SIZE(junk) && (int)i < self->ids; i++) {
		memset(&ref, 0, sizeof(ref));
		ref.event = EV;
		ref.id = junk[i];
		ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, &ref));
		ASSERT_EQ(i, ref.id);
	}
}

TEST_F(pool, release_never_allocated)
{
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, self->ids - 1));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(pool, release_twice)
{
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_F(pool, release_only_that_id)
{
	int i;

	if (self->ids < 3)
		SKIP(return, "%s: needs 3 IDs, the device has %d", _metadata->name, self->ids);
	fill(_metadata, self->fd, EV, self->ids);
	ASSERT_EQ(0, asc_release(self->fd, EV, 1));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 1));
	ASSERT_EQ(1, asc_fetch(self->fd, EV));
	for (i = 0; i < self->ids; i++) {
		if (i != 1) {
			ASSERT_EQ(0, asc_release(self->fd, EV, i));
		}
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(pool, release_out_of_range)
{
	const __u32 bad[] = { self->ids, self->ids + 1, ASC_EVENT_IDS_MAX, 0x80000000U, ~0U };
	unsigned int i;

	fill(_metadata, self->fd, EV, self->ids);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, asc_release(self->fd, EV, bad[i])) {
			TH_LOG("release id %u", bad[i]);
		}
	}
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	ASSERT_RESET(self->fd, self->ids, 0);
}

TEST_F(pool, events_independent)
{
	int e;

	fill(_metadata, self->fd, EV, self->ids);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		if (e == EV)
			continue;
		ASSERT_EQ(0, asc_fetch(self->fd, e)) TH_LOG("event %d", e);
		ASSERT_EQ(-ENOENT, asc_release(self->fd, e, 0)) TH_LOG("event %d", e);
		ASSERT_EQ(0, asc_alloc(self->fd, e)) TH_LOG("event %d", e);
	}
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE2_V, 0));
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, self->ids + ASC_NR_EVENTS - 2, 0);
}

TEST_F(pool, all_events_usable)
{
	int e;

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		fill(_metadata, self->fd, e, self->ids);
		ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, e)) TH_LOG("event %d", e);
		ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, e)) TH_LOG("event %d", e);
	}
	ASSERT_RESET(self->fd, ASC_NR_EVENTS * self->ids, 0);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(0, asc_fetch(self->fd, e)) TH_LOG("event %d", e);
	}
}

/*
 * Four threads allocate and release IDs of one event as fast as they can:
 * an ID is never handed to two threads at once, and nothing leaks.
 */
#define CHURN_THREADS	4
#define CHURN_ROUNDS	4000

struct churn {
	int fd;
	int ids;
	atomic_int *owner;
	pthread_barrier_t *start;
	int allocs;
	int error;		/* first failure, as a line number */
	int err_value;
};

static void *churn_fn(void *arg)
{
	struct churn *c = arg;
	int i, id, ret;

	pthread_barrier_wait(c->start);
	for (i = 0; i < CHURN_ROUNDS; i++) {
		id = asc_alloc(c->fd, EV);
		if (id == -ENOSPC)
			continue;
		if (id < 0 || id >= c->ids) {
			c->error = __LINE__;
			c->err_value = id;
			break;
		}
		if (atomic_exchange(&c->owner[id], 1)) {
			c->error = __LINE__;
			c->err_value = id;
			break;
		}
		c->allocs++;
		atomic_store(&c->owner[id], 0);
		ret = asc_release(c->fd, EV, id);
		if (ret) {
			c->error = __LINE__;
			c->err_value = ret;
			break;
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(pool, concurrent_alloc_release, 60)
{
	atomic_int owner[ASC_EVENT_IDS_MAX] = { 0 };
	struct churn c[CHURN_THREADS];
	pthread_t t[CHURN_THREADS];
	pthread_barrier_t start;
	int i, total = 0;

	ASSERT_EQ(0, pthread_barrier_init(&start, NULL, CHURN_THREADS));
	for (i = 0; i < CHURN_THREADS; i++) {
		c[i] = (struct churn){
			.fd = self->fd, .ids = self->ids, .owner = owner, .start = &start,
		};
		ASSERT_EQ(0, pthread_create(&t[i], NULL, churn_fn, &c[i]));
	}
	for (i = 0; i < CHURN_THREADS; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	}
	for (i = 0; i < CHURN_THREADS; i++) {
		EXPECT_EQ(0, c[i].error)
			TH_LOG("thread %d failed at line %d: %d", i, c[i].error, c[i].err_value);
		total += c[i].allocs;
	}
	ASSERT_LT(0, total);
	TH_LOG("%d allocations by %d threads", total, CHURN_THREADS);
	ASSERT_RESET(self->fd, 0, 0);
	pthread_barrier_destroy(&start);
}

/* The ID an ALLOC_ID or FETCH_ID wrote into the memfd of asc_cold_page(). */
static __u32 id_in_memfd(int memfd)
{
	struct asc_event_ref ref = { .id = ~0U };

	if (pread(memfd, &ref, sizeof(ref), 0) != sizeof(ref))
		return ~0U;
	return ref.id;
}

TEST_F(pool, alloc_into_a_page_not_mapped_in)
{
	const struct asc_event_ref in = { .event = EV, .id = ~0U };
	long page = sysconf(_SC_PAGESIZE);
	struct asc_event_ref *ref;
	int memfd;

	ref = asc_cold_page(&memfd, &in, sizeof(in), PROT_READ | PROT_WRITE);
	ASSERT_TRUE(ref != MAP_FAILED);
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, ref));
	ASSERT_EQ(0U, id_in_memfd(memfd));
	munmap(ref, page);
	close(memfd);

	ref = asc_cold_page(&memfd, &in, sizeof(in), PROT_READ | PROT_WRITE);
	ASSERT_TRUE(ref != MAP_FAILED);
	if (self->ids > 1) {
		ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_FETCH_ID, ref));
		ASSERT_EQ(1U, id_in_memfd(memfd));
	} else {
		ASSERT_EQ(-ENOSPC, asc_ioctl(self->fd, ASC_EVENT_IOC_FETCH_ID, ref));
		ASSERT_EQ(~0U, id_in_memfd(memfd));
	}
	munmap(ref, page);
	close(memfd);
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
}

/*
 * A reference the caller may only read: bad flags are EINVAL, as where it
 * may write; good ones fail with EFAULT when the ID is to be written, and
 * take nothing.  A full pool is ENOSPC: nothing is to be written.  Both
 * with the page not mapped in yet and with it read first.
 */
TEST_F(pool, alloc_into_a_read_only_reference)
{
	const struct asc_event_ref bad = { .event = EV, .flags = 1 };
	const struct asc_event_ref good = { .event = EV };
	long page = sysconf(_SC_PAGESIZE);
	struct asc_event_ref *ref;
	int memfd, touch, i;

	for (touch = 0; touch < 2; touch++) {
		ref = asc_cold_page(&memfd, &bad, sizeof(bad), PROT_READ);
		ASSERT_TRUE(ref != MAP_FAILED);
		if (touch)
			ASSERT_EQ(1U, ((volatile struct asc_event_ref *)ref)->flags);
		ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, ref));
		munmap(ref, page);
		close(memfd);

		ref = asc_cold_page(&memfd, &good, sizeof(good), PROT_READ);
		ASSERT_TRUE(ref != MAP_FAILED);
		if (touch)
			ASSERT_EQ(0U, ((volatile struct asc_event_ref *)ref)->flags);
		ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, ref));
		ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_FETCH_ID, ref));
		ASSERT_EQ(0, asc_fetch(self->fd, EV)) TH_LOG("the failed ALLOC_ID took an ID");
		for (i = 0; i < self->ids; i++)
			ASSERT_EQ(i, asc_alloc(self->fd, EV));
		ASSERT_EQ(-ENOSPC, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, ref));
		for (i = 0; i < self->ids; i++)
			ASSERT_EQ(0, asc_release(self->fd, EV, i));
		munmap(ref, page);
		close(memfd);
	}
}

TEST_HARNESS_MAIN
