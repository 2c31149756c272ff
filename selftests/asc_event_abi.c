// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: the ioctl ABI itself.
 *
 * INFO reports what the device is; output structs come back with every
 * byte written; any out-of-range event or id, unknown flag bit or non-zero
 * pad is -EINVAL and changes nothing; a bad user pointer is -EFAULT; an
 * ioctl the driver does not know, or a known number with the wrong size or
 * direction, is -ENOTTY.  The device node is root's alone.
 *
 * The ioctls of checked mode obey the same discipline: BIND_PIPE takes one
 * of the seven pipes or ASC_EVENT_PIPE_NONE and flags 0, SET_MODE only the bits
 * it knows and pad 0, anything else is -EINVAL and changes nothing;
 * GET_MODE writes its whole struct.  INFO reports them as
 * ASC_EVENT_FEATURE_CHECKED.  The TPipes here run in checked mode, the
 * default, so every ID set or waited on is allocated or fetched first.
 */
#include "asc_event_test.h"

#include <grp.h>
#include <stddef.h>
#include <sys/sysmacros.h>

#define EV	ASC_EVENT_V_MTE2
#define POISON	0xa5

/* One layout for 32- and 64-bit callers, so compat_ptr_ioctl is enough. */
_Static_assert(sizeof(struct asc_event_info) == 24, "asc_event_info size");
_Static_assert(offsetof(struct asc_event_info, features) == 16, "features offset");
_Static_assert(sizeof(struct asc_event_ref) == 16, "asc_event_ref size");
_Static_assert(sizeof(struct asc_event_wait) == 24, "asc_event_wait size");
_Static_assert(offsetof(struct asc_event_wait, event) == 8, "wait event offset");
_Static_assert(sizeof(struct asc_event_reset) == 16, "asc_event_reset size");
_Static_assert(ASC_EVENT_NR_HARD_EVENTS == 35 && ASC_EVENT_FIX_FIX == 34, "HardEvents");
_Static_assert(sizeof(struct asc_event_bind) == 8, "asc_event_bind size");
_Static_assert(offsetof(struct asc_event_bind, pipe) == 0, "bind pipe offset");
_Static_assert(offsetof(struct asc_event_bind, flags) == 4, "bind flags offset");
_Static_assert(sizeof(struct asc_event_mode) == 8, "asc_event_mode size");
_Static_assert(offsetof(struct asc_event_mode, mode) == 0, "mode offset");
_Static_assert(offsetof(struct asc_event_mode, pad) == 4, "mode pad offset");
_Static_assert(sizeof(struct asc_event_map_state) == 480, "asc_event_map_state size");
_Static_assert(offsetof(struct asc_event_map_state, bound) == 432, "map bound offset");
_Static_assert(offsetof(struct asc_event_map_state, bound_tid) == 436, "map bound_tid offset");
_Static_assert(ASC_EVENT_MAP_PIPES == ASC_EVENT_PIPE_FIX + 1, "ASC_EVENT_MAP_PIPES");
_Static_assert(offsetof(struct asc_event_map_state, pool) == 8, "map pool offset");
_Static_assert(offsetof(struct asc_event_map_state, fetched) == 288, "map fetched offset");
_Static_assert(offsetof(struct asc_event_map_state, issued) == 428, "map issued offset");
_Static_assert(sizeof(struct asc_event_map_flags) == 568, "asc_event_map_flags size");
_Static_assert(offsetof(struct asc_event_map_flags, fast_ops) == 280, "map fast_ops offset");
_Static_assert(offsetof(struct asc_event_map_flags, ids) == 288, "map ids offset");
_Static_assert(ASC_EVENT_FEATURE_MAP_IDS == 0x40ULL, "ASC_EVENT_FEATURE_MAP_IDS");
_Static_assert(sizeof(struct asc_event_map_module) == 8, "asc_event_map_module size");

/* pyasc's PipeID numbering; -1 is no pipe. */
_Static_assert(ASC_EVENT_PIPE_S == 0 && ASC_EVENT_PIPE_V == 1 && ASC_EVENT_PIPE_M == 2 &&
	       ASC_EVENT_PIPE_MTE1 == 3 && ASC_EVENT_PIPE_MTE2 == 4 && ASC_EVENT_PIPE_MTE3 == 5 &&
	       ASC_EVENT_PIPE_FIX == 10 && ASC_EVENT_PIPE_NONE == -1, "ASC_EVENT_PIPE_* values");
_Static_assert(ASC_EVENT_FEATURE_CHECKED == 1ULL, "ASC_EVENT_FEATURE_CHECKED");
_Static_assert(ASC_EVENT_FEATURE_ISSUE == 2ULL, "ASC_EVENT_FEATURE_ISSUE");
_Static_assert(ASC_EVENT_MODE_CHECKED == 1U, "ASC_EVENT_MODE_CHECKED");
_Static_assert(ASC_EVENT_MODE_STRICT_IDS == 2U, "ASC_EVENT_MODE_STRICT_IDS");
_Static_assert(ASC_EVENT_OP_SET == 1 && ASC_EVENT_OP_WAIT == 2, "ASC_EVENT_OP_*");
_Static_assert(ASC_EVENT_QUEUE_DEPTH == 64, "ASC_EVENT_QUEUE_DEPTH");
_Static_assert(sizeof(struct asc_event_issue) == 24, "asc_event_issue size");
_Static_assert(offsetof(struct asc_event_issue, ticket) == 16, "issue ticket offset");
_Static_assert(sizeof(struct asc_event_execute) == 24, "asc_event_execute size");
_Static_assert(offsetof(struct asc_event_execute, flags) == 16, "execute flags offset");
_Static_assert(ASC_EVENT_FEATURE_LAUNCH == 4ULL, "ASC_EVENT_FEATURE_LAUNCH");
_Static_assert(ASC_EVENT_FEATURE_MAP == 8ULL, "ASC_EVENT_FEATURE_MAP");
_Static_assert(ASC_EVENT_FEATURE_SYNC_AIV == 0x10ULL, "ASC_EVENT_FEATURE_SYNC_AIV");
_Static_assert(ASC_EVENT_FEATURE_MAP_BOUND == 0x20ULL, "ASC_EVENT_FEATURE_MAP_BOUND");
_Static_assert(ASC_EVENT_SYNC_ALL_AIV_ONLY == 1U, "ASC_EVENT_SYNC_ALL_AIV_ONLY");
_Static_assert(ASC_EVENT_BLOCK_DIM_MAX == 64 && ASC_EVENT_CROSS_FLAGS == 11 &&
	       ASC_EVENT_CROSS_COUNT_MAX == 15, "launch limits");
_Static_assert(ASC_EVENT_LAUNCH_AIV == 1 && ASC_EVENT_LAUNCH_AIC == 2 &&
	       ASC_EVENT_LAUNCH_MIX == 3, "ASC_EVENT_LAUNCH_*");
_Static_assert(ASC_EVENT_CORE_AIC == 1 && ASC_EVENT_CORE_AIV == 2 &&
	       ASC_EVENT_CORE_ANY == 0xffffffffU, "ASC_EVENT_CORE_*");
_Static_assert(sizeof(struct asc_event_launch) == 16, "asc_event_launch size");
_Static_assert(offsetof(struct asc_event_launch, fd) == 12, "launch fd offset");
_Static_assert(sizeof(struct asc_event_join) == 16, "asc_event_join size");
_Static_assert(sizeof(struct asc_event_core_info) == 32, "asc_event_core_info size");
_Static_assert(sizeof(struct asc_event_cross_set) == 16, "asc_event_cross_set size");
_Static_assert(sizeof(struct asc_event_cross_wait) == 16, "asc_event_cross_wait size");
_Static_assert(offsetof(struct asc_event_cross_wait, flag_id) == 8, "cross_wait flag offset");
_Static_assert(sizeof(struct asc_event_sync_all) == 16, "asc_event_sync_all size");

/* Every ioctl number: magic, number, direction and size. */
#define ASC_IOC_IS(cmd, dir, nr, type)					\
	_Static_assert(_IOC_TYPE(cmd) == 0xA5 && _IOC_NR(cmd) == (nr) &&	\
		       _IOC_DIR(cmd) == (dir) && _IOC_SIZE(cmd) == sizeof(type), #cmd)
ASC_IOC_IS(ASC_EVENT_IOC_INFO, _IOC_READ, 0x40, struct asc_event_info);
ASC_IOC_IS(ASC_EVENT_IOC_ALLOC_ID, _IOC_READ | _IOC_WRITE, 0x41, struct asc_event_ref);
ASC_IOC_IS(ASC_EVENT_IOC_FETCH_ID, _IOC_READ | _IOC_WRITE, 0x42, struct asc_event_ref);
ASC_IOC_IS(ASC_EVENT_IOC_RELEASE_ID, _IOC_WRITE, 0x43, struct asc_event_ref);
ASC_IOC_IS(ASC_EVENT_IOC_SET_FLAG, _IOC_WRITE, 0x44, struct asc_event_ref);
ASC_IOC_IS(ASC_EVENT_IOC_WAIT_FLAG, _IOC_WRITE, 0x45, struct asc_event_wait);
ASC_IOC_IS(ASC_EVENT_IOC_RESET, _IOC_READ | _IOC_WRITE, 0x46, struct asc_event_reset);
ASC_IOC_IS(ASC_EVENT_IOC_BIND_PIPE, _IOC_WRITE, 0x47, struct asc_event_bind);
ASC_IOC_IS(ASC_EVENT_IOC_GET_MODE, _IOC_READ, 0x48, struct asc_event_mode);
ASC_IOC_IS(ASC_EVENT_IOC_SET_MODE, _IOC_WRITE, 0x49, struct asc_event_mode);
ASC_IOC_IS(ASC_EVENT_IOC_ISSUE, _IOC_READ | _IOC_WRITE, 0x4a, struct asc_event_issue);
ASC_IOC_IS(ASC_EVENT_IOC_EXECUTE, _IOC_WRITE, 0x4b, struct asc_event_execute);
ASC_IOC_IS(ASC_EVENT_IOC_LAUNCH, _IOC_READ | _IOC_WRITE, 0x4c, struct asc_event_launch);
ASC_IOC_IS(ASC_EVENT_IOC_JOIN, _IOC_WRITE, 0x4d, struct asc_event_join);
ASC_IOC_IS(ASC_EVENT_IOC_CORE_INFO, _IOC_READ, 0x4e, struct asc_event_core_info);
ASC_IOC_IS(ASC_EVENT_IOC_CROSS_SET, _IOC_WRITE, 0x4f, struct asc_event_cross_set);
ASC_IOC_IS(ASC_EVENT_IOC_CROSS_WAIT, _IOC_WRITE, 0x50, struct asc_event_cross_wait);
ASC_IOC_IS(ASC_EVENT_IOC_SYNC_ALL, _IOC_WRITE, 0x51, struct asc_event_sync_all);

ASC_FIXTURE(abi)

/*
 * Two pages: the first read-write, the second inaccessible.  @ok is the
 * start of the first, @none the start of the second.
 */
struct guard {
	char *ok;
	char *none;
	size_t page;
};

static void guard_map(struct __test_metadata *_metadata, struct guard *g)
{
	g->page = (size_t)sysconf(_SC_PAGESIZE);
	g->ok = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(g->ok != MAP_FAILED);
	g->none = g->ok + g->page;
	ASSERT_EQ(0, mprotect(g->none, g->page, PROT_NONE));
}

static void guard_unmap(struct guard *g)
{
	munmap(g->ok, 2 * g->page);
}

/* SET_MODE with @mode and @pad: 0 or -errno. */
static int set_mode(int fd, __u32 mode, __u32 pad)
{
	struct asc_event_mode m = { .mode = mode, .pad = pad };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_MODE, &m);
}

/* GET_MODE: the mode, or -errno; the struct as written goes to @out too. */
static int get_mode(int fd, struct asc_event_mode *out)
{
	struct asc_event_mode m;
	int ret;

	memset(&m, POISON, sizeof(m));
	ret = asc_ioctl(fd, ASC_EVENT_IOC_GET_MODE, &m);
	if (out)
		*out = m;
	return ret ? ret : (int)m.mode;
}

/* BIND_PIPE of the calling thread to @pipe: 0 or -errno. */
static int bind_pipe(int fd, __s32 pipe, __u32 flags)
{
	struct asc_event_bind b = { .pipe = pipe, .flags = flags };

	return asc_ioctl(fd, ASC_EVENT_IOC_BIND_PIPE, &b);
}

/* An address where nothing is mapped any more. */
static void *unmapped_address(struct __test_metadata *_metadata)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(0, munmap(p, page));
	return p;
}

TEST_F(abi, info_contents)
{
	struct asc_event_info info;

	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, asc_info(self->fd, &info));
	ASSERT_EQ((__u32)ASC_EVENT_ABI_VERSION, info.abi_version);
	ASSERT_EQ(1U, info.abi_version);
	ASSERT_EQ((__u32)ASC_EVENT_NR_HARD_EVENTS, info.nr_events);
	ASSERT_LE(1U, info.event_ids);
	ASSERT_GE((__u32)ASC_EVENT_IDS_MAX, info.event_ids);
	ASSERT_EQ(0U, info.pad);
	ASSERT_EQ((__u64)ASC_DEV_FEATURES, info.features);
}

TEST_F(abi, info_fully_written)
{
	struct asc_event_info info, want = {
		.abi_version = ASC_EVENT_ABI_VERSION,
		.nr_events = ASC_EVENT_NR_HARD_EVENTS,
		.event_ids = self->ids,
		.features = ASC_DEV_FEATURES,
	};

	memset(&info, POISON, sizeof(info));
	ASSERT_EQ(0, asc_info(self->fd, &info));
	ASSERT_EQ(0, memcmp(&want, &info, sizeof(info))) {
		TH_LOG("info: %#x %#x %#x %#x %#llx", info.abi_version, info.nr_events,
		       info.event_ids, info.pad, (unsigned long long)info.features);
	}
}

TEST_F(abi, info_same_on_every_open)
{
	struct asc_event_info a, b;
	int fd2 = asc_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	memset(&a, 0, sizeof(a));
	memset(&b, POISON, sizeof(b));
	ASSERT_EQ(0, asc_info(self->fd, &a));
	ASSERT_EQ(0, asc_info(fd2, &b));
	ASSERT_EQ(0, memcmp(&a, &b, sizeof(a)));
	ASSERT_EQ(0, close(fd2));
}

TEST_F(abi, info_bad_pointer)
{
	struct guard g;

	guard_map(_metadata, &g);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_INFO, NULL));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_INFO, g.none));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_INFO, g.none - 8));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_INFO,
				     unmapped_address(_metadata)));
	ASSERT_EQ(0, mprotect(g.ok, g.page, PROT_READ));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_INFO, g.ok));
	guard_unmap(&g);
}

static void check_ref_written(struct __test_metadata *_metadata, int fd,
			      unsigned long cmd, int want_id)
{
	struct asc_event_ref ref;

	memset(&ref, POISON, sizeof(ref));
	ref.event = EV;
	ref.flags = 0;
	ref.pad = 0;
	ASSERT_EQ(0, asc_ioctl(fd, cmd, &ref));
	ASSERT_EQ((__u32)EV, ref.event);
	ASSERT_EQ((__u32)want_id, ref.id);
	ASSERT_EQ(0U, ref.flags);
	ASSERT_EQ(0U, ref.pad);
}

TEST_F(abi, alloc_output_fully_written)
{
	check_ref_written(_metadata, self->fd, ASC_EVENT_IOC_ALLOC_ID, 0);
	if (self->ids > 1) {
		check_ref_written(_metadata, self->fd, ASC_EVENT_IOC_ALLOC_ID, 1);
	}
}

TEST_F(abi, fetch_output_fully_written)
{
	check_ref_written(_metadata, self->fd, ASC_EVENT_IOC_FETCH_ID, 0);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	if (self->ids > 1) {
		check_ref_written(_metadata, self->fd, ASC_EVENT_IOC_FETCH_ID, 1);
	}
}

TEST_F(abi, reset_output_fully_written)
{
	struct asc_event_reset reset;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_M_V));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_M_V, 0));
	memset(&reset, POISON, sizeof(reset));
	reset.flags = 0;
	reset.pad = 0;
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET, &reset));
	ASSERT_EQ(0U, reset.flags);
	ASSERT_EQ(0U, reset.pad);
	ASSERT_EQ(1U, reset.ids_held);
	ASSERT_EQ(2U, reset.flags_pending);

	memset(&reset, POISON, sizeof(reset));
	reset.flags = 0;
	reset.pad = 0;
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET, &reset));
	ASSERT_EQ(0U, reset.ids_held);
	ASSERT_EQ(0U, reset.flags_pending);
}

TEST_F(abi, write_only_args_untouched)
{
	struct asc_event_ref ref, ref_copy;
	struct asc_event_wait wait, wait_copy;
	struct asc_event_bind bind, bind_copy;
	struct asc_event_mode mode, mode_copy;

	/* Fetched as well, so the set and wait after the release are legal. */
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ref = (struct asc_event_ref){ .event = EV, .id = 0 };
	ref_copy = ref;
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_RELEASE_ID, &ref));
	ASSERT_EQ(0, memcmp(&ref, &ref_copy, sizeof(ref)));
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_FLAG, &ref));
	ASSERT_EQ(0, memcmp(&ref, &ref_copy, sizeof(ref)));
	wait = (struct asc_event_wait){ .deadline = 0, .event = EV, .id = 0 };
	wait_copy = wait;
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_WAIT_FLAG, &wait));
	ASSERT_EQ(0, memcmp(&wait, &wait_copy, sizeof(wait)));
	ASSERT_EQ(-ETIMEDOUT, asc_ioctl(self->fd, ASC_EVENT_IOC_WAIT_FLAG, &wait));
	ASSERT_EQ(0, memcmp(&wait, &wait_copy, sizeof(wait)));
	bind = (struct asc_event_bind){ .pipe = ASC_EVENT_PIPE_MTE3 };
	bind_copy = bind;
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, &bind));
	ASSERT_EQ(0, memcmp(&bind, &bind_copy, sizeof(bind)));
	bind.flags = 1;
	bind_copy = bind;
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, &bind));
	ASSERT_EQ(0, memcmp(&bind, &bind_copy, sizeof(bind)));
	mode = (struct asc_event_mode){ .mode = ASC_EVENT_MODE_CHECKED };
	mode_copy = mode;
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE, &mode));
	ASSERT_EQ(0, memcmp(&mode, &mode_copy, sizeof(mode)));
	mode.pad = 1;
	mode_copy = mode;
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE, &mode));
	ASSERT_EQ(0, memcmp(&mode, &mode_copy, sizeof(mode)));
}

TEST_F(abi, reset_reserved_fields)
{
	static const __u32 bad[][2] = {
		{ 1, 0 }, { 0x80000000U, 0 }, { ~0U, 0 }, { 0, 1 }, { 0, ~0U },
	};
	struct asc_event_reset reset;
	unsigned int i;

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&reset, 0, sizeof(reset));
		reset.flags = bad[i][0];
		reset.pad = bad[i][1];
		ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET, &reset)) {
			TH_LOG("flags %#x pad %#x", bad[i][0], bad[i][1]);
		}
	}
	ASSERT_RESET(self->fd, 1, 1);
}

TEST_F(abi, reset_bad_pointer)
{
	struct guard g;

	guard_map(_metadata, &g);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET, NULL));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET, g.none));
	memset(g.none - 8, 0, 8);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET, g.none - 8));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_RESET,
				     unmapped_address(_metadata)));
	ASSERT_RESET(self->fd, 1, 1);
	guard_unmap(&g);
}

TEST_F(abi, unknown_number_enotty)
{
	const unsigned long cmd[] = {
		0,
		~0UL,
		_IO(ASC_EVENT_IOC_MAGIC, 0x00),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x3f, struct asc_event_ref),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x47, struct asc_event_ref),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x48, struct asc_event_wait),
		/* the first numbers after the last ioctl */
		_IO(ASC_EVENT_IOC_MAGIC, 0x4a),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x4a, struct asc_event_mode),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x4a, struct asc_event_bind),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x4a, struct asc_event_ref),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x4b, struct asc_event_mode),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x4c, struct asc_event_info),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x50, struct asc_event_wait),
		_IO(ASC_EVENT_IOC_MAGIC, 0x52),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x52, struct asc_event_launch),
		_IOR(ASC_EVENT_IOC_MAGIC, 0xff, struct asc_event_info),
		_IOWR('N', 0x41, struct asc_event_ref),
		_IOWR(0xA4, 0x41, struct asc_event_ref),
		_IOR(0xA6, 0x40, struct asc_event_info),
	};
	char buf[64], zero[64];
	unsigned int i;

	memset(zero, 0, sizeof(zero));
	for (i = 0; i < ARRAY_SIZE(cmd); i++) {
		memset(buf, 0, sizeof(buf));
		ASSERT_EQ(-ENOTTY, asc_ioctl(self->fd, cmd[i], buf)) TH_LOG("cmd %#lx", cmd[i]);
		ASSERT_EQ(0, memcmp(buf, zero, sizeof(buf))) TH_LOG("cmd %#lx", cmd[i]);
		ASSERT_EQ(-ENOTTY, asc_ioctl(self->fd, cmd[i], NULL)) TH_LOG("cmd %#lx", cmd[i]);
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(abi, wrong_size_or_direction_enotty)
{
	const unsigned long cmd[] = {
		_IO(ASC_EVENT_IOC_MAGIC, 0x40),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x40, struct asc_event_info),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x40, struct asc_event_info),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x40, __u64),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x40, char[32]),
		_IO(ASC_EVENT_IOC_MAGIC, 0x41),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x41, struct asc_event_ref),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x41, struct asc_event_ref),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x41, __u64),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x41, struct asc_event_wait),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x42, struct asc_event_ref),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x42, struct asc_event_wait),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x43, struct asc_event_ref),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x43, __u64),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x44, struct asc_event_ref),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x44, struct asc_event_wait),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x45, struct asc_event_ref),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x45, struct asc_event_wait),
		_IO(ASC_EVENT_IOC_MAGIC, 0x46),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x46, struct asc_event_reset),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x46, struct asc_event_reset),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x46, __u64),
		/* 8-byte structs: no other 8-byte type may stand in for them */
		_IO(ASC_EVENT_IOC_MAGIC, 0x47),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x47, struct asc_event_bind),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x47, struct asc_event_bind),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x47, __u32),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x47, struct asc_event_ref),
		_IO(ASC_EVENT_IOC_MAGIC, 0x48),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x48, struct asc_event_mode),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x48, struct asc_event_mode),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x48, __u32),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x48, struct asc_event_reset),
		_IO(ASC_EVENT_IOC_MAGIC, 0x49),
		_IOR(ASC_EVENT_IOC_MAGIC, 0x49, struct asc_event_mode),
		_IOWR(ASC_EVENT_IOC_MAGIC, 0x49, struct asc_event_mode),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x49, __u32),
		_IOW(ASC_EVENT_IOC_MAGIC, 0x49, struct asc_event_info),
	};
	char buf[64], zero[64];
	unsigned int i;

	/*
	 * Checked mode on, and (0, 0) fetched: a wrongly accepted SET_MODE
	 * (mode 0), BIND_PIPE (pipe 0, S) or SET_FLAG of (0, 0) would show
	 * below.
	 */
	ASSERT_EQ(0, set_mode(self->fd, ASC_EVENT_MODE_CHECKED, 0));
	ASSERT_EQ(0, asc_fetch(self->fd, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	memset(zero, 0, sizeof(zero));
	for (i = 0; i < ARRAY_SIZE(cmd); i++) {
		/* All zero: event 0, ID 0, deadline 0 - valid, were the cmd right. */
		memset(buf, 0, sizeof(buf));
		ASSERT_EQ(-ENOTTY, asc_ioctl(self->fd, cmd[i], buf)) TH_LOG("cmd %#lx", cmd[i]);
		ASSERT_EQ(0, memcmp(buf, zero, sizeof(buf))) TH_LOG("cmd %#lx", cmd[i]);
	}
	ASSERT_EQ(-ENOENT, asc_release(self->fd, 0, 0));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, 0, 0, 0));
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, get_mode(self->fd, NULL));
	/* Bound to S, this thread would get EPERM for V_MTE2 before EBUSY. */
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 1, 1);
}

TEST_F(abi, device_node_mode)
{
	struct stat st;

	ASSERT_EQ(0, stat(asc_dev_path(), &st));
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(10U, major(st.st_rdev)) TH_LOG("not a misc device");
	ASSERT_EQ(0600U, st.st_mode & 07777U) TH_LOG("mode %#o", st.st_mode & 07777U);
	ASSERT_EQ(0U, st.st_uid);
	ASSERT_EQ(0U, st.st_gid);
}

TEST_F(abi, unprivileged_open_denied)
{
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "%s: needs root to drop privileges", _metadata->name);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(10);
		fd = asc_open();
		if (fd >= 0)
			_exit(11);
		_exit(errno == EACCES ? 0 : 12);
	}
	ASSERT_EQ(0, asc_child_wait(pid, 5000)) TH_LOG("nobody could open the device");
}

/*
 * A new TPipe starts in the mode the module parameter "checked" names
 * (Y unless the module was loaded otherwise), and GET_MODE writes the
 * whole struct: the mode and a zero pad.
 */
TEST_F(abi, mode_starts_as_the_parameter)
{
	struct asc_event_mode m, want = { .mode = ASC_EVENT_MODE_CHECKED };
	FILE *f = fopen(MODULE_SYSFS "/parameters/checked", "re");
	char c = 'Y';

	if (f) {
		ASSERT_EQ(1, fscanf(f, " %c", &c));
		fclose(f);
		ASSERT_TRUE(c == 'Y' || c == 'N') TH_LOG("checked=%c", c);
		if (c == 'N')
			want.mode = 0;
	}
	ASSERT_EQ((int)want.mode, get_mode(self->fd, &m)) TH_LOG("checked=%c", c);
	ASSERT_EQ(0, memcmp(&want, &m, sizeof(m))) TH_LOG("pad %#x", m.pad);
}

TEST_F(abi, mode_round_trip)
{
	static const __u32 modes[] = {
		0, ASC_EVENT_MODE_CHECKED, ASC_EVENT_MODE_CHECKED, 0, 0, ASC_EVENT_MODE_CHECKED,
	};
	struct asc_event_mode m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		ASSERT_EQ(0, set_mode(self->fd, modes[i], 0)) TH_LOG("mode %#x", modes[i]);
		ASSERT_EQ((int)modes[i], get_mode(self->fd, &m));
		ASSERT_EQ(0U, m.pad);
	}
}

/* SET_MODE refuses unknown mode bits and a non-zero pad, changing nothing. */
TEST_F(abi, set_mode_reserved_fields)
{
	static const __u32 bad[][2] = {
		{ ASC_EVENT_MODE_STRICT_IDS, 0 }, { 4, 0 }, { 0x80000000U, 0 }, { ~0U, 0 },
		{ ASC_EVENT_MODE_CHECKED | 4, 0 }, { ~ASC_EVENT_MODE_CHECKED, 0 },
		{ 0, 1 }, { 0, 0x80000000U }, { 0, ~0U },
		{ ASC_EVENT_MODE_CHECKED, 1 }, { ASC_EVENT_MODE_CHECKED, ~0U },
	};
	static const __u32 start[] = { ASC_EVENT_MODE_CHECKED, 0 };
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(start); s++) {
		ASSERT_EQ(0, set_mode(self->fd, start[s], 0));
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			ASSERT_EQ(-EINVAL, set_mode(self->fd, bad[i][0], bad[i][1])) {
				TH_LOG("mode %#x pad %#x", bad[i][0], bad[i][1]);
			}
			ASSERT_EQ((int)start[s], get_mode(self->fd, NULL)) {
				TH_LOG("mode %#x pad %#x changed the mode", bad[i][0], bad[i][1]);
			}
		}
	}
}

TEST_F(abi, mode_bad_pointer)
{
	struct guard g;

	guard_map(_metadata, &g);
	ASSERT_EQ(0, set_mode(self->fd, ASC_EVENT_MODE_CHECKED, 0));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_GET_MODE, NULL));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_GET_MODE, g.none));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_GET_MODE, g.none - 4));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_GET_MODE,
				     unmapped_address(_metadata)));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE, NULL));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE, g.none));
	/* mode 0, readable; the pad is not: nothing changes. */
	memset(g.none - 4, 0, 4);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE, g.none - 4));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE,
				     unmapped_address(_metadata)));
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, get_mode(self->fd, NULL));
	/* GET_MODE writes back: a read-only argument is a fault. */
	memset(g.ok, POISON, g.page);
	ASSERT_EQ(0, mprotect(g.ok, g.page, PROT_READ));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_GET_MODE, g.ok));
	ASSERT_EQ(POISON, (unsigned char)g.ok[0]);
	guard_unmap(&g);
}

/*
 * BIND_PIPE takes the seven pipes and ASC_EVENT_PIPE_NONE with flags 0; anything
 * else is -EINVAL and binds nothing.  The calling thread stays unbound
 * through the refusals, which a set of M_V (source M, destination V)
 * shows: bound to another pipe than M, it would be -EPERM in checked mode.
 */
TEST_F(abi, bind_reserved_fields)
{
	static const __s32 bad_pipe[] = {
		6, 7, 8, 9, 11, 12, 16, 31, 32, 64, 255, -2, -11, INT32_MIN, INT32_MAX,
	};
	static const __u32 bad_flags[] = { 1, 2, 0x100, 0x80000000U, ~0U };
	static const __s32 pipes[] = {
		ASC_EVENT_PIPE_S, ASC_EVENT_PIPE_V, ASC_EVENT_PIPE_M, ASC_EVENT_PIPE_MTE1, ASC_EVENT_PIPE_MTE2,
		ASC_EVENT_PIPE_MTE3, ASC_EVENT_PIPE_FIX, ASC_EVENT_PIPE_NONE,
	};
	const int ev = ASC_EVENT_M_V;
	unsigned int i, j;

	ASSERT_EQ(0, set_mode(self->fd, ASC_EVENT_MODE_CHECKED, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, ev));
	for (i = 0; i < ARRAY_SIZE(bad_pipe); i++) {
		ASSERT_EQ(-EINVAL, bind_pipe(self->fd, bad_pipe[i], 0)) TH_LOG("pipe %d", bad_pipe[i]);
		ASSERT_EQ(0, asc_set(self->fd, ev, 0)) TH_LOG("after pipe %d", bad_pipe[i]);
		ASSERT_EQ(0, asc_wait(self->fd, ev, 0, 0)) TH_LOG("after pipe %d", bad_pipe[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad_flags); i++) {
		for (j = 0; j < ARRAY_SIZE(pipes); j++) {
			ASSERT_EQ(-EINVAL, bind_pipe(self->fd, pipes[j], bad_flags[i])) {
				TH_LOG("pipe %d flags %#x", pipes[j], bad_flags[i]);
			}
		}
		ASSERT_EQ(0, asc_set(self->fd, ev, 0)) TH_LOG("after flags %#x", bad_flags[i]);
		ASSERT_EQ(0, asc_wait(self->fd, ev, 0, 0)) TH_LOG("after flags %#x", bad_flags[i]);
	}
	/* Every pipe binds, rebinding moves, NONE unbinds, twice too. */
	for (j = 0; j < ARRAY_SIZE(pipes); j++) {
		bool source = pipes[j] == ASC_EVENT_PIPE_M || pipes[j] == ASC_EVENT_PIPE_NONE;

		ASSERT_EQ(0, bind_pipe(self->fd, pipes[j], 0)) TH_LOG("pipe %d", pipes[j]);
		ASSERT_EQ(0, bind_pipe(self->fd, pipes[j], 0)) TH_LOG("pipe %d again", pipes[j]);
		ASSERT_EQ(source ? 0 : -EPERM, asc_set(self->fd, ev, 0)) {
			TH_LOG("bound to pipe %d", pipes[j]);
		}
		if (source) {
			ASSERT_EQ(0, bind_pipe(self->fd, ASC_EVENT_PIPE_NONE, 0));
			ASSERT_EQ(0, asc_wait(self->fd, ev, 0, 0));
		}
	}
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_F(abi, bind_bad_pointer)
{
	struct asc_event_bind b = { .pipe = ASC_EVENT_PIPE_V };
	struct guard g;

	guard_map(_metadata, &g);
	ASSERT_EQ(0, set_mode(self->fd, ASC_EVENT_MODE_CHECKED, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_M_V));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, NULL));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, g.none));
	/* pipe V readable, flags not: no binding. */
	memcpy(g.none - 4, &b, 4);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, g.none - 4));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE,
				     unmapped_address(_metadata)));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_M_V, 0));
	/* Nothing is written back: a read-only argument is fine. */
	memcpy(g.ok, &b, sizeof(b));
	ASSERT_EQ(0, mprotect(g.ok, g.page, PROT_READ));
	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, g.ok));
	/* Bound to V now: not M_V's source (EPERM before EBUSY), its destination. */
	ASSERT_EQ(-EPERM, asc_set(self->fd, ASC_EVENT_M_V, 0));
	ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_M_V, 0, 0));
	ASSERT_EQ(0, bind_pipe(self->fd, ASC_EVENT_PIPE_NONE, 0));
	ASSERT_RESET(self->fd, 1, 0);
	guard_unmap(&g);
}

/*
 * The ioctls that take an (event, id): every validation rule, for each one.
 * Before each test the TPipe holds ID 0 of EV and flag (EV, 0) is set, so
 * a rejected call that changed something shows.
 */
enum op_kind { OP_ALLOC, OP_FETCH, OP_RELEASE, OP_SET, OP_WAIT };

FIXTURE(op) {
	int fd;
	int ids;
};

FIXTURE_VARIANT(op) {
	enum op_kind kind;
	unsigned long cmd;
	bool id_in;		/* id is an input (not written by the driver) */
	bool is_wait;		/* takes struct asc_event_wait */
};

FIXTURE_VARIANT_ADD(op, alloc) {
	.kind = OP_ALLOC, .cmd = ASC_EVENT_IOC_ALLOC_ID,
};

FIXTURE_VARIANT_ADD(op, fetch) {
	.kind = OP_FETCH, .cmd = ASC_EVENT_IOC_FETCH_ID,
};

FIXTURE_VARIANT_ADD(op, release) {
	.kind = OP_RELEASE, .cmd = ASC_EVENT_IOC_RELEASE_ID, .id_in = true,
};

FIXTURE_VARIANT_ADD(op, set_flag) {
	.kind = OP_SET, .cmd = ASC_EVENT_IOC_SET_FLAG, .id_in = true,
};

FIXTURE_VARIANT_ADD(op, wait_flag) {
	.kind = OP_WAIT, .cmd = ASC_EVENT_IOC_WAIT_FLAG, .id_in = true, .is_wait = true,
};

FIXTURE_SETUP(op)
{
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
}

FIXTURE_TEARDOWN(op)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Lay out the argument of @v at @buf; deadline 0 for a wait. */
static size_t op_arg(const FIXTURE_VARIANT(op) *v, void *buf, __u32 event, __u32 id,
		     __u32 flags, __u32 pad)
{
	if (v->is_wait) {
		struct asc_event_wait w = {
			.event = event, .id = id, .flags = flags, .pad = pad,
		};

		memcpy(buf, &w, sizeof(w));
		return sizeof(w);
	} else {
		struct asc_event_ref r = {
			.event = event, .id = id, .flags = flags, .pad = pad,
		};

		memcpy(buf, &r, sizeof(r));
		return sizeof(r);
	}
}

static int op_call(int fd, const FIXTURE_VARIANT(op) *v, __u32 event, __u32 id,
		   __u32 flags, __u32 pad)
{
	char buf[sizeof(struct asc_event_wait)];

	op_arg(v, buf, event, id, flags, pad);
	return asc_ioctl(fd, v->cmd, buf);
}

/* Nothing changed since the setup, and a valid call still works. */
static void op_check_unchanged(struct __test_metadata *_metadata, int fd,
			       const FIXTURE_VARIANT(op) *v)
{
	ASSERT_RESET(fd, 1, 1);
	/* The reset forgot every ID: fetch the one set and waited on. */
	ASSERT_EQ(0, asc_fetch(fd, EV));
	switch (v->kind) {
	case OP_ALLOC:
	case OP_FETCH:
		ASSERT_EQ(0, op_call(fd, v, EV, 0, 0, 0));
		break;
	case OP_RELEASE:
		ASSERT_EQ(0, asc_alloc(fd, EV));
		ASSERT_EQ(0, op_call(fd, v, EV, 0, 0, 0));
		break;
	case OP_SET:
		ASSERT_EQ(0, op_call(fd, v, EV, 0, 0, 0));
		ASSERT_EQ(0, asc_wait(fd, EV, 0, 0));
		break;
	case OP_WAIT:
		ASSERT_EQ(0, asc_set(fd, EV, 0));
		ASSERT_EQ(0, op_call(fd, v, EV, 0, 0, 0));
		break;
	}
}

TEST_F(op, event_out_of_range)
{
	static const __u32 bad[] = {
		ASC_EVENT_NR_HARD_EVENTS, ASC_EVENT_NR_HARD_EVENTS + 1, 64, 255, 256, 0x80000000U, ~0U,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(-EINVAL, op_call(self->fd, variant, bad[i], 0, 0, 0)) {
			TH_LOG("event %u", bad[i]);
		}
	}
	op_check_unchanged(_metadata, self->fd, variant);
}

TEST_F(op, id_out_of_range)
{
	const __u32 bad[] = {
		self->ids, self->ids + 1, ASC_EVENT_IDS_MAX, 0x80000000U, ~0U,
	};
	char buf[sizeof(struct asc_event_wait)];
	struct asc_event_ref *ref = (void *)buf;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		op_arg(variant, buf, EV, bad[i], 0, 0);
		if (variant->id_in) {
			ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, variant->cmd, buf)) {
				TH_LOG("id %u", bad[i]);
			}
			continue;
		}
		/* alloc and fetch only write the id: its input is ignored. */
		ASSERT_EQ(0, asc_reset(self->fd, NULL));
		ASSERT_EQ(0, asc_ioctl(self->fd, variant->cmd, buf)) TH_LOG("id %u", bad[i]);
		ASSERT_EQ(0U, ref->id);
		ASSERT_RESET(self->fd, variant->kind == OP_ALLOC, 0);
		ASSERT_EQ(0, asc_alloc(self->fd, EV));
		ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	}
	op_check_unchanged(_metadata, self->fd, variant);
}

TEST_F(op, nonzero_flags)
{
	static const __u32 bad[] = { 1, 2, 0x100, 0x80000000U, ~0U };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(-EINVAL, op_call(self->fd, variant, EV, 0, bad[i], 0)) {
			TH_LOG("flags %#x", bad[i]);
		}
	}
	op_check_unchanged(_metadata, self->fd, variant);
}

TEST_F(op, nonzero_pad)
{
	static const __u32 bad[] = { 1, 0x80000000U, ~0U };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(-EINVAL, op_call(self->fd, variant, EV, 0, 0, bad[i])) {
			TH_LOG("pad %#x", bad[i]);
		}
	}
	op_check_unchanged(_metadata, self->fd, variant);
}

TEST_F(op, null_pointer)
{
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, variant->cmd, NULL));
	op_check_unchanged(_metadata, self->fd, variant);
}

TEST_F(op, unmapped_pointer)
{
	struct guard g;

	guard_map(_metadata, &g);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, variant->cmd, g.none));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, variant->cmd, unmapped_address(_metadata)));
	/* The first 8 bytes readable and valid, the rest not. */
	if (variant->is_wait) {
		memset(g.none - 8, 0, 8);
	} else {
		struct asc_event_ref r = { .event = EV, .id = 0 };

		memcpy(g.none - 8, &r, 8);
	}
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, variant->cmd, g.none - 8));
	guard_unmap(&g);
	op_check_unchanged(_metadata, self->fd, variant);
}

TEST_F(op, read_only_argument)
{
	struct guard g;

	/* A set needs a clear flag, alloc and fetch a free ID (event_ids may be 1). */
	if (variant->kind == OP_SET) {
		ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	} else if (!variant->id_in) {
		ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	}
	guard_map(_metadata, &g);
	op_arg(variant, g.ok, EV, 0, 0, 0);
	ASSERT_EQ(0, mprotect(g.ok, g.page, PROT_READ));
	if (variant->id_in) {
		/* Nothing is written back: a read-only argument is fine. */
		ASSERT_EQ(0, asc_ioctl(self->fd, variant->cmd, g.ok));
	} else {
		ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, variant->cmd, g.ok));
	}
	guard_unmap(&g);
}

/*
 * The mapped pages at the same offsets and in the same layout for 32- and
 * 64-bit callers (this program is also built 32-bit): the state page shows
 * an alloc, a flag set with a 64-bit compare-and-swap in the flag page is
 * the driver's, and a set through the driver shows there.
 */
TEST_F(abi, mapped_pages_same_layout)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct asc_event_map_state *st;
	struct asc_event_map_flags *fl;
	__u64 old = 0;
	int id;

	if (self->ids > ASC_EVENT_MAP_IDS_MAX)
		SKIP(return, "event_ids=%d: nothing to map", self->ids);
	st = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, ASC_EVENT_MAP_STATE * page);
	ASSERT_TRUE(st != MAP_FAILED);
	fl = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  (off_t)ASC_EVENT_MAP_FLAGS * page);
	ASSERT_TRUE(fl != MAP_FAILED);
	id = asc_alloc(self->fd, EV);
	ASSERT_LE(0, id);
	ASSERT_EQ(1ULL << id, st->pool[EV]);
	ASSERT_TRUE(__atomic_compare_exchange_n(&fl->flags[EV], &old, 1ULL << id, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, id));
	ASSERT_EQ(0, asc_wait(self->fd, EV, id, 0));
	ASSERT_EQ(0ULL, __atomic_load_n(&fl->flags[EV], __ATOMIC_SEQ_CST));
	ASSERT_EQ(0, asc_set(self->fd, EV, id));
	ASSERT_EQ(1ULL << id, __atomic_load_n(&fl->flags[EV], __ATOMIC_SEQ_CST));
	ASSERT_EQ(0, asc_wait(self->fd, EV, id, 0));
	ASSERT_EQ(0, asc_release(self->fd, EV, id));
	munmap(fl, page);
	munmap(st, page);
}

TEST_HARNESS_MAIN
