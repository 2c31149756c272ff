// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: multi-core launches, cross-core flags and SyncAll.
 *
 * A launch (ASC_EVENT_IOC_LAUNCH) is a file; each open of the device that
 * runs one core joins it (ASC_EVENT_IOC_JOIN) and learns its block index
 * (ASC_EVENT_IOC_CORE_INFO).  A cross-core set counts once every member of
 * its group has issued it and adds one to each target's 4-bit counter; a
 * wait takes one (uapi.rst, "Multi-core launches").  The tests check each
 * mode's arithmetic on 1, 2 and 8 cores, every error with nothing changed,
 * a core that leaves, SyncAll, resets and deadlocks across cores.
 *
 * Blocking calls run on threads of their own (struct call), each bound to
 * the pipe it stands for when it has one.
 */
#include "asc_event_test.h"

#include <sys/resource.h>

#define BLOCK_MS	3000
#define MAX_CORES	(3 * 8)

/* The deadline of a wait that must not block: already past. */
#define NOW		1ULL

/**
 * struct launch - a launch and the opens that run its cores.
 * @fd: the launch's file descriptor.
 * @kind: ASC_EVENT_LAUNCH_*.
 * @ncores: cores: block_dim, or 3 * block_dim for a mix launch.
 * @core: per core, its open of the device (joined), or -1.
 */
struct launch {
	int fd;
	unsigned int kind;
	unsigned int ncores;
	int core[MAX_CORES];
};

static int launch_new(unsigned int kind, unsigned int block_dim)
{
	struct asc_event_launch l = { .kind = kind, .block_dim = block_dim };
	int fd, ret;

	fd = asc_open();
	if (fd < 0)
		return -errno;
	ret = asc_ioctl(fd, ASC_EVENT_IOC_LAUNCH, &l);
	close(fd);
	return ret ? ret : l.fd;
}

static int join(int fd, int launch_fd, __u32 core)
{
	struct asc_event_join j = { .launch_fd = launch_fd, .core = core };

	return asc_ioctl(fd, ASC_EVENT_IOC_JOIN, &j);
}

static int core_info(int fd, struct asc_event_core_info *info)
{
	return asc_ioctl(fd, ASC_EVENT_IOC_CORE_INFO, info);
}

static int cross_set(int fd, __u32 flag, __u32 mode, int pipe)
{
	struct asc_event_cross_set s = { .flag_id = flag, .mode = mode, .pipe = pipe };

	return asc_ioctl(fd, ASC_EVENT_IOC_CROSS_SET, &s);
}

static int cross_wait(int fd, __u32 flag, __u64 deadline)
{
	struct asc_event_cross_wait w = { .deadline = deadline, .flag_id = flag };

	return asc_ioctl(fd, ASC_EVENT_IOC_CROSS_WAIT, &w);
}

static int sync_all_flags(int fd, __u32 flags, __u64 deadline)
{
	struct asc_event_sync_all s = { .deadline = deadline, .flags = flags };

	return asc_ioctl(fd, ASC_EVENT_IOC_SYNC_ALL, &s);
}

static int sync_all(int fd, __u64 deadline)
{
	return sync_all_flags(fd, 0, deadline);
}

static int sync_aiv(int fd, __u64 deadline)
{
	return sync_all_flags(fd, ASC_EVENT_SYNC_ALL_AIV_ONLY, deadline);
}

/* A launch of @kind with every core joined by an open of its own. */
static int launch_start(struct launch *l, unsigned int kind, unsigned int block_dim)
{
	unsigned int c;
	int ret;

	memset(l, 0xff, sizeof(*l));
	l->kind = kind;
	l->ncores = kind == ASC_EVENT_LAUNCH_MIX ? 3 * block_dim : block_dim;
	l->fd = launch_new(kind, block_dim);
	if (l->fd < 0)
		return l->fd;
	for (c = 0; c < l->ncores; c++) {
		l->core[c] = asc_open();
		if (l->core[c] < 0)
			return -errno;
		ret = join(l->core[c], l->fd, c);
		if (ret)
			return ret;
	}
	return 0;
}

static void launch_end(struct launch *l)
{
	unsigned int c;

	for (c = 0; c < l->ncores && c < MAX_CORES; c++) {
		if (l->core[c] >= 0)
			close(l->core[c]);
		l->core[c] = -1;
	}
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

/*
 * How many times a wait on @flag of @fd succeeds at once: the counter.  The
 * wait that finds it empty times out, or fails with EPIPE when no set can
 * come any more.
 */
static int drain(int fd, __u32 flag)
{
	int n = 0, ret;

	while (!(ret = cross_wait(fd, flag, NOW)))
		n++;
	return ret == -ETIMEDOUT || ret == -EPIPE ? n : ret;
}

enum call_kind { CALL_CROSS_WAIT, CALL_SYNC_ALL, CALL_SYNC_AIV, CALL_WAIT_FLAG };

/**
 * struct call - one blocking call on a thread of its own.
 * @thread: the thread.
 * @fd: the core's open.
 * @pipe: the pipe the thread binds to first, or %ASC_EVENT_PIPE_NONE.
 * @kind: what it calls.
 * @a: flag ID (CALL_CROSS_WAIT) or HardEvent (CALL_WAIT_FLAG).
 * @deadline: of the call.
 * @tid: the thread's TID, once it runs.
 * @done: set when the call returned.
 * @ret: 0 or -errno.
 */
struct call {
	pthread_t thread;
	int fd;
	int pipe;
	enum call_kind kind;
	__u32 a;
	__u64 deadline;
	atomic_int tid;
	atomic_int done;
	int ret;
};

static void *call_fn(void *arg)
{
	struct call *c = arg;

	atomic_store(&c->tid, asc_gettid());
	c->ret = 0;
	if (c->pipe != ASC_EVENT_PIPE_NONE)
		c->ret = asc_bind(c->fd, c->pipe);
	if (!c->ret) {
		switch (c->kind) {
		case CALL_CROSS_WAIT:
			c->ret = cross_wait(c->fd, c->a, c->deadline);
			break;
		case CALL_SYNC_ALL:
			c->ret = sync_all(c->fd, c->deadline);
			break;
		case CALL_SYNC_AIV:
			c->ret = sync_aiv(c->fd, c->deadline);
			break;
		default:
			c->ret = asc_wait(c->fd, c->a, 0, c->deadline);
			break;
		}
	}
	atomic_store(&c->done, 1);
	return NULL;
}

static int call_start(struct call *c, int fd, int pipe, enum call_kind kind, __u32 a,
		      __u64 deadline)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->pipe = pipe;
	c->kind = kind;
	c->a = a;
	c->deadline = deadline;
	return pthread_create(&c->thread, NULL, call_fn, c);
}

/* Whether the call is asleep in its ioctl (and has not returned). */
static bool call_blocked(struct call *c)
{
	while (!atomic_load(&c->tid))
		asc_sleep_ms(1);
	return asc_wait_in_ioctl(getpid(), atomic_load(&c->tid), BLOCK_MS) &&
	       !atomic_load(&c->done);
}

/* Join the call; its result, or 1 when it did not return in time. */
static int call_join(struct call *c)
{
	__u64 end = asc_deadline_ms(BLOCK_MS);

	while (!atomic_load(&c->done) && asc_now_ns() < end)
		asc_sleep_ms(2);
	if (!atomic_load(&c->done))
		return 1;
	pthread_join(c->thread, NULL);
	return c->ret;
}

/* Every test makes its own launches; the fixture only skips without a device. */
FIXTURE(launch) {
	int unused;
};

FIXTURE_SETUP(launch)
{
	close(asc_open_or_skip(_metadata));
	self->unused = 0;
}

FIXTURE_TEARDOWN(launch)
{
}

/* ---- the launch object ---------------------------------------------------- */

TEST_F(launch, launch_errors)
{
	struct asc_event_launch l = { .kind = ASC_EVENT_LAUNCH_AIV, .block_dim = 1 };
	long long created = asc_test_stat_read("launches_created");
	long long open_now = asc_test_stat_read("launches_open");
	int fd = asc_open_or_skip(_metadata), lfd, flags;

	ASSERT_EQ(-EINVAL, launch_new(0, 1));
	ASSERT_EQ(-EINVAL, launch_new(4, 1));
	ASSERT_EQ(-EINVAL, launch_new(ASC_EVENT_LAUNCH_AIV, 0));
	ASSERT_EQ(-EINVAL, launch_new(ASC_EVENT_LAUNCH_MIX, ASC_EVENT_BLOCK_DIM_MAX + 1));
	l.flags = 1;
	ASSERT_EQ(-EINVAL, asc_ioctl(fd, ASC_EVENT_IOC_LAUNCH, &l));
	ASSERT_EQ(-EFAULT, asc_ioctl(fd, ASC_EVENT_IOC_LAUNCH, NULL));

	ASSERT_LE(0, created);
	lfd = launch_new(ASC_EVENT_LAUNCH_MIX, ASC_EVENT_BLOCK_DIM_MAX);
	ASSERT_LE(0, lfd);
	ASSERT_EQ(created + 1, asc_test_stat_read("launches_created"));
	ASSERT_EQ(open_now + 1, asc_test_stat_read("launches_open"));
	flags = fcntl(lfd, F_GETFD);
	ASSERT_TRUE(flags & FD_CLOEXEC);
	/* Not a device: none of its ioctls. */
	ASSERT_EQ(-ENOTTY, asc_ioctl(lfd, ASC_EVENT_IOC_INFO, &l));
	close(lfd);
	ASSERT_EQ(open_now, asc_test_stat_read("launches_open"));
	close(fd);
}

/* With no file descriptor free, LAUNCH fails with EMFILE and keeps nothing. */
TEST_F(launch, launch_without_a_free_descriptor)
{
	struct rlimit lim = { .rlim_cur = 32, .rlim_max = 32 };
	long long open_now = asc_test_stat_read("launches_open");
	int fd = asc_open_or_skip(_metadata), filler[32], n = 0;

	ASSERT_LE(0, open_now);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &lim));
	while (n < 32 && (filler[n] = open("/dev/null", O_RDONLY)) >= 0)
		n++;
	ASSERT_EQ(EMFILE, errno);
	ASSERT_EQ(-EMFILE, asc_ioctl(fd, ASC_EVENT_IOC_LAUNCH,
				     &(struct asc_event_launch){ .kind = ASC_EVENT_LAUNCH_AIV,
								 .block_dim = 1 }));
	while (n > 0)
		close(filler[--n]);
	ASSERT_EQ(open_now, asc_test_stat_read("launches_open"));
	close(fd);
}

TEST_F(launch, join_errors)
{
	struct asc_event_join j = { 0 };
	int fd = asc_open_or_skip(_metadata), other = asc_open(), lfd, lfd2, devnull;

	lfd = launch_new(ASC_EVENT_LAUNCH_AIV, 2);
	ASSERT_LE(0, lfd);
	lfd2 = launch_new(ASC_EVENT_LAUNCH_AIV, 1);
	ASSERT_LE(0, lfd2);
	devnull = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, devnull);

	ASSERT_EQ(-EBADF, join(fd, 1000, 0));
	ASSERT_EQ(-EINVAL, join(fd, devnull, 0));
	ASSERT_EQ(-EINVAL, join(fd, other, 0)) TH_LOG("a device is not a launch");
	ASSERT_EQ(-EINVAL, join(fd, lfd, 2));
	j.launch_fd = lfd;
	j.flags = 1;
	ASSERT_EQ(-EINVAL, asc_ioctl(fd, ASC_EVENT_IOC_JOIN, &j));
	j.flags = 0;
	j.pad = 1;
	ASSERT_EQ(-EINVAL, asc_ioctl(fd, ASC_EVENT_IOC_JOIN, &j));
	ASSERT_EQ(-EFAULT, asc_ioctl(fd, ASC_EVENT_IOC_JOIN, NULL));

	ASSERT_EQ(0, join(fd, lfd, 1));
	ASSERT_EQ(-EISCONN, join(fd, lfd, 0));
	ASSERT_EQ(-EISCONN, join(fd, lfd2, 0));
	ASSERT_EQ(-EBUSY, join(other, lfd, 1)) TH_LOG("core 1 is taken");
	ASSERT_EQ(0, join(other, lfd, ASC_EVENT_CORE_ANY));
	close(other);
	other = asc_open();
	ASSERT_EQ(-ENOSPC, join(other, lfd, ASC_EVENT_CORE_ANY));
	ASSERT_EQ(-EBUSY, join(other, lfd, 0)) TH_LOG("a core that left stays taken");
	close(other);
	close(devnull);
	close(lfd2);
	close(lfd);
	close(fd);
}

/* ASC_EVENT_CORE_ANY: the lowest core nobody has joined. */
TEST_F(launch, join_any_takes_the_lowest_free_core)
{
	struct asc_event_core_info info;
	int fd[3], lfd, i;

	lfd = launch_new(ASC_EVENT_LAUNCH_AIV, 4);
	ASSERT_LE(0, lfd);
	for (i = 0; i < 3; i++) {
		fd[i] = asc_open();
		ASSERT_LE(0, fd[i]);
	}
	ASSERT_EQ(0, join(fd[0], lfd, 1));
	ASSERT_EQ(0, join(fd[1], lfd, ASC_EVENT_CORE_ANY));
	ASSERT_EQ(0, core_info(fd[1], &info));
	ASSERT_EQ(0U, info.core);
	ASSERT_EQ(0, join(fd[2], lfd, ASC_EVENT_CORE_ANY));
	ASSERT_EQ(0, core_info(fd[2], &info));
	ASSERT_EQ(2U, info.core);
	for (i = 0; i < 3; i++)
		close(fd[i]);
	close(lfd);
}

/* A task waiting on the TPipe: it cannot become a core now. */
TEST_F(launch, join_refused_while_waiting)
{
	int fd = asc_open_or_skip(_metadata), lfd;
	struct call c;

	ASSERT_EQ(0, asc_set_unchecked(fd));
	lfd = launch_new(ASC_EVENT_LAUNCH_AIV, 1);
	ASSERT_LE(0, lfd);
	ASSERT_EQ(0, call_start(&c, fd, ASC_EVENT_PIPE_NONE, CALL_WAIT_FLAG,
				ASC_EVENT_MTE2_V, asc_deadline_ms(BLOCK_MS)));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(-EBUSY, join(fd, lfd, 0));
	ASSERT_EQ(0, asc_set(fd, ASC_EVENT_MTE2_V, 0));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(0, join(fd, lfd, 0));
	close(lfd);
	close(fd);
}

/* The launch lives while a core holds it, its descriptor closed or not. */
TEST_F(launch, launch_outlives_its_descriptor)
{
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	close(l.fd);
	l.fd = -1;
	ASSERT_EQ(0, cross_set(l.core[0], 0, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[1], 0, 0, ASC_EVENT_PIPE_MTE3));
	ASSERT_EQ(1, drain(l.core[0], 0));
	ASSERT_EQ(1, drain(l.core[1], 0));
	launch_end(&l);
}

/* ---- who is who ------------------------------------------------------------ */

static void expect_info(struct __test_metadata *_metadata, int fd, __u32 core, __u32 type,
			__u32 block_idx, __u32 block_num, __u32 sub, __u32 sub_num, __u32 kind)
{
	struct asc_event_core_info info;

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0, core_info(fd, &info));
	EXPECT_EQ(core, info.core);
	EXPECT_EQ(type, info.type) TH_LOG("core %u", core);
	EXPECT_EQ(block_idx, info.block_idx) TH_LOG("core %u", core);
	EXPECT_EQ(block_num, info.block_num);
	EXPECT_EQ(sub, info.sub_block_idx) TH_LOG("core %u", core);
	EXPECT_EQ(sub_num, info.sub_block_num);
	EXPECT_EQ(kind, info.kind);
	EXPECT_EQ(0U, info.pad);
}

TEST_F(launch, core_info_of_each_core)
{
	struct asc_event_core_info info;
	struct launch l;
	unsigned int c;
	int fd = asc_open_or_skip(_metadata);

	ASSERT_EQ(-ENOTCONN, core_info(fd, &info));
	close(fd);

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 4));
	for (c = 0; c < 4; c++)
		expect_info(_metadata, l.core[c], c, ASC_EVENT_CORE_AIV, c, 4, 0, 1,
			    ASC_EVENT_LAUNCH_AIV);
	ASSERT_EQ(-EFAULT, core_info(l.core[0], NULL));
	launch_end(&l);

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIC, 2));
	for (c = 0; c < 2; c++)
		expect_info(_metadata, l.core[c], c, ASC_EVENT_CORE_AIC, c, 2, 0, 1,
			    ASC_EVENT_LAUNCH_AIC);
	launch_end(&l);

	/* Mix, 3 AI cores: AICs 0-2, then AIV s of AI core i is 3 + 2i + s. */
	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 3));
	for (c = 0; c < 3; c++)
		expect_info(_metadata, l.core[c], c, ASC_EVENT_CORE_AIC, c, 3, 0, 1,
			    ASC_EVENT_LAUNCH_MIX);
	for (c = 3; c < 9; c++)
		expect_info(_metadata, l.core[c], c, ASC_EVENT_CORE_AIV, c - 3, 3,
			    (c - 3) % 2, 2, ASC_EVENT_LAUNCH_MIX);
	launch_end(&l);
}

/* ---- cross-core flags ------------------------------------------------------ */

TEST_F(launch, cross_errors_change_nothing)
{
	struct asc_event_cross_set s = { .mode = 0, .pipe = ASC_EVENT_PIPE_V, .flags = 1 };
	struct asc_event_cross_wait w = { .deadline = NOW, .flags = 1 };
	int fd = asc_open_or_skip(_metadata);
	struct launch l;

	ASSERT_EQ(-ENOTCONN, cross_set(fd, 0, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-ENOTCONN, cross_wait(fd, 0, NOW));
	ASSERT_EQ(-ENOTCONN, sync_all(fd, NOW));
	close(fd);

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	fd = l.core[0];		/* the AIC */
	ASSERT_EQ(-EINVAL, cross_set(fd, ASC_EVENT_CROSS_FLAGS, 0, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(-EINVAL, cross_set(fd, 0, 3, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(-EINVAL, cross_set(fd, 0, 0, ASC_EVENT_PIPE_S));
	ASSERT_EQ(-EINVAL, cross_set(fd, 0, 0, 6)) TH_LOG("PIPE_ALL is no pipe to set on");
	ASSERT_EQ(-EINVAL, cross_set(fd, 0, 0, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(-EINVAL, cross_set(fd, 0, 1, ASC_EVENT_PIPE_FIX)) TH_LOG("mode 1 is for AIVs");
	ASSERT_EQ(-EINVAL, asc_ioctl(fd, ASC_EVENT_IOC_CROSS_SET, &s));
	ASSERT_EQ(-EINVAL, cross_wait(fd, ASC_EVENT_CROSS_FLAGS, NOW));
	ASSERT_EQ(-EINVAL, asc_ioctl(fd, ASC_EVENT_IOC_CROSS_WAIT, &w));
	ASSERT_EQ(-EFAULT, asc_ioctl(fd, ASC_EVENT_IOC_CROSS_SET, NULL));
	ASSERT_EQ(-EFAULT, asc_ioctl(fd, ASC_EVENT_IOC_CROSS_WAIT, NULL));
	ASSERT_EQ(-ETIMEDOUT, cross_wait(fd, 0, NOW));

	/* Checked mode: the set comes from the thread bound to its pipe. */
	ASSERT_EQ(0, asc_bind(fd, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(-EPERM, cross_set(fd, 0, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, asc_bind(fd, ASC_EVENT_PIPE_NONE));
	/* Nothing of it counted on the AIVs. */
	ASSERT_EQ(0, drain(l.core[1], 0));
	ASSERT_EQ(0, drain(l.core[2], 0));
	launch_end(&l);

	/* Modes 1 and 2 exist on a mix launch only. */
	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(-EINVAL, cross_set(l.core[0], 0, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EINVAL, cross_set(l.core[0], 0, 2, ASC_EVENT_PIPE_V));
	launch_end(&l);
	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIC, 1));
	ASSERT_EQ(-EINVAL, cross_set(l.core[0], 0, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, cross_set(l.core[0], 0, 0, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(1, drain(l.core[0], 0));
	launch_end(&l);
}

/*
 * Checked mode: while a live thread stands for a pipe, a cross-core set on
 * that pipe is its alone; an unbound thread may set on the pipes nobody
 * stands for.
 */
TEST_F(launch, cross_set_of_an_owned_pipe)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 1));
	ASSERT_EQ(0, call_start(&c, l.core[0], ASC_EVENT_PIPE_V, CALL_CROSS_WAIT, 1,
				asc_deadline_ms(BLOCK_MS)));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(-EPERM, cross_set(l.core[0], 0, 0, ASC_EVENT_PIPE_V)) TH_LOG("V is owned");
	ASSERT_EQ(0, cross_set(l.core[0], 1, 0, ASC_EVENT_PIPE_MTE3)) TH_LOG("MTE3 is not");
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(0, drain(l.core[0], 0)) TH_LOG("the refused set counted nowhere");
	/* V's thread has exited: anyone may set on V again. */
	ASSERT_EQ(0, cross_set(l.core[0], 0, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(1, drain(l.core[0], 0));
	launch_end(&l);
}

/* Mode 0 on n vector cores: one count on each once the last one issued. */
static void mode0_on(struct __test_metadata *_metadata, unsigned int n)
{
	struct launch l;
	unsigned int c, round;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, n));
	for (round = 1; round <= 3; round++) {
		for (c = 0; c < n; c++) {
			ASSERT_EQ(0, cross_set(l.core[c], 5, 0, ASC_EVENT_PIPE_MTE3));
			if (round == 1 && c + 1 < n)
				ASSERT_EQ(0, drain(l.core[c], 5))
					TH_LOG("%u of %u cores issued", c + 1, n);
		}
	}
	for (c = 0; c < n; c++)
		ASSERT_EQ(3, drain(l.core[c], 5)) TH_LOG("core %u", c);
	launch_end(&l);
}

TEST_F(launch, mode0_one_core)
{
	mode0_on(_metadata, 1);
}

TEST_F(launch, mode0_two_cores)
{
	mode0_on(_metadata, 2);
}

TEST_F(launch, mode0_eight_cores)
{
	mode0_on(_metadata, 8);
}

/* Mode 0 on a mix launch: the AICs among themselves, the AIVs too. */
TEST_F(launch, mode0_by_type_on_mix)
{
	struct launch l;
	unsigned int c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	ASSERT_EQ(0, cross_set(l.core[0], 1, 0, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, cross_set(l.core[1], 1, 0, ASC_EVENT_PIPE_MTE1));
	for (c = 2; c < 6; c++)
		ASSERT_EQ(0, drain(l.core[c], 1));
	ASSERT_EQ(1, drain(l.core[0], 1));
	ASSERT_EQ(1, drain(l.core[1], 1));
	for (c = 2; c < 6; c++)
		ASSERT_EQ(0, cross_set(l.core[c], 1, 0, ASC_EVENT_PIPE_V));
	for (c = 0; c < 6; c++)
		ASSERT_EQ(c < 2 ? 0 : 1, drain(l.core[c], 1)) TH_LOG("core %u", c);
	launch_end(&l);
}

/* Mode 1: the two AIVs of one AI core, and no one else. */
TEST_F(launch, mode1_pair)
{
	struct launch l;
	unsigned int c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	/* AI core 1: AIVs 4 and 5. */
	ASSERT_EQ(0, cross_set(l.core[4], 2, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, drain(l.core[5], 2));
	ASSERT_EQ(0, cross_set(l.core[5], 2, 1, ASC_EVENT_PIPE_MTE3));
	for (c = 0; c < 6; c++)
		ASSERT_EQ(c >= 4 ? 1 : 0, drain(l.core[c], 2)) TH_LOG("core %u", c);
	launch_end(&l);
}

/* Mode 2: an AIC's set adds one on each of its two AIVs. */
TEST_F(launch, mode2_aic_to_its_aivs)
{
	struct launch l;
	unsigned int c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	ASSERT_EQ(0, cross_set(l.core[1], 7, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, cross_set(l.core[1], 7, 2, ASC_EVENT_PIPE_FIX));
	for (c = 0; c < 6; c++)
		ASSERT_EQ(c >= 4 ? 2 : 0, drain(l.core[c], 7)) TH_LOG("core %u", c);
	launch_end(&l);
}

/* Mode 2: both AIVs must set before their AIC gets one. */
TEST_F(launch, mode2_aivs_to_their_aic)
{
	struct launch l;
	unsigned int c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	ASSERT_EQ(0, cross_set(l.core[2], 3, 2, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[2], 3, 2, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, drain(l.core[0], 3)) TH_LOG("AIV 1 of AI core 0 has not set");
	ASSERT_EQ(0, cross_set(l.core[3], 3, 2, ASC_EVENT_PIPE_MTE3));
	ASSERT_EQ(1, drain(l.core[0], 3));
	ASSERT_EQ(0, cross_set(l.core[3], 3, 2, ASC_EVENT_PIPE_MTE3));
	for (c = 0; c < 6; c++)
		ASSERT_EQ(c == 0 ? 1 : 0, drain(l.core[c], 3)) TH_LOG("core %u", c);
	launch_end(&l);
}

/*
 * Mode 2 on the second AI core: the AIVs of AI core 1 (cores 4 and 5) count
 * on AIC 1 alone, and a wait there takes the count as the set completes.
 */
TEST_F(launch, mode2_aivs_of_the_second_ai_core)
{
	struct launch l;
	struct call w;
	unsigned int c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	ASSERT_EQ(0, cross_set(l.core[4], 3, 2, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[5], 3, 2, ASC_EVENT_PIPE_MTE3));
	for (c = 0; c < 6; c++) {
		ASSERT_EQ(c == 1 ? 1 : 0, drain(l.core[c], 3)) TH_LOG("core %u", c);
	}

	ASSERT_EQ(0, call_start(&w, l.core[1], ASC_EVENT_PIPE_NONE, CALL_CROSS_WAIT, 3,
				asc_deadline_ms(BLOCK_MS)));
	ASSERT_TRUE(call_blocked(&w));
	ASSERT_EQ(0, cross_set(l.core[4], 3, 2, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[5], 3, 2, ASC_EVENT_PIPE_MTE3));
	ASSERT_EQ(0, call_join(&w)) TH_LOG("AIC 1 waits for the set of its AIVs");
	for (c = 0; c < 6; c++) {
		ASSERT_EQ(0, drain(l.core[c], 3)) TH_LOG("core %u", c);
	}
	launch_end(&l);
}

/* Counters stop at 15, issues waiting for the group too; nothing changes. */
TEST_F(launch, counter_saturates_at_15)
{
	long long overflows = asc_test_stat_read("err_overflow");
	struct launch l;
	int i;

	ASSERT_LE(0, overflows);
	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	for (i = 0; i < ASC_EVENT_CROSS_COUNT_MAX; i++)
		ASSERT_EQ(0, cross_set(l.core[0], 4, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(-EOVERFLOW, cross_set(l.core[0], 4, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(overflows + 1, asc_test_stat_read("err_overflow"));
	ASSERT_EQ(15, drain(l.core[1], 4));
	ASSERT_EQ(15, drain(l.core[2], 4));
	ASSERT_EQ(0, cross_set(l.core[0], 4, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(1, drain(l.core[1], 4));

	for (i = 0; i < ASC_EVENT_CROSS_COUNT_MAX; i++)
		ASSERT_EQ(0, cross_set(l.core[1], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EOVERFLOW, cross_set(l.core[1], 6, 1, ASC_EVENT_PIPE_V))
		TH_LOG("15 issues wait for the other AIV");
	for (i = 0; i < ASC_EVENT_CROSS_COUNT_MAX; i++)
		ASSERT_EQ(0, cross_set(l.core[2], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(15, drain(l.core[1], 6));
	ASSERT_EQ(15, drain(l.core[2], 6));
	launch_end(&l);
}

/* A set that would take its second target past 15 changes neither target. */
TEST_F(launch, overflow_of_one_target_changes_nothing)
{
	struct launch l;
	int i;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	for (i = 0; i < ASC_EVENT_CROSS_COUNT_MAX; i++)
		ASSERT_EQ(0, cross_set(l.core[0], 4, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, cross_wait(l.core[1], 4, NOW));
	ASSERT_EQ(-EOVERFLOW, cross_set(l.core[0], 4, 2, ASC_EVENT_PIPE_FIX))
		TH_LOG("AIV 1's counter is at 15, AIV 0's at 14");
	ASSERT_EQ(14, drain(l.core[1], 4)) TH_LOG("AIV 0's counter untouched");
	ASSERT_EQ(15, drain(l.core[2], 4));
	launch_end(&l);
}

/* A blocked wait takes the count as the set completes. */
TEST_F(launch, wait_blocks_until_the_group_has_set)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, call_start(&c, l.core[1], ASC_EVENT_PIPE_V, CALL_CROSS_WAIT, 9,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(0, cross_set(l.core[1], 9, 0, ASC_EVENT_PIPE_MTE2));
	ASSERT_TRUE(call_blocked(&c)) TH_LOG("core 0 has not set yet");
	ASSERT_EQ(0, cross_set(l.core[0], 9, 0, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(0, drain(l.core[1], 9)) TH_LOG("the waiter took the count");
	ASSERT_EQ(1, drain(l.core[0], 9));
	launch_end(&l);
}

TEST_F(launch, cross_wait_times_out)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 1));
	ASSERT_EQ(0, call_start(&c, l.core[0], ASC_EVENT_PIPE_NONE, CALL_CROSS_WAIT, 0,
				asc_deadline_ms(100)));
	ASSERT_EQ(-ETIMEDOUT, call_join(&c));
	launch_end(&l);
}

/* A reset clears the core's counters and issues and cancels its waits. */
TEST_F(launch, reset_clears_the_core)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, cross_set(l.core[0], 1, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[1], 1, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[0], 2, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_reset(l.core[0], NULL));
	ASSERT_EQ(0, drain(l.core[0], 1));
	ASSERT_EQ(1, drain(l.core[1], 1)) TH_LOG("core 1 keeps its count");
	ASSERT_EQ(0, cross_set(l.core[1], 2, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, drain(l.core[1], 2)) TH_LOG("core 0's issue went with the reset");

	ASSERT_EQ(0, call_start(&c, l.core[1], ASC_EVENT_PIPE_NONE, CALL_CROSS_WAIT, 3,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(0, asc_reset(l.core[1], NULL));
	ASSERT_EQ(-ECANCELED, call_join(&c));
	launch_end(&l);
}

/* A core that leaves: waits that can never end fail with EPIPE. */
TEST_F(launch, core_gone)
{
	long long gone = asc_test_stat_read("err_core_gone");
	struct launch l;
	struct call c;

	ASSERT_LE(0, gone);
	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, cross_set(l.core[0], 5, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[1], 5, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, call_start(&c, l.core[1], ASC_EVENT_PIPE_NONE, CALL_CROSS_WAIT, 6,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_EQ(-EPIPE, call_join(&c)) TH_LOG("core 0 can never set flag 6 now");
	ASSERT_EQ(1, drain(l.core[1], 5)) TH_LOG("what was counted stays");
	ASSERT_EQ(-EPIPE, cross_wait(l.core[1], 5, NOW));
	ASSERT_EQ(-EPIPE, cross_wait(l.core[1], 6, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(-EPIPE, cross_set(l.core[1], 6, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EPIPE, sync_all(l.core[1], ASC_EVENT_WAIT_FOREVER));
	/* Each EPIPE counted: the waiter, drain's last wait and the four above. */
	ASSERT_EQ(gone + 6, asc_test_stat_read("err_core_gone"));
	launch_end(&l);
}

/*
 * On a mix launch the AIVs of an AI core still have each other; a set for
 * the AIC that left counts nowhere.
 */
TEST_F(launch, aic_gone_aivs_go_on)
{
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_EQ(0, cross_set(l.core[1], 6, 2, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[2], 6, 2, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, drain(l.core[1], 6));
	ASSERT_EQ(0, drain(l.core[2], 6));
	ASSERT_EQ(0, cross_set(l.core[1], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[2], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(1, drain(l.core[1], 6));
	ASSERT_EQ(1, drain(l.core[2], 6));
	launch_end(&l);
}

/*
 * A core that leaves fails only the waits nothing can count on any more: a
 * wait of an AIV stays, since its pair may still set in mode 1.
 */
TEST_F(launch, leave_spares_waits_that_may_still_end)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	ASSERT_EQ(0, call_start(&c, l.core[1], ASC_EVENT_PIPE_NONE, CALL_CROSS_WAIT, 6,
				asc_deadline_ms(2 * BLOCK_MS)));
	ASSERT_TRUE(call_blocked(&c));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_TRUE(call_blocked(&c)) TH_LOG("the AIVs may still set flag 6 in mode 1");
	ASSERT_EQ(0, cross_set(l.core[1], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[2], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(1, drain(l.core[2], 6));
	launch_end(&l);
}

/*
 * EPIPE only when no group can count on the wait any more, mode 1 too: on
 * two AI cores, with AIC 0 (mode 2) and AIV 4 (mode 0 of every AIV) gone,
 * only the mode-1 pair of AIVs 2 and 3 can still set flag 6 for core 2.
 */
TEST_F(launch, leave_spares_the_waits_of_a_mode1_pair)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	ASSERT_EQ(0, call_start(&c, l.core[2], ASC_EVENT_PIPE_NONE, CALL_CROSS_WAIT, 6,
				asc_deadline_ms(2 * BLOCK_MS)));
	ASSERT_TRUE(call_blocked(&c));
	close(l.core[0]);
	l.core[0] = -1;
	close(l.core[4]);
	l.core[4] = -1;
	ASSERT_TRUE(call_blocked(&c)) TH_LOG("AIVs 2 and 3 may still set flag 6 in mode 1");
	ASSERT_EQ(-ETIMEDOUT, cross_wait(l.core[3], 6, NOW)) TH_LOG("not EPIPE: mode 1 may come");
	ASSERT_EQ(0, cross_set(l.core[2], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(l.core[3], 6, 1, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(1, drain(l.core[3], 6));
	close(l.core[3]);
	l.core[3] = -1;
	ASSERT_EQ(-EPIPE, cross_wait(l.core[2], 6, NOW)) TH_LOG("no group of core 2 is left");
	launch_end(&l);
}

/*
 * The groups that count on the cores of the second AI core: AIC 1 on its
 * AIVs 4 and 5 (mode 2) once the AICs' mode 0 is gone, AIV 4 on AIC 1
 * (mode 2) once the AIVs' modes 0 and 1 are gone.
 */
TEST_F(launch, leave_of_the_second_ai_core)
{
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_EQ(-ETIMEDOUT, cross_wait(l.core[1], 7, NOW)) TH_LOG("AIVs 4 and 5 may set");
	close(l.core[5]);
	l.core[5] = -1;
	ASSERT_EQ(-EPIPE, cross_wait(l.core[1], 7, NOW)) TH_LOG("AIV 5 has left");
	ASSERT_EQ(-ETIMEDOUT, cross_wait(l.core[4], 7, NOW)) TH_LOG("AIC 1 may set");
	ASSERT_EQ(-ETIMEDOUT, cross_wait(l.core[2], 7, NOW)) TH_LOG("AIV 3 may set in mode 1");
	ASSERT_EQ(0, cross_set(l.core[1], 7, 2, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(1, drain(l.core[4], 7));
	ASSERT_EQ(0, drain(l.core[2], 7));
	close(l.core[1]);
	l.core[1] = -1;
	ASSERT_EQ(-EPIPE, cross_wait(l.core[4], 7, NOW)) TH_LOG("AIC 1 has left");
	ASSERT_EQ(-ETIMEDOUT, cross_wait(l.core[2], 7, NOW)) TH_LOG("AIV 3 may set in mode 1");
	launch_end(&l);
}

/* A member that left after issuing: its issue still completes the group. */
TEST_F(launch, core_gone_after_issuing)
{
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, cross_set(l.core[0], 8, 0, ASC_EVENT_PIPE_V));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_EQ(-ETIMEDOUT, cross_wait(l.core[1], 8, NOW)) TH_LOG("core 1 may still set");
	ASSERT_EQ(0, cross_set(l.core[1], 8, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(1, drain(l.core[1], 8));
	ASSERT_EQ(-EPIPE, cross_set(l.core[1], 8, 0, ASC_EVENT_PIPE_V));
	launch_end(&l);
}

/* ---- SyncAll ---------------------------------------------------------------- */

static void sync_all_on(struct __test_metadata *_metadata, unsigned int kind,
			unsigned int block_dim)
{
	struct call c[MAX_CORES];
	struct launch l;
	unsigned int i, round;

	ASSERT_EQ(0, launch_start(&l, kind, block_dim));
	for (round = 0; round < 2; round++) {
		for (i = 0; i + 1 < l.ncores; i++) {
			ASSERT_EQ(0, call_start(&c[i], l.core[i], ASC_EVENT_PIPE_S,
						CALL_SYNC_ALL, 0, ASC_EVENT_WAIT_FOREVER));
			ASSERT_TRUE(call_blocked(&c[i]));
		}
		ASSERT_EQ(0, sync_all(l.core[l.ncores - 1], ASC_EVENT_WAIT_FOREVER));
		for (i = 0; i + 1 < l.ncores; i++)
			ASSERT_EQ(0, call_join(&c[i])) TH_LOG("round %u core %u", round, i);
	}
	launch_end(&l);
}

TEST_F(launch, sync_all_one_core)
{
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 1));
	ASSERT_EQ(0, sync_all(l.core[0], NOW));
	launch_end(&l);
}

TEST_F(launch, sync_all_eight_vector_cores)
{
	sync_all_on(_metadata, ASC_EVENT_LAUNCH_AIV, 8);
}

TEST_F(launch, sync_all_mix)
{
	sync_all_on(_metadata, ASC_EVENT_LAUNCH_MIX, 2);
}

TEST_F(launch, sync_all_errors)
{
	struct asc_event_sync_all s = { .deadline = NOW, .pad = 1 };
	struct launch l;
	struct call c, d;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 3));
	ASSERT_EQ(-EINVAL, asc_ioctl(l.core[0], ASC_EVENT_IOC_SYNC_ALL, &s));
	ASSERT_EQ(-EFAULT, asc_ioctl(l.core[0], ASC_EVENT_IOC_SYNC_ALL, NULL));
	ASSERT_EQ(-ETIMEDOUT, sync_all(l.core[0], NOW));

	/* The scalar's, when a thread stands for S. */
	ASSERT_EQ(0, call_start(&c, l.core[0], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(-EPERM, sync_all(l.core[0], NOW)) TH_LOG("S is bound to another thread");
	ASSERT_EQ(0, call_start(&d, l.core[0], ASC_EVENT_PIPE_V, CALL_SYNC_ALL, 0, NOW));
	ASSERT_EQ(-EPERM, call_join(&d)) TH_LOG("nor may a thread bound to V");

	/* A SyncAll that fails leaves the core as if it had not come. */
	ASSERT_EQ(0, call_start(&d, l.core[1], ASC_EVENT_PIPE_NONE, CALL_SYNC_ALL, 0,
				asc_deadline_ms(100)));
	ASSERT_EQ(-ETIMEDOUT, call_join(&d));
	ASSERT_EQ(-ETIMEDOUT, sync_all(l.core[2], NOW)) TH_LOG("core 1 is not there");
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(0, call_start(&d, l.core[1], ASC_EVENT_PIPE_NONE, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&d));
	ASSERT_EQ(0, sync_all(l.core[2], NOW));
	ASSERT_EQ(0, call_join(&d));
	ASSERT_EQ(0, call_join(&c));
	launch_end(&l);
}

static void on_sigusr1(int sig)
{
	(void)sig;
}

/* A SyncAll that a signal interrupts leaves the core as if it had not come. */
TEST_F(launch, sync_all_interrupted_leaves_the_core)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 }, old;
	struct launch l;
	struct call c;

	/* No SA_RESTART: the interrupted SyncAll returns EINTR. */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, &old));
	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, call_start(&c, l.core[0], ASC_EVENT_PIPE_NONE, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(0, pthread_kill(c.thread, SIGUSR1));
	ASSERT_EQ(-EINTR, call_join(&c));
	ASSERT_EQ(-ETIMEDOUT, sync_all(l.core[1], NOW)) TH_LOG("core 0 is not there any more");
	ASSERT_EQ(0, call_start(&c, l.core[0], ASC_EVENT_PIPE_NONE, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(0, sync_all(l.core[1], NOW));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(0, sigaction(SIGUSR1, &old, NULL));
	launch_end(&l);
}

/*
 * A reset takes its core out of SyncAll once: the rounds after it meet as
 * before (a wait that fails leaves the core as if it had not come).  On a
 * launch of @kind with @block_dim AI cores, core @a waits and is reset and
 * core @b comes; both in the SyncAll of the AIVs when @aiv.
 */
static void sync_rounds_after_a_reset(struct __test_metadata *_metadata, unsigned int kind,
				      unsigned int block_dim, unsigned int a, unsigned int b,
				      bool aiv)
{
	enum call_kind k = aiv ? CALL_SYNC_AIV : CALL_SYNC_ALL;
	__u32 flags = aiv ? ASC_EVENT_SYNC_ALL_AIV_ONLY : 0;
	struct launch l;
	struct call c;
	int round;

	ASSERT_EQ(0, launch_start(&l, kind, block_dim));
	ASSERT_EQ(0, call_start(&c, l.core[a], ASC_EVENT_PIPE_NONE, k, 0,
				asc_deadline_ms(BLOCK_MS)));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(0, asc_reset(l.core[a], NULL));
	ASSERT_EQ(-ECANCELED, call_join(&c));
	ASSERT_EQ(-ETIMEDOUT, sync_all_flags(l.core[b], flags, NOW))
		TH_LOG("core %u is not there any more", a);
	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, call_start(&c, l.core[a], ASC_EVENT_PIPE_NONE, k, 0,
					asc_deadline_ms(BLOCK_MS)));
		ASSERT_TRUE(call_blocked(&c));
		ASSERT_EQ(0, sync_all_flags(l.core[b], flags, NOW))
			TH_LOG("round %d after the reset", round);
		ASSERT_EQ(0, call_join(&c));
	}
	launch_end(&l);
}

TEST_F(launch, sync_all_rounds_after_a_reset)
{
	sync_rounds_after_a_reset(_metadata, ASC_EVENT_LAUNCH_AIV, 2, 0, 1, false);
}

TEST_F(launch, sync_aiv_rounds_after_a_reset)
{
	sync_rounds_after_a_reset(_metadata, ASC_EVENT_LAUNCH_MIX, 1, 1, 2, true);
}

TEST_F(launch, sync_all_busy_core)
{
	struct launch l;
	struct call c;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, asc_set_unchecked(l.core[0]));
	ASSERT_EQ(0, call_start(&c, l.core[0], ASC_EVENT_PIPE_NONE, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(-EBUSY, sync_all(l.core[0], NOW));
	ASSERT_EQ(0, sync_all(l.core[1], NOW));
	ASSERT_EQ(0, call_join(&c));
	launch_end(&l);
}

/* A core that dies while the others wait in SyncAll: they all get EPIPE. */
TEST_F(launch, sync_all_with_a_dying_core)
{
	struct call c[3];
	struct launch l;
	int i;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 4));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, call_start(&c[i], l.core[i], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
					ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(call_blocked(&c[i]));
	}
	close(l.core[3]);
	l.core[3] = -1;
	for (i = 0; i < 3; i++)
		ASSERT_EQ(-EPIPE, call_join(&c[i])) TH_LOG("core %d", i);
	ASSERT_EQ(-EPIPE, sync_all(l.core[0], NOW));
	launch_end(&l);
}

/* ---- SyncAll of the AIVs only ------------------------------------------------ */

/*
 * A mix launch of @block_dim AI cores: the AIVs meet in their SyncAll, two
 * rounds, while the AICs take no part: an AIC's SyncAll of every core
 * still waits for them, and its failed try changes nothing.
 */
static void sync_aiv_on_mix(struct __test_metadata *_metadata, unsigned int block_dim)
{
	unsigned int i, round, first = block_dim;
	struct call c[MAX_CORES];
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, block_dim));
	for (round = 0; round < 2; round++) {
		for (i = first; i + 1 < l.ncores; i++) {
			ASSERT_EQ(0, call_start(&c[i], l.core[i], ASC_EVENT_PIPE_S,
						CALL_SYNC_AIV, 0, ASC_EVENT_WAIT_FOREVER));
			ASSERT_TRUE(call_blocked(&c[i]));
		}
		ASSERT_EQ(-ETIMEDOUT, sync_all(l.core[0], NOW)) TH_LOG("the AIVs are not in it");
		ASSERT_EQ(0, sync_aiv(l.core[l.ncores - 1], ASC_EVENT_WAIT_FOREVER))
			TH_LOG("round %u: the AICs take no part", round);
		for (i = first; i + 1 < l.ncores; i++)
			ASSERT_EQ(0, call_join(&c[i])) TH_LOG("round %u core %u", round, i);
	}
	launch_end(&l);
}

TEST_F(launch, sync_aiv_mix_one_ai_core)
{
	sync_aiv_on_mix(_metadata, 1);
}

TEST_F(launch, sync_aiv_mix_two_ai_cores)
{
	sync_aiv_on_mix(_metadata, 2);
}

TEST_F(launch, sync_aiv_mix_eight_ai_cores)
{
	sync_aiv_on_mix(_metadata, 8);
}

/* On a vector-only launch the AIVs are every core: one round, with or without the flag. */
TEST_F(launch, sync_aiv_vector_only_is_every_core)
{
	struct call c[2];
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 3));
	ASSERT_EQ(0, call_start(&c[0], l.core[0], ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, call_start(&c[1], l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c[0]));
	ASSERT_TRUE(call_blocked(&c[1]));
	ASSERT_EQ(0, sync_aiv(l.core[2], NOW));
	ASSERT_EQ(0, call_join(&c[0]));
	ASSERT_EQ(0, call_join(&c[1]));
	ASSERT_EQ(-ETIMEDOUT, sync_aiv(l.core[2], NOW)) TH_LOG("a new round");
	launch_end(&l);
}

/*
 * An AIC may not ask for the SyncAll of the AIVs (a cube launch has none),
 * nor may anyone set unknown flag bits or the pad: EINVAL, nothing changed.
 */
TEST_F(launch, sync_aiv_errors)
{
	struct asc_event_sync_all s = {
		.deadline = NOW, .flags = ASC_EVENT_SYNC_ALL_AIV_ONLY, .pad = 1
	};
	struct launch l;
	struct call c, d;
	__u32 bit;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIC, 2));
	ASSERT_EQ(-EINVAL, sync_aiv(l.core[0], ASC_EVENT_WAIT_FOREVER)) TH_LOG("a cube launch");
	ASSERT_EQ(-ETIMEDOUT, sync_all(l.core[1], NOW)) TH_LOG("core 0 did not come");
	launch_end(&l);

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	ASSERT_EQ(-EINVAL, sync_aiv(l.core[0], ASC_EVENT_WAIT_FOREVER)) TH_LOG("an AIC");
	ASSERT_EQ(-EINVAL, asc_ioctl(l.core[1], ASC_EVENT_IOC_SYNC_ALL, &s)) TH_LOG("pad");
	for (bit = 1; bit; bit <<= 1) {
		if (bit == ASC_EVENT_SYNC_ALL_AIV_ONLY)
			continue;
		ASSERT_EQ(-EINVAL, sync_all_flags(l.core[1], bit, NOW)) TH_LOG("flag %#x", bit);
		ASSERT_EQ(-EINVAL, sync_all_flags(l.core[1], bit | ASC_EVENT_SYNC_ALL_AIV_ONLY,
						  NOW)) TH_LOG("flag %#x", bit);
	}
	/* Neither AIV came: the other waits for it; the AIC for both. */
	ASSERT_EQ(-ETIMEDOUT, sync_aiv(l.core[2], NOW));
	ASSERT_EQ(0, call_start(&c, l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	ASSERT_EQ(-ETIMEDOUT, sync_all(l.core[2], NOW)) TH_LOG("the AIC did not come");
	ASSERT_EQ(0, call_start(&d, l.core[2], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&d));
	ASSERT_EQ(0, sync_all(l.core[0], NOW));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_EQ(0, call_join(&d));
	launch_end(&l);
}

/*
 * The AIC waits in the SyncAll of every core while the AIVs meet in
 * theirs; then the AIVs come to the AIC's.  An AIV that comes to one while
 * the other AIV waits in the other would wait forever (each waits for the
 * other): EDEADLK at once, nothing changed.
 */
TEST_F(launch, sync_aiv_and_sync_all_rounds)
{
	struct call aic, aiv;
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	ASSERT_EQ(0, call_start(&aic, l.core[0], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&aic));
	ASSERT_EQ(0, call_start(&aiv, l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&aiv));
	ASSERT_EQ(-EDEADLK, sync_all(l.core[2], ASC_EVENT_WAIT_FOREVER))
		TH_LOG("AIV 0 waits in the AIVs' SyncAll");
	ASSERT_EQ(-EDEADLK, sync_all(l.core[2], NOW));
	ASSERT_EQ(0, sync_aiv(l.core[2], NOW));
	ASSERT_EQ(0, call_join(&aiv));
	ASSERT_TRUE(call_blocked(&aic)) TH_LOG("the AIVs' round ends without the AIC's");

	ASSERT_EQ(0, call_start(&aiv, l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&aiv));
	ASSERT_EQ(-EDEADLK, sync_aiv(l.core[2], ASC_EVENT_WAIT_FOREVER))
		TH_LOG("AIV 0 waits in the SyncAll of every core");
	ASSERT_EQ(0, sync_all(l.core[2], NOW));
	ASSERT_EQ(0, call_join(&aiv));
	ASSERT_EQ(0, call_join(&aic));
	launch_end(&l);
}

/*
 * An AIV that dies while the others wait in the AIVs' SyncAll: they all get
 * EPIPE, as in the SyncAll of every core; an AIC that leaves ends no
 * SyncAll of the AIVs, only the SyncAll of every core.
 */
TEST_F(launch, sync_aiv_with_a_dying_core)
{
	struct call c[3];
	struct launch l;
	int i;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 2));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, call_start(&c[i], l.core[2 + i], ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0,
					ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(call_blocked(&c[i]));
	}
	close(l.core[5]);
	l.core[5] = -1;
	for (i = 0; i < 3; i++)
		ASSERT_EQ(-EPIPE, call_join(&c[i])) TH_LOG("core %d", 2 + i);
	ASSERT_EQ(-EPIPE, sync_aiv(l.core[2], NOW));
	ASSERT_EQ(-EPIPE, sync_all(l.core[0], NOW));
	launch_end(&l);

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	ASSERT_EQ(0, call_start(&c[0], l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c[0]));
	ASSERT_EQ(0, call_start(&c[1], l.core[2], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(-EDEADLK, call_join(&c[1])) TH_LOG("rounds mixed");
	ASSERT_EQ(0, call_start(&c[1], l.core[2], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				asc_deadline_ms(2 * BLOCK_MS)));
	ASSERT_EQ(-EDEADLK, call_join(&c[1]));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_TRUE(call_blocked(&c[0])) TH_LOG("the AIC is not in the AIVs' SyncAll");
	ASSERT_EQ(-EPIPE, sync_all(l.core[2], NOW));
	ASSERT_EQ(0, sync_aiv(l.core[2], NOW));
	ASSERT_EQ(0, call_join(&c[0]));
	launch_end(&l);
}

/* ---- debugfs -------------------------------------------------------------- */

/* The line of TPipe @serial in the debugfs file that starts with @prefix. */
static void debugfs_line(struct __test_metadata *_metadata, int serial,
			 const char *prefix, char *line, size_t size)
{
	struct asc_text t = { 0 };
	const char *p, *end;

	ASSERT_EQ(0, asc_debugfs_tpipe(serial, &t)) TH_LOG("no TPipe %d in %s", serial,
							  ASC_DEBUGFS_FILE);
	for (p = asc_text_str(&t); p && strncmp(p, prefix, strlen(prefix));) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	ASSERT_TRUE(p != NULL) TH_LOG("no %s line in TPipe %d of %s:\n%s", prefix, serial,
				      ASC_DEBUGFS_FILE, asc_text_str(&t));
	end = strchrnul(p, '\n');
	ASSERT_LT((size_t)(end - p), size);
	memcpy(line, p, end - p);
	line[end - p] = '\0';
	asc_text_free(&t);
}

#define ASSERT_DEBUGFS_LINE(serial, prefix, expected) do {		\
	char __line[256];						\
									\
	debugfs_line(_metadata, (serial), (prefix), __line, sizeof(__line)); \
	ASSERT_STREQ((expected), __line);				\
} while (0)

/*
 * A mix launch of two AI cores in each core's debugfs file: the launch
 * line names the core as CORE_INFO does, the cross-core sets of a group
 * not complete yet, the counters, a cross-core wait, SyncAll (of every
 * core, and of the AIVs), and the
 * instructions a core's scalar issued (Documentation/admin.rst).
 */
TEST_F(launch, debugfs_shows_the_launch)
{
	struct asc_event_core_info info;
	int fd[6], serial[6], ls = -1;
	char want[256], got[256];
	struct call c, d;
	unsigned int i;
	int lfd, id;

	if (!asc_debugfs_mounted())
		SKIP(return, "no debugfs in this kernel");
	lfd = launch_new(ASC_EVENT_LAUNCH_MIX, 2);
	ASSERT_LE(0, lfd);
	for (i = 0; i < 6; i++) {
		fd[i] = asc_open_serial(&serial[i]);
		ASSERT_LE(0, fd[i]);
		ASSERT_LT(0, serial[i]);
		ASSERT_DEBUGFS_LINE(serial[i], "launch:", "launch: none");
		ASSERT_EQ(0, join(fd[i], lfd, i));
	}
	close(lfd);
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(0, core_info(fd[i], &info));
		debugfs_line(_metadata, serial[i], "launch:", got, sizeof(got));
		if (!i)
			ASSERT_EQ(1, sscanf(got, "launch: %d", &ls));
		snprintf(want, sizeof(want), "launch: %d core %u (%s %u) of 6", ls, i,
			 info.type == ASC_EVENT_CORE_AIC ? "AIC" : "AIV", info.block_idx);
		ASSERT_STREQ(want, got);
		ASSERT_DEBUGFS_LINE(serial[i], "cross-counts:", "cross-counts: none");
		ASSERT_DEBUGFS_LINE(serial[i], "cross-issued:", "cross-issued: none");
	}
	/* The last AIV reads as the uAPI numbers it: 2 * AI core 1 + 1. */
	ASSERT_EQ(1, sscanf(got, "launch: %*d core 5 (AIV %u)", &i));
	ASSERT_EQ(3U, i);

	/* Mode 0 among the four AIVs: issued until all four have set. */
	ASSERT_EQ(0, cross_set(fd[2], 3, 0, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, cross_set(fd[2], 3, 0, ASC_EVENT_PIPE_V));
	ASSERT_DEBUGFS_LINE(serial[2], "cross-issued:", "cross-issued: 0/3=2");
	ASSERT_DEBUGFS_LINE(serial[3], "cross-issued:", "cross-issued: none");
	for (i = 3; i < 6; i++)
		ASSERT_EQ(0, cross_set(fd[i], 3, 0, ASC_EVENT_PIPE_MTE3));
	ASSERT_DEBUGFS_LINE(serial[2], "cross-issued:", "cross-issued: 0/3=1");
	for (i = 2; i < 6; i++)
		ASSERT_DEBUGFS_LINE(serial[i], "cross-counts:", "cross-counts: 3=1");
	ASSERT_DEBUGFS_LINE(serial[0], "cross-counts:", "cross-counts: none");

	/* A cross-core wait on AIC 0, until both AICs have set flag 5. */
	ASSERT_EQ(0, call_start(&c, fd[0], ASC_EVENT_PIPE_FIX, CALL_CROSS_WAIT, 5,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	snprintf(want, sizeof(want), "waiters: %d/FIX:cross:5", atomic_load(&c.tid));
	ASSERT_DEBUGFS_LINE(serial[0], "waiters:", want);
	ASSERT_EQ(0, cross_set(fd[1], 5, 0, ASC_EVENT_PIPE_MTE1));
	ASSERT_EQ(0, cross_set(fd[0], 5, 0, ASC_EVENT_PIPE_MTE1));
	ASSERT_EQ(0, call_join(&c));
	ASSERT_DEBUGFS_LINE(serial[0], "waiters:", "waiters: none");

	/* Issued by the scalar of AIV 3, for MTE2: one in MTE2's queue. */
	ASSERT_EQ(0, asc_bind(fd[3], ASC_EVENT_PIPE_S));
	id = asc_alloc(fd[3], ASC_EVENT_MTE2_V);
	ASSERT_LE(0, id);
	ASSERT_LT(0, asc_issue(fd[3], ASC_EVENT_OP_SET, ASC_EVENT_MTE2_V, id));
	ASSERT_DEBUGFS_LINE(serial[3], "issued:", "issued: MTE2=1");
	ASSERT_EQ(0, asc_bind(fd[3], ASC_EVENT_PIPE_NONE));

	/* SyncAll on AIC 1, which a core that leaves ends. */
	ASSERT_EQ(0, call_start(&c, fd[1], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&c));
	snprintf(want, sizeof(want), "launch: %d core 1 (AIC 1) of 6 in sync_all", ls);
	ASSERT_DEBUGFS_LINE(serial[1], "launch:", want);
	snprintf(want, sizeof(want), "waiters: %d/S:sync_all", atomic_load(&c.tid));
	ASSERT_DEBUGFS_LINE(serial[1], "waiters:", want);
	/* And AIV 0 in the AIVs' SyncAll meanwhile. */
	ASSERT_EQ(0, call_start(&d, fd[2], ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&d));
	snprintf(want, sizeof(want), "launch: %d core 2 (AIV 0) of 6 in sync_all aiv_only", ls);
	ASSERT_DEBUGFS_LINE(serial[2], "launch:", want);
	snprintf(want, sizeof(want), "launch: %d core 1 (AIC 1) of 6 in sync_all", ls);
	ASSERT_DEBUGFS_LINE(serial[1], "launch:", want);
	close(fd[5]);
	ASSERT_EQ(-EPIPE, call_join(&c));
	ASSERT_EQ(-EPIPE, call_join(&d));
	for (i = 0; i < 5; i++)
		close(fd[i]);
}

/* ---- deadlocks across cores ------------------------------------------------ */

/*
 * Two vector cores.  Every pipe of core 0 is bound and waits forever: S in
 * SyncAll for core 1, V, MTE2 and MTE3 for S_V, S_MTE2 and S_MTE3, MTE1 for
 * MTE2_MTE1, M for MTE1_M, FIX for M_FIX.  On core 1, S waits for V_S and
 * V for cross-core flag 0, mode 0, which both cores must set: core 0 never
 * can, so nobody can ever go on, although core 1's other pipes are free.
 */
TEST_F(launch, deadlock_across_cores)
{
	static const struct {
		int core, pipe;
		enum call_kind kind;
		__u32 a;
	} plan[] = {
		{ 0, ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0 },
		{ 0, ASC_EVENT_PIPE_V, CALL_WAIT_FLAG, ASC_EVENT_S_V },
		{ 0, ASC_EVENT_PIPE_MTE2, CALL_WAIT_FLAG, ASC_EVENT_S_MTE2 },
		{ 0, ASC_EVENT_PIPE_MTE3, CALL_WAIT_FLAG, ASC_EVENT_S_MTE3 },
		{ 0, ASC_EVENT_PIPE_MTE1, CALL_WAIT_FLAG, ASC_EVENT_MTE2_MTE1 },
		{ 0, ASC_EVENT_PIPE_M, CALL_WAIT_FLAG, ASC_EVENT_MTE1_M },
		{ 0, ASC_EVENT_PIPE_FIX, CALL_WAIT_FLAG, ASC_EVENT_M_FIX },
		{ 1, ASC_EVENT_PIPE_S, CALL_WAIT_FLAG, ASC_EVENT_V_S },
		{ 1, ASC_EVENT_PIPE_V, CALL_CROSS_WAIT, 0 },
	};
	struct call c[ARRAY_SIZE(plan)];
	unsigned int i, n = ARRAY_SIZE(plan);
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	for (i = 0; i + 1 < n; i++) {
		ASSERT_EQ(0, call_start(&c[i], l.core[plan[i].core], plan[i].pipe,
					plan[i].kind, plan[i].a, ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(call_blocked(&c[i])) TH_LOG("plan line %u", i);
	}
	/* The last wait closes the cycle: every one of them fails. */
	ASSERT_EQ(0, call_start(&c[i], l.core[plan[i].core], plan[i].pipe, plan[i].kind,
				plan[i].a, ASC_EVENT_WAIT_FOREVER));
	for (i = 0; i < n; i++)
		ASSERT_EQ(-EDEADLK, call_join(&c[i])) TH_LOG("plan line %u", i);
	launch_end(&l);
}

/*
 * One vector core whose every pipe but S is bound and waits forever: V for
 * cross-core flag 0, which only a pipe other than S of this core can set,
 * the others for flags V or each other must set.  S is free, but the
 * scalar issues no cross-core set: a deadlock.
 */
TEST_F(launch, deadlock_with_the_scalar_free)
{
	static const struct {
		int pipe;
		enum call_kind kind;
		__u32 a;
	} plan[] = {
		{ ASC_EVENT_PIPE_M, CALL_WAIT_FLAG, ASC_EVENT_MTE1_M },
		{ ASC_EVENT_PIPE_MTE1, CALL_WAIT_FLAG, ASC_EVENT_MTE2_MTE1 },
		{ ASC_EVENT_PIPE_MTE2, CALL_WAIT_FLAG, ASC_EVENT_V_MTE2 },
		{ ASC_EVENT_PIPE_MTE3, CALL_WAIT_FLAG, ASC_EVENT_V_MTE3 },
		{ ASC_EVENT_PIPE_FIX, CALL_WAIT_FLAG, ASC_EVENT_M_FIX },
		{ ASC_EVENT_PIPE_V, CALL_CROSS_WAIT, 0 },
	};
	struct call c[ARRAY_SIZE(plan)];
	unsigned int i, n = ARRAY_SIZE(plan);
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 1));
	for (i = 0; i + 1 < n; i++) {
		ASSERT_EQ(0, call_start(&c[i], l.core[0], plan[i].pipe, plan[i].kind,
					plan[i].a, ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(call_blocked(&c[i])) TH_LOG("plan line %u", i);
	}
	ASSERT_EQ(0, call_start(&c[i], l.core[0], plan[i].pipe, plan[i].kind, plan[i].a,
				ASC_EVENT_WAIT_FOREVER));
	for (i = 0; i < n; i++)
		ASSERT_EQ(-EDEADLK, call_join(&c[i])) TH_LOG("plan line %u", i);
	launch_end(&l);
}

/*
 * Deadlock detection is checked mode's: the forever SyncAll of a bound S on
 * a core with checked mode off takes no part in it, while the S of a
 * checked core waits forever too, for a flag an unbound thread sets later.
 */
TEST_F(launch, unchecked_core_takes_no_part_in_detection)
{
	struct call s0, s1;
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, asc_set_unchecked(l.core[1]));
	ASSERT_EQ(0, call_start(&s0, l.core[0], ASC_EVENT_PIPE_S, CALL_WAIT_FLAG,
				ASC_EVENT_V_S, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&s0));
	ASSERT_EQ(0, call_start(&s1, l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&s1));
	ASSERT_EQ(0, asc_set(l.core[0], ASC_EVENT_V_S, 0)) TH_LOG("nobody stands for V");
	ASSERT_EQ(0, call_join(&s0));
	/* S's thread has exited: the main thread may run core 0's SyncAll. */
	ASSERT_EQ(0, sync_all(l.core[0], NOW));
	ASSERT_EQ(0, call_join(&s1));
	launch_end(&l);
}

/* Part of the same, but with pipes nobody stands for: no deadlock. */
TEST_F(launch, no_deadlock_while_a_pipe_is_free)
{
	struct call s0, v1, s1;
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_AIV, 2));
	ASSERT_EQ(0, call_start(&s0, l.core[0], ASC_EVENT_PIPE_S, CALL_SYNC_ALL, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, call_start(&s1, l.core[1], ASC_EVENT_PIPE_S, CALL_WAIT_FLAG,
				ASC_EVENT_V_S, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, call_start(&v1, l.core[1], ASC_EVENT_PIPE_V, CALL_CROSS_WAIT, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&s0));
	ASSERT_TRUE(call_blocked(&s1));
	ASSERT_TRUE(call_blocked(&v1));
	/* An unbound thread sets for the pipes nobody stands for. */
	ASSERT_EQ(0, cross_set(l.core[0], 0, 0, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, cross_set(l.core[1], 0, 0, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, call_join(&v1));
	/* V's thread has exited: anyone may set V_S for it now. */
	ASSERT_EQ(0, asc_set(l.core[1], ASC_EVENT_V_S, 0));
	ASSERT_EQ(0, call_join(&s1));
	ASSERT_EQ(0, sync_all(l.core[1], NOW));
	ASSERT_EQ(0, call_join(&s0));
	launch_end(&l);
}

/*
 * A mix launch of one AI core whose AIC has left.  AIV 0's S waits in the
 * AIVs' SyncAll, and each of its other pipes waits forever for a flag
 * whose chain leads back to S; AIV 1's S waits for cross-core flag 0,
 * which only AIV 0's pipes could still set (the AIC left).  The last wait
 * closes a cycle through the AIVs' SyncAll: every wait of it fails.
 */
TEST_F(launch, deadlock_through_the_aivs_sync_all)
{
	static const struct {
		int core, pipe;
		enum call_kind kind;
		__u32 a;
	} plan[] = {
		{ 1, ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0 },
		{ 1, ASC_EVENT_PIPE_V, CALL_WAIT_FLAG, ASC_EVENT_S_V },
		{ 1, ASC_EVENT_PIPE_MTE2, CALL_WAIT_FLAG, ASC_EVENT_S_MTE2 },
		{ 1, ASC_EVENT_PIPE_MTE3, CALL_WAIT_FLAG, ASC_EVENT_S_MTE3 },
		{ 1, ASC_EVENT_PIPE_MTE1, CALL_WAIT_FLAG, ASC_EVENT_MTE2_MTE1 },
		{ 1, ASC_EVENT_PIPE_M, CALL_WAIT_FLAG, ASC_EVENT_MTE1_M },
		{ 1, ASC_EVENT_PIPE_FIX, CALL_WAIT_FLAG, ASC_EVENT_M_FIX },
		{ 2, ASC_EVENT_PIPE_S, CALL_CROSS_WAIT, 0 },
	};
	struct call c[ARRAY_SIZE(plan)];
	unsigned int i, n = ARRAY_SIZE(plan);
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	close(l.core[0]);
	l.core[0] = -1;
	for (i = 0; i + 1 < n; i++) {
		ASSERT_EQ(0, call_start(&c[i], l.core[plan[i].core], plan[i].pipe,
					plan[i].kind, plan[i].a, ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(call_blocked(&c[i])) TH_LOG("plan line %u", i);
	}
	ASSERT_EQ(0, call_start(&c[i], l.core[plan[i].core], plan[i].pipe, plan[i].kind,
				plan[i].a, ASC_EVENT_WAIT_FOREVER));
	for (i = 0; i < n; i++)
		ASSERT_EQ(-EDEADLK, call_join(&c[i])) TH_LOG("plan line %u", i);
	launch_end(&l);
}

/*
 * The AIVs' SyncAll waits for the AIVs only: with the AIC gone and AIV 1's
 * S blocked in a wait its free V may end, AIV 0's S in it is no deadlock.
 */
TEST_F(launch, sync_aiv_waits_for_no_aic)
{
	struct call s1, s2;
	struct launch l;

	ASSERT_EQ(0, launch_start(&l, ASC_EVENT_LAUNCH_MIX, 1));
	close(l.core[0]);
	l.core[0] = -1;
	ASSERT_EQ(0, call_start(&s2, l.core[2], ASC_EVENT_PIPE_S, CALL_WAIT_FLAG,
				ASC_EVENT_V_S, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&s2));
	ASSERT_EQ(0, call_start(&s1, l.core[1], ASC_EVENT_PIPE_S, CALL_SYNC_AIV, 0,
				ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(call_blocked(&s1)) TH_LOG("AIV 1 may still come");
	ASSERT_EQ(0, asc_set(l.core[2], ASC_EVENT_V_S, 0)) TH_LOG("nobody stands for V");
	ASSERT_EQ(0, call_join(&s2));
	ASSERT_EQ(0, sync_aiv(l.core[2], NOW));
	ASSERT_EQ(0, call_join(&s1));
	launch_end(&l);
}

TEST_HARNESS_MAIN
