// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: the mapped fast path (ASC_EVENT_FEATURE_MAP).
 *
 * mmap() of the device maps the TPipe's state page (read-only), its flag
 * page (read-write) and the module's page (read-only); everything else is
 * refused.  The tests play libasc's side of the protocol themselves: a set
 * is a compare-and-swap of the flag bit unless the bit or its waiter bit
 * is set, a wait clears a set bit, everything else is the ioctl.  They
 * check that the driver keeps the state page current, moves flags set
 * before the first mmap() into the page, keeps the waiter bit exactly
 * while a task waits, loses no handoff when userspace races a blocking
 * waiter, and survives garbage in the flag page without harm to any other
 * TPipe.  With ASC_EVENT_FEATURE_MAP_BOUND the state page also shows which
 * pipes have a bound thread and its thread ID, for libasc's fast path of
 * unbound threads.
 */
#include "asc_event_test.h"

#include <sched.h>
#include <sys/mount.h>

#define EV	ASC_EVENT_MTE2_V
#define EV2	ASC_EVENT_V_MTE2

/* Round trips of the handoff race. */
#define HANDOFF_ROUNDS	4000

/* Passes of the scribbler over the flag page. */
#define SCRIBBLE_PASSES	3000

#define TOGGLES		50
#define TOGGLE_BATCH	100

struct maps {
	struct asc_event_map_state *st;
	struct asc_event_map_flags *fl;
	struct asc_event_map_module *mod;
};

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static void *map_page(int fd, int page, int prot, int flags)
{
	return mmap(NULL, page_size(), prot, flags, fd, (off_t)page * page_size());
}

static int map_all(int fd, struct maps *m)
{
	m->st = map_page(fd, ASC_EVENT_MAP_STATE, PROT_READ, MAP_SHARED);
	m->fl = map_page(fd, ASC_EVENT_MAP_FLAGS, PROT_READ | PROT_WRITE, MAP_SHARED);
	m->mod = map_page(fd, ASC_EVENT_MAP_MODULE, PROT_READ, MAP_SHARED);
	if (m->st == MAP_FAILED || m->fl == MAP_FAILED || m->mod == MAP_FAILED)
		return -errno;
	return 0;
}

static void unmap_all(struct maps *m)
{
	munmap(m->st, page_size());
	munmap(m->fl, page_size());
	munmap(m->mod, page_size());
}

static __u64 word(struct maps *m, int ev)
{
	return __atomic_load_n(&m->fl->flags[ev], __ATOMIC_SEQ_CST);
}

/* libasc's set: in the page when nothing is in the way, else the ioctl. */
static int fast_set(int fd, struct maps *m, int ev, int id)
{
	__u64 *w = &m->fl->flags[ev], bit = 1ULL << id;
	__u64 old = __atomic_load_n(w, __ATOMIC_RELAXED);

	do {
		if (old & (bit | ASC_EVENT_MAP_WAITER(id)))
			return asc_set(fd, ev, id);
	} while (!__atomic_compare_exchange_n(w, &old, old | bit, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return 0;
}

/* libasc's wait: a set flag is taken in the page, else the ioctl. */
static int fast_wait(int fd, struct maps *m, int ev, int id, __u64 deadline)
{
	__u64 *w = &m->fl->flags[ev], bit = 1ULL << id;
	__u64 old = __atomic_load_n(w, __ATOMIC_RELAXED);

	do {
		if (!(old & bit))
			return asc_wait(fd, ev, id, deadline);
	} while (!__atomic_compare_exchange_n(w, &old, old & ~bit, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return 0;
}

FIXTURE(map) {
	int fd;
	int ids;
	struct maps m;
};

FIXTURE_SETUP(map)
{
	struct asc_event_info info = { 0 };

	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, asc_info(self->fd, &info));
	ASSERT_TRUE(!!(info.features & ASC_EVENT_FEATURE_MAP));
	if (self->ids > ASC_EVENT_MAP_IDS_MAX)
		ASC_SKIP_SETUP("event_ids=%d: nothing to map", self->ids);
	ASSERT_EQ(0, map_all(self->fd, &self->m));
}

FIXTURE_TEARDOWN(map)
{
	if (self->m.st && self->m.st != MAP_FAILED)
		unmap_all(&self->m);
	if (self->fd >= 0)
		close(self->fd);
}

/* Tests that open and map on their own: the fixture's TPipe is unmapped. */
ASC_FIXTURE(raw)

/* ---- the mapping ---------------------------------------------------------- */

TEST_F(map, refused_mappings)
{
	size_t page = page_size();
	void *p;

	p = map_page(self->fd, ASC_EVENT_MAP_FLAGS, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EINVAL, errno);
	p = map_page(self->fd, ASC_EVENT_MAP_MODULE + 1, PROT_READ, MAP_SHARED);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EINVAL, errno);
	p = map_page(self->fd, ASC_EVENT_MAP_STATE, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EACCES, errno);
	p = map_page(self->fd, ASC_EVENT_MAP_MODULE, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EACCES, errno);
}

TEST_F(map, read_only_pages_stay_read_only)
{
	ASSERT_EQ(-1, mprotect(self->m.st, page_size(), PROT_READ | PROT_WRITE));
	ASSERT_EQ(EACCES, errno);
	ASSERT_EQ(-1, mprotect(self->m.mod, page_size(), PROT_READ | PROT_WRITE));
	ASSERT_EQ(EACCES, errno);
	ASSERT_TRUE(mremap(self->m.fl, page_size(), 2 * page_size(), 0) == MAP_FAILED);
}

/*
 * Open a TPipe of @ids IDs per HardEvent: the module parameter set for the
 * open and put back.  The fd, or -errno; -ENOENT without the parameter.
 */
static int open_with_ids(const char *ids)
{
	const char *param = "/sys/module/asc_event/parameters/event_ids";
	size_t len = strlen(ids);
	char old[16] = { 0 };
	int pfd, fd, n;

	pfd = open(param, O_RDWR);
	if (pfd < 0)
		return -ENOENT;
	n = read(pfd, old, sizeof(old) - 1);
	if (n <= 0 || pwrite(pfd, ids, len, 0) != (ssize_t)len) {
		close(pfd);
		return -EIO;
	}
	fd = asc_open();
	if (fd < 0)
		fd = -errno;
	if (pwrite(pfd, old, n, 0) != n) {
		if (fd >= 0)
			close(fd);
		fd = -EIO;
	}
	close(pfd);
	return fd;
}

TEST_F(raw, more_ids_than_a_word_is_not_mapped)
{
	int fd = open_with_ids("33");
	void *p;

	if (fd == -ENOENT)
		SKIP(return, "no event_ids parameter");
	ASSERT_LE(0, fd);
	p = map_page(fd, ASC_EVENT_MAP_FLAGS, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EOPNOTSUPP, errno);
	p = map_page(fd, ASC_EVENT_MAP_STATE, PROT_READ, MAP_SHARED);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EOPNOTSUPP, errno);
	close(fd);
}

/* ASC_EVENT_MAP_IDS_MAX IDs, a word of flags, are mapped: ID 31 in bit 31. */
TEST_F(raw, a_word_of_ids_is_mapped)
{
	int fd = open_with_ids("32");
	struct maps m;

	if (fd == -ENOENT)
		SKIP(return, "no event_ids parameter");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_all(fd, &m)) TH_LOG("EOPNOTSUPP is for more than %d IDs",
					     ASC_EVENT_MAP_IDS_MAX);
	ASSERT_EQ(ASC_EVENT_MAP_IDS_MAX, (int)m.st->event_ids);
	ASSERT_EQ(0, asc_set(fd, EV, 31));
	ASSERT_EQ(1ULL << 31, word(&m, EV));
	ASSERT_EQ(0, fast_wait(fd, &m, EV, 31, 0));
	ASSERT_EQ(0ULL, word(&m, EV));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(fd, EV, 31, 0)) TH_LOG("the wait in the page took it");
	unmap_all(&m);
	close(fd);
}

TEST_F(map, a_second_mapping_is_the_same_page)
{
	struct asc_event_map_flags *again;

	again = map_page(self->fd, ASC_EVENT_MAP_FLAGS, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_TRUE(again != MAP_FAILED);
	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	ASSERT_EQ(0, fast_set(self->fd, &self->m, EV, 1));
	ASSERT_EQ(2ULL, __atomic_load_n(&again->flags[EV], __ATOMIC_SEQ_CST));
	ASSERT_EQ(0, munmap(again, page_size()));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 1, 0));
	ASSERT_EQ(0ULL, word(&self->m, EV));
}

/* The state page follows every change of the mode, the pool and the fetches. */
TEST_F(map, state_page_is_current)
{
	struct asc_event_reset r;

	ASSERT_EQ((__u32)self->ids, self->m.st->event_ids);
	ASSERT_EQ((__u32)ASC_EVENT_MODE_CHECKED, self->m.st->mode);
	ASSERT_EQ(ASC_EVENT_MAP_NO_FETCH, self->m.st->fetched[EV]);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(3ULL, self->m.st->pool[EV]);
	ASSERT_EQ(2, asc_fetch(self->fd, EV));
	ASSERT_EQ(2, self->m.st->fetched[EV]);
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(2ULL, self->m.st->pool[EV]);
	ASSERT_EQ(0, asc_reset(self->fd, &r));
	ASSERT_EQ(0ULL, self->m.st->pool[EV]);
	ASSERT_EQ(ASC_EVENT_MAP_NO_FETCH, self->m.st->fetched[EV]);
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS));
	ASSERT_EQ((__u32)(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS), self->m.st->mode);
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0U, self->m.st->mode);
}

/*
 * An ID handed out or given back changes its HardEvent's words of the state
 * page and no other's: the driver writes only the HardEvent that changed.
 */
TEST_F(map, state_page_changes_only_the_event_changed)
{
	ASSERT_EQ(0, asc_alloc(self->fd, EV2));
	ASSERT_EQ(1, asc_fetch(self->fd, EV2));
	ASSERT_EQ(1ULL, self->m.st->pool[EV2]);
	ASSERT_EQ(1, self->m.st->fetched[EV2]);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_fetch(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(3ULL, self->m.st->pool[EV]);
	ASSERT_EQ(1, self->m.st->fetched[EV]);
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 0));
	ASSERT_EQ(2ULL, self->m.st->pool[EV]);
	ASSERT_EQ(1ULL, self->m.st->pool[EV2]);
	ASSERT_EQ(1, self->m.st->fetched[EV2]);
	ASSERT_EQ(0, asc_release(self->fd, EV2, 0));
	ASSERT_EQ(0ULL, self->m.st->pool[EV2]);
	ASSERT_EQ(1, self->m.st->fetched[EV2]);
	ASSERT_EQ(2ULL, self->m.st->pool[EV]);
	ASSERT_EQ(1, self->m.st->fetched[EV]);
}

/* A state page mapped after the changes shows them too. */
TEST_F(raw, state_and_flags_move_at_the_first_mapping)
{
	struct maps m;
	int fd;

	fd = asc_open_or_skip(_metadata);
	ASSERT_EQ(0, asc_alloc(fd, EV));
	ASSERT_EQ(0, asc_fetch(fd, EV2));
	ASSERT_EQ(0, asc_set(fd, EV, 0));
	ASSERT_EQ(0, map_all(fd, &m));
	ASSERT_EQ(1ULL, m.st->pool[EV]);
	ASSERT_EQ(0, m.st->fetched[EV2]);
	ASSERT_EQ(1ULL, word(&m, EV));
	ASSERT_EQ(0, fast_wait(fd, &m, EV, 0, 0));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(fd, EV, 0, 0));
	ASSERT_EQ(0, fast_set(fd, &m, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(fd, EV, 0));
	ASSERT_EQ(0, asc_wait(fd, EV, 0, 0));
	ASSERT_EQ(0ULL, word(&m, EV));
	unmap_all(&m);
	ASSERT_EQ(0, asc_release(fd, EV, 0));
	close(fd);
}

/*
 * A wait that blocked before the first mapping has its waiter bit in the
 * page the mapping makes, so that a set in userspace asks the driver to
 * wake it instead of leaving it blocked beside its own flag.
 */
TEST_F(raw, a_wait_blocked_before_the_mapping_has_its_waiter_bit)
{
	struct asc_test_waiter a;
	struct maps m;
	int fd;

	fd = asc_open_or_skip(_metadata);
	ASSERT_EQ(0, asc_set_unchecked(fd));
	ASSERT_EQ(0, asc_waiter_start(&a, fd, EV, 2, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&a, 5000));
	ASSERT_EQ(0, map_all(fd, &m));
	ASSERT_EQ(ASC_EVENT_MAP_WAITER(2), word(&m, EV));
	ASSERT_EQ(0, fast_set(fd, &m, EV, 2));
	ASSERT_EQ(0, asc_waiter_join(&a, 5000));
	ASSERT_EQ(0, a.ret);
	ASSERT_EQ(0ULL, word(&m, EV));
	unmap_all(&m);
	close(fd);
}

/* The pages outlive a close while mapped: the TPipe goes with the last map. */
TEST_F(raw, mapping_outlives_the_descriptor)
{
	struct maps m;
	int fd;

	fd = asc_open_or_skip(_metadata);
	ASSERT_EQ(0, map_all(fd, &m));
	ASSERT_EQ(0, asc_alloc(fd, EV));
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(1ULL, m.st->pool[EV]);
	__atomic_store_n(&m.fl->flags[EV], ~0ULL, __ATOMIC_SEQ_CST);
	unmap_all(&m);
}

/* ---- the pipe bindings ---------------------------------------------------- */

static __u32 bound(struct maps *m)
{
	return __atomic_load_n(&m->st->bound, __ATOMIC_SEQ_CST);
}

static __s32 bound_tid(struct maps *m, int pipe)
{
	return __atomic_load_n(&m->st->bound_tid[pipe], __ATOMIC_SEQ_CST);
}

/*
 * Every bind, move and unbind shows in the state page at once: the pipe's
 * bit and the thread's ID as gettid() gives it; the pipe bits that are no
 * pipe stay 0, and a reset or a change of mode leaves the bindings shown.
 */
TEST_F(map, state_page_shows_the_bindings)
{
	struct asc_event_info info = { 0 };
	struct asc_event_reset r;
	struct asc_worker w;
	int pipe;

	ASSERT_EQ(0, asc_info(self->fd, &info));
	ASSERT_TRUE(!!(info.features & ASC_EVENT_FEATURE_MAP_BOUND));
	ASSERT_EQ(0U, bound(&self->m));
	for (pipe = 0; pipe < ASC_EVENT_MAP_PIPES; pipe++)
		ASSERT_EQ(0, bound_tid(&self->m, pipe));

	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_FIX, bound(&self->m));
	ASSERT_EQ(asc_gettid(), bound_tid(&self->m, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, asc_worker_start(&w, self->fd));
	ASSERT_EQ(0, W_BIND(&w, ASC_EVENT_PIPE_V));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_FIX | 1U << ASC_EVENT_PIPE_V, bound(&self->m));
	ASSERT_EQ(atomic_load(&w.tid), bound_tid(&self->m, ASC_EVENT_PIPE_V));
	/* A move: the old pipe is free, the new one shows the thread. */
	ASSERT_EQ(0, W_BIND(&w, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_FIX | 1U << ASC_EVENT_PIPE_MTE2, bound(&self->m));
	ASSERT_EQ(0, bound_tid(&self->m, ASC_EVENT_PIPE_V));
	ASSERT_EQ(atomic_load(&w.tid), bound_tid(&self->m, ASC_EVENT_PIPE_MTE2));
	/* Refused: nothing changes. */
	ASSERT_EQ(-EBUSY, W_BIND(&w, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(asc_gettid(), bound_tid(&self->m, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, asc_reset(self->fd, &r));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_FIX | 1U << ASC_EVENT_PIPE_MTE2, bound(&self->m));
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, 0));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_FIX | 1U << ASC_EVENT_PIPE_MTE2, bound(&self->m));
	ASSERT_EQ(0, W_BIND(&w, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0U, bound(&self->m));
	for (pipe = 0; pipe < ASC_EVENT_MAP_PIPES; pipe++)
		ASSERT_EQ(0, bound_tid(&self->m, pipe));
	ASSERT_EQ(0, asc_worker_stop(&w));
}

/*
 * A bound thread that exits stays shown (the page says "bound", and the
 * driver lets unbound threads set the pipe's flags again: libasc asks it);
 * the thread that takes the pipe over replaces it.
 */
TEST_F(map, an_exited_bound_thread_stays_shown_until_taken_over)
{
	struct asc_worker w;
	pid_t tid;
	int id;

	id = asc_alloc(self->fd, ASC_EVENT_V_V);
	ASSERT_LE(0, id);
	ASSERT_EQ(0, asc_worker_start(&w, self->fd));
	ASSERT_EQ(0, W_BIND(&w, ASC_EVENT_PIPE_V));
	tid = atomic_load(&w.tid);
	ASSERT_EQ(0, asc_worker_stop(&w));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_V, bound(&self->m));
	ASSERT_EQ(tid, bound_tid(&self->m, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_V_V, id));
	ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_V_V, id, 0));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_V));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_V, bound(&self->m));
	ASSERT_EQ(asc_gettid(), bound_tid(&self->m, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
}

/* Bindings made before the first mapping are in the page it makes. */
TEST_F(raw, bindings_made_before_the_mapping_are_shown)
{
	struct maps m;
	int fd;

	fd = asc_open_or_skip(_metadata);
	ASSERT_EQ(0, asc_bind(fd, ASC_EVENT_PIPE_S));
	ASSERT_EQ(0, map_all(fd, &m));
	ASSERT_EQ(1U << ASC_EVENT_PIPE_S, bound(&m));
	ASSERT_EQ(asc_gettid(), bound_tid(&m, ASC_EVENT_PIPE_S));
	unmap_all(&m);
	close(fd);
}

/* ---- the waiter bit ------------------------------------------------------- */

static void waiter_bit_ends(struct __test_metadata *_metadata, int fd, struct maps *m,
			    __u64 deadline, int how, int want)
{
	struct asc_test_waiter w;
	struct asc_event_reset r;

	ASSERT_EQ(0, asc_waiter_start(&w, fd, EV, 0, deadline));
	ASSERT_TRUE(asc_waiter_blocked(&w, 5000));
	ASSERT_EQ(ASC_EVENT_MAP_WAITER(0), word(m, EV));
	/* A set in the page is refused: it must go through the driver. */
	switch (how) {
	case 0:
		ASSERT_EQ(0, fast_set(fd, m, EV, 0));
		break;
	case 1:
		ASSERT_EQ(0, asc_reset(fd, &r));
		break;
	case 2:
		ASSERT_EQ(0, pthread_kill(w.thread, SIGUSR1));
		break;
	}
	ASSERT_EQ(0, asc_waiter_join(&w, 5000));
	ASSERT_EQ(want, w.ret);
	ASSERT_EQ(0ULL, word(m, EV));
}

static void on_usr1(int sig)
{
	(void)sig;
}

TEST_F(map, waiter_bit_while_blocked_then_handed_the_flag)
{
	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	waiter_bit_ends(_metadata, self->fd, &self->m, ASC_EVENT_WAIT_FOREVER, 0, 0);
}

TEST_F(map, waiter_bit_cleared_by_a_reset)
{
	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	waiter_bit_ends(_metadata, self->fd, &self->m, ASC_EVENT_WAIT_FOREVER, 1, -ECANCELED);
}

TEST_F(map, waiter_bit_cleared_by_a_signal)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	waiter_bit_ends(_metadata, self->fd, &self->m, ASC_EVENT_WAIT_FOREVER, 2, -EINTR);
}

TEST_F(map, waiter_bit_cleared_by_a_timeout)
{
	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	waiter_bit_ends(_metadata, self->fd, &self->m, asc_deadline_ms(300), 3, -ETIMEDOUT);
}

/* Two waiters: the bit stays until the second has its flag too. */
TEST_F(map, waiter_bit_stays_while_another_waits)
{
	struct asc_test_waiter a, b;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	ASSERT_EQ(0, asc_waiter_start(&a, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&a, 5000));
	ASSERT_EQ(0, asc_waiter_start(&b, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&b, 5000));
	ASSERT_EQ(0, fast_set(self->fd, &self->m, EV, 0));
	ASSERT_EQ(0, asc_waiter_join(&a, 5000));
	ASSERT_EQ(0, a.ret);
	ASSERT_EQ(ASC_EVENT_MAP_WAITER(0), word(&self->m, EV));
	ASSERT_EQ(0, fast_set(self->fd, &self->m, EV, 0));
	ASSERT_EQ(0, asc_waiter_join(&b, 5000));
	ASSERT_EQ(0, b.ret);
	ASSERT_EQ(0ULL, word(&self->m, EV));
}

/* A deadlock ends both waits: both waiter bits go. */
TEST_F(map, waiter_bits_cleared_by_a_deadlock)
{
	struct asc_worker v, m;

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_M_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_M));
	ASSERT_EQ(0, asc_worker_start(&v, self->fd));
	ASSERT_EQ(0, asc_worker_start(&m, self->fd));
	ASSERT_EQ(0, W_BIND(&v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(&m, ASC_EVENT_PIPE_M));
	ASSERT_EQ(0, W_WAIT_POST(&v, ASC_EVENT_M_V, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(&v, 5000));
	ASSERT_EQ(ASC_EVENT_MAP_WAITER(0), word(&self->m, ASC_EVENT_M_V));
	ASSERT_EQ(-EDEADLK, W_WAIT(&m, ASC_EVENT_V_M, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(-EDEADLK, asc_worker_result(&v, 5000));
	ASSERT_EQ(0ULL, word(&self->m, ASC_EVENT_M_V));
	ASSERT_EQ(0ULL, word(&self->m, ASC_EVENT_V_M));
	ASSERT_EQ(0, asc_worker_stop(&v));
	ASSERT_EQ(0, asc_worker_stop(&m));
}

/* ---- the protocol under a race -------------------------------------------- */

struct handoff {
	int fd;
	struct maps *m;
	int rounds;
	int errors;
	int got;
};

/* Waits for EV, counts, answers on EV2: the other side of the ping-pong. */
static void *handoff_echo(void *arg)
{
	struct handoff *h = arg;
	int i;

	for (i = 0; i < h->rounds; i++) {
		if (fast_wait(h->fd, h->m, EV, 0, ASC_EVENT_WAIT_FOREVER)) {
			h->errors++;
			break;
		}
		h->got++;
		if (fast_set(h->fd, h->m, EV2, 0)) {
			h->errors++;
			break;
		}
	}
	return NULL;
}

/*
 * Two threads hand a flag back and forth, each side in the page when it
 * can and in the driver when it must (one CPU: the waits block often, so
 * sets meet waiter bits and waits race sets): no handoff is lost or
 * doubled, and nothing is left in the page.
 */
TEST_F_TIMEOUT(map, handoff_race_loses_nothing, 300)
{
	struct handoff h = { .fd = self->fd, .m = &self->m, .rounds = HANDOFF_ROUNDS };
	long long ops = asc_test_stat_read("ops");
	pthread_t t;
	int i;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	ASSERT_EQ(0, pthread_create(&t, NULL, handoff_echo, &h));
	for (i = 0; i < HANDOFF_ROUNDS; i++) {
		ASSERT_EQ(0, fast_set(self->fd, &self->m, EV, 0));
		ASSERT_EQ(0, fast_wait(self->fd, &self->m, EV2, 0, asc_deadline_ms(20000)));
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(0, h.errors);
	ASSERT_EQ(HANDOFF_ROUNDS, h.got);
	ASSERT_EQ(0ULL, word(&self->m, EV));
	ASSERT_EQ(0ULL, word(&self->m, EV2));
	TH_LOG("%d round trips, %lld ioctls", HANDOFF_ROUNDS, asc_test_stat_read("ops") - ops);
}

/* ---- untrusted page ------------------------------------------------------- */

struct scribbler {
	struct maps *m;
	atomic_int stop;
	unsigned int seed;
};

static void *scribble(void *arg)
{
	struct scribbler *s = arg;
	int ev, pass = 0;
	__u64 v;

	while (!atomic_load(&s->stop) || pass < SCRIBBLE_PASSES) {
		for (ev = 0; ev < ASC_EVENT_NR_HARD_EVENTS; ev++) {
			v = pass & 1 ? ~0ULL : (__u64)rand_r(&s->seed) << 33 ^ rand_r(&s->seed);
			__atomic_store_n(&s->m->fl->flags[ev], v, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&s->m->fl->fast_ops, ~0ULL, __ATOMIC_RELAXED);
		if (++pass % 64 == 0)
			sched_yield();
	}
	return NULL;
}

static bool one_of(int ret, int a, int b, int c)
{
	return ret == a || ret == b || ret == c;
}

/*
 * Garbage in the flag page while the driver sets, waits, blocks and resets
 * on the TPipe: every call still gives one of its own answers, the counts
 * the driver reports are of the TPipe's IDs only, and another TPipe keeps
 * its flag.
 */
TEST_F_TIMEOUT(map, scribbled_page_harms_only_its_tpipe, 300)
{
	struct scribbler s = { .m = &self->m, .seed = 12345 };
	struct asc_event_reset r;
	struct asc_test_waiter w;
	long long leaked;
	pthread_t t;
	int other, i, ret;

	other = asc_open_or_skip(_metadata);
	ASSERT_EQ(0, asc_fetch(other, EV));
	ASSERT_EQ(0, asc_set(other, EV, 0));
	ASSERT_EQ(0, asc_set_unchecked(self->fd));

	ASSERT_EQ(0, pthread_create(&t, NULL, scribble, &s));
	for (i = 0; i < 300; i++) {
		ret = asc_set(self->fd, i % ASC_EVENT_NR_HARD_EVENTS, i % self->ids);
		ASSERT_TRUE(one_of(ret, 0, -EBUSY, 0)) TH_LOG("set: %d", ret);
		ret = asc_wait(self->fd, (i * 7) % ASC_EVENT_NR_HARD_EVENTS, i % self->ids, 0);
		ASSERT_TRUE(one_of(ret, 0, -ETIMEDOUT, 0)) TH_LOG("wait: %d", ret);
		if (i % 30 == 0) {
			ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, i % self->ids,
						      asc_deadline_ms(30)));
			ASSERT_EQ(0, asc_waiter_join(&w, 5000));
			ASSERT_TRUE(one_of(w.ret, 0, -ETIMEDOUT, -ECANCELED));
			ASSERT_EQ(0, asc_reset(self->fd, &r));
			ASSERT_GE((__u32)(ASC_EVENT_NR_HARD_EVENTS * self->ids), r.flags_pending);
			ASSERT_EQ(0U, r.ids_held);
		}
	}
	atomic_store(&s.stop, 1);
	ASSERT_EQ(0, pthread_join(t, NULL));

	/* All ones: every flag of the TPipe's IDs, nothing beyond them. */
	for (i = 0; i < ASC_EVENT_NR_HARD_EVENTS; i++)
		__atomic_store_n(&self->m.fl->flags[i], ~0ULL, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, asc_reset(self->fd, &r));
	ASSERT_EQ((__u32)(ASC_EVENT_NR_HARD_EVENTS * self->ids), r.flags_pending);
	for (i = 0; i < ASC_EVENT_NR_HARD_EVENTS; i++)
		ASSERT_EQ(0ULL, word(&self->m, i));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));

	/* A close with all ones leaks exactly the TPipe's flags. */
	for (i = 0; i < ASC_EVENT_NR_HARD_EVENTS; i++)
		__atomic_store_n(&self->m.fl->flags[i], ~0ULL, __ATOMIC_SEQ_CST);
	leaked = asc_test_stat_read("leaked_flags");
	unmap_all(&self->m);
	self->m.st = NULL;
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_EQ(leaked + ASC_EVENT_NR_HARD_EVENTS * self->ids, asc_test_stat_read("leaked_flags"));

	/* The other TPipe still has its flag, and only it. */
	ASSERT_EQ(-EBUSY, asc_set(other, EV, 0));
	ASSERT_EQ(0, asc_wait(other, EV, 0, 0));
	ASSERT_EQ(0, asc_reset(other, &r));
	ASSERT_EQ(0U, r.flags_pending);
	close(other);
}

/*
 * fast_ops, a sum of counts processes wrote (the scribbler's too): read
 * whole, modulo 2^64.
 */
static __u64 fast_ops(void)
{
	char buf[32] = { 0 };
	int fd = open("/sys/class/misc/asc_event/stats/fast_ops", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtoull(buf, NULL, 10) : 0;
}

/* The driver reads the flags through the page: debugfs, leaks, resets. */
TEST_F(raw, page_flags_are_seen_everywhere)
{
	struct asc_text t = { 0 };
	struct asc_event_reset r;
	struct maps m;
	__u64 fast;
	int fd, serial;

	fd = asc_open_serial(&serial);
	fd = asc_opened_or_skip(_metadata, fd);
	ASSERT_EQ(0, map_all(fd, &m));
	ASSERT_EQ(0, asc_fetch(fd, EV));
	ASSERT_EQ(0, fast_set(fd, &m, EV, 0));
	if (serial >= 0) {
		ASSERT_EQ(0, asc_debugfs_tpipe(serial, &t));
		ASSERT_TRUE(strstr(t.buf, "\nset: MTE2_V:0\n") != NULL) TH_LOG("%s", t.buf);
		free(t.buf);
	}
	ASSERT_EQ(0, asc_reset(fd, &r));
	ASSERT_EQ(1U, r.flags_pending);

	fast = fast_ops();
	__atomic_fetch_add(&m.fl->fast_ops, 5, __ATOMIC_SEQ_CST);
	ASSERT_EQ(fast + 5, fast_ops());
	unmap_all(&m);
	close(fd);
	ASSERT_EQ(fast + 5, fast_ops());
}

/* ---- tracing -------------------------------------------------------------- */

static const char *tracefs(void)
{
	if (asc_fs_is("/sys/kernel/tracing", TRACEFS_MAGIC))
		return "/sys/kernel/tracing";
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return "/sys/kernel/tracing";
	return NULL;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

/* The module's page counts the enabled tracepoints. */
TEST_F(map, module_page_counts_enabled_tracepoints)
{
	const char *tfs = tracefs();
	char set[256], all[256];
	__u32 before;

	if (!tfs)
		SKIP(return, "no tracefs");
	snprintf(set, sizeof(set), "%s/events/asc_event/asc_event_set/enable", tfs);
	snprintf(all, sizeof(all), "%s/events/asc_event/enable", tfs);
	before = self->m.mod->tracing;
	ASSERT_EQ(0, write_file(set, "1"));
	ASSERT_EQ(before + 1, self->m.mod->tracing);
	ASSERT_EQ(0, write_file(all, "1"));
	ASSERT_LT(before + 1, self->m.mod->tracing);
	ASSERT_EQ(0, write_file(all, "0"));
	ASSERT_EQ(before, self->m.mod->tracing);
}

struct toggler {
	const char *path;
	atomic_int stop;
	atomic_int rounds;
	int errors;
};

/* Enables and disables every tracepoint of the module until told to stop. */
static void *toggle_tracing(void *arg)
{
	struct toggler *t = arg;

	while (!atomic_load(&t->stop)) {
		if (write_file(t->path, "1") || write_file(t->path, "0")) {
			t->errors++;
			break;
		}
		t->rounds++;
	}
	return NULL;
}

/*
 * The module's tracepoints patched in and out of the driver's text (and,
 * through the trace's record of task names, sched_switch's in the
 * scheduler's) while two threads hand a flag back and forth through the
 * page and the ioctls, on every CPU of the machine: nothing is lost, and
 * the module's page counts no tracepoint at the end.  (On a QEMU whose
 * multi-threaded TCG keeps stale translations, this stops a guest of two
 * vCPUs within seconds: tools/testing/ascvm/machine.py.)
 */
TEST_F_TIMEOUT(map, handoff_while_tracepoints_toggle, 300)
{
	struct handoff h = { .fd = self->fd, .m = &self->m };
	struct toggler tg = { 0 };
	const char *tfs = tracefs();
	__u32 before = self->m.mod->tracing;
	int i, trips = 0;
	char all[256];
	pthread_t t, tt;

	if (!tfs)
		SKIP(return, "no tracefs");
	snprintf(all, sizeof(all), "%s/events/asc_event/enable", tfs);
	tg.path = all;
	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	ASSERT_EQ(0, pthread_create(&tt, NULL, toggle_tracing, &tg));
	do {
		h.rounds = TOGGLE_BATCH;
		h.got = 0;
		ASSERT_EQ(0, pthread_create(&t, NULL, handoff_echo, &h));
		for (i = 0; i < TOGGLE_BATCH; i++) {
			ASSERT_EQ(0, fast_set(self->fd, &self->m, EV, 0));
			ASSERT_EQ(0, fast_wait(self->fd, &self->m, EV2, 0,
					       asc_deadline_ms(20000)));
		}
		ASSERT_EQ(0, pthread_join(t, NULL));
		ASSERT_EQ(0, h.errors);
		ASSERT_EQ(TOGGLE_BATCH, h.got);
		trips += TOGGLE_BATCH;
	} while (atomic_load(&tg.rounds) < TOGGLES && !tg.errors);
	atomic_store(&tg.stop, 1);
	ASSERT_EQ(0, pthread_join(tt, NULL));
	ASSERT_EQ(0, tg.errors);
	ASSERT_EQ(0ULL, word(&self->m, EV));
	ASSERT_EQ(0ULL, word(&self->m, EV2));
	ASSERT_EQ(before, self->m.mod->tracing);
	TH_LOG("%d round trips, tracing toggled %d times", trips, atomic_load(&tg.rounds));
}

TEST_HARNESS_MAIN
