// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libasc against a fake device: what the library puts into each ioctl,
 * what it does with each answer, and which path it opens.
 *
 * This program defines open() and ioctl().  By ELF symbol interposition
 * its definitions are the ones libasc.so calls too.  open() records the
 * path and flags it is given and opens /dev/null instead; an ioctl of the
 * asc_event type is recorded and answered as the test scripted it.  A test
 * that did not go through these functions fails: nothing is assumed.
 * With old_driver set the fake is a driver from before pipe roles: it
 * answers their ioctls with ENOTTY, as any driver does an unknown ioctl.
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <asc.h>
#include <linux/asc_event.h>

#include "kselftest_harness.h"

#define NSEC_PER_SEC	1000000000LL

static struct fake {
	bool redirect;
	char path[256];
	int open_flags;
	int opens;
	int fd;
	struct asc_event_info info;
	unsigned int reply_id;
	bool old_driver;
	__u32 mode;
	int fail_errno;
	int calls;
	int foreign_fd_calls;
	unsigned long request;
	union {
		struct asc_event_ref ref;
		struct asc_event_wait wait;
		struct asc_event_reset reset;
		struct asc_event_bind bind;
		struct asc_event_mode mode;
		unsigned char bytes[64];
	} arg;
} fake;

static void fake_reset(unsigned int event_ids)
{
	memset(&fake, 0, sizeof(fake));
	fake.redirect = true;
	fake.fd = -1;
	fake.info.abi_version = ASC_EVENT_ABI_VERSION;
	fake.info.nr_events = ASC_HARD_EVENT_COUNT;
	fake.info.event_ids = event_ids;
}

static int fake_open(const char *path, int flags, mode_t mode)
{
	int fd;

	if (fake.redirect) {
		snprintf(fake.path, sizeof(fake.path), "%s", path);
		fake.open_flags = flags;
		fake.opens++;
		path = "/dev/null";
	}
	fd = syscall(SYS_openat, AT_FDCWD, path, flags, mode);
	if (fake.redirect && fd >= 0)
		fake.fd = fd;
	return fd;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return fake_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return fake_open(path, flags, mode);
}

/* What the driver would answer, as far as these tests need it. */
static int fake_answer(unsigned long request, void *arg)
{
	struct asc_event_reset *reset = arg;
	struct asc_event_wait *wait = arg;
	struct asc_event_mode *mode = arg;
	struct asc_event_ref *ref = arg;

	switch (request) {
	case ASC_EVENT_IOC_INFO:
		memcpy(arg, &fake.info, sizeof(fake.info));
		return 0;
	case ASC_EVENT_IOC_ALLOC_ID:
	case ASC_EVENT_IOC_FETCH_ID:
		ref->id = fake.reply_id;
		return 0;
	case ASC_EVENT_IOC_RELEASE_ID:
	case ASC_EVENT_IOC_SET_FLAG:
		return ref->id < fake.info.event_ids ? 0 : EINVAL;
	case ASC_EVENT_IOC_WAIT_FLAG:
		return wait->id < fake.info.event_ids ? 0 : EINVAL;
	case ASC_EVENT_IOC_RESET:
		reset->ids_held = 3;
		reset->flags_pending = 2;
		return 0;
	case ASC_EVENT_IOC_BIND_PIPE:
		return fake.old_driver ? ENOTTY : 0;
	case ASC_EVENT_IOC_GET_MODE:
		if (fake.old_driver)
			return ENOTTY;
		mode->mode = fake.mode;
		mode->pad = 0;
		return 0;
	case ASC_EVENT_IOC_SET_MODE:
		if (fake.old_driver)
			return ENOTTY;
		fake.mode = mode->mode;
		return 0;
	}
	return ENOTTY;
}

int ioctl(int fd, unsigned long request, ...)
{
	unsigned int size = _IOC_SIZE(request);
	va_list ap;
	void *arg;
	int err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	if (_IOC_TYPE(request) != ASC_EVENT_IOC_MAGIC)
		return syscall(SYS_ioctl, fd, request, arg);

	fake.calls++;
	fake.request = request;
	if (fd != fake.fd) {
		fake.foreign_fd_calls++;
		errno = EBADF;
		return -1;
	}
	memset(&fake.arg, 0, sizeof(fake.arg));
	if ((_IOC_DIR(request) & _IOC_WRITE) && size <= sizeof(fake.arg))
		memcpy(&fake.arg, arg, size);

	err = fake.fail_errno;
	fake.fail_errno = 0;
	if (!err)
		err = fake_answer(request, arg);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/* Open a pipe on the fake device with @event_ids; NULL on failure. */
static struct asc_pipe *fake_pipe(unsigned int event_ids)
{
	fake_reset(event_ids);
	return asc_pipe_open("/dev/asc_event");
}

/* Opening the fake device fails with EPROTO and leaks nothing. */
#define EXPECT_REFUSED(what) do {					\
	int __fd = lowest_free_fd();					\
	errno = 0;							\
	EXPECT_EQ(NULL, asc_pipe_open("/dev/asc_event")) TH_LOG("%s", what); \
	EXPECT_EQ(EPROTO, errno) TH_LOG("%s", what);			\
	EXPECT_EQ(1, fake.calls) TH_LOG("%s", what);			\
	EXPECT_EQ(__fd, lowest_free_fd()) TH_LOG("%s", what);		\
} while (0)

TEST(open_default_path_and_flags)
{
	struct asc_pipe *pipe;

	ASSERT_EQ(0, unsetenv("ASC_EVENT_DEV"));
	fake_reset(8);
	pipe = asc_pipe_open(NULL);
	ASSERT_NE(NULL, pipe);
	EXPECT_EQ(1, fake.opens);
	EXPECT_STREQ("/dev/asc_event", fake.path);
	EXPECT_EQ(O_RDWR | O_CLOEXEC, fake.open_flags);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fake.fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(O_RDWR, fcntl(fake.fd, F_GETFL) & O_ACCMODE);
	asc_pipe_close(pipe);
}

TEST(open_env_path)
{
	struct asc_pipe *pipe;

	ASSERT_EQ(0, setenv("ASC_EVENT_DEV", "/dev/asc_event_test0", 1));
	fake_reset(8);
	pipe = asc_pipe_open(NULL);
	ASSERT_NE(NULL, pipe);
	EXPECT_STREQ("/dev/asc_event_test0", fake.path);
	asc_pipe_close(pipe);
}

TEST(open_empty_env_is_default)
{
	struct asc_pipe *pipe;

	ASSERT_EQ(0, setenv("ASC_EVENT_DEV", "", 1));
	fake_reset(8);
	pipe = asc_pipe_open(NULL);
	ASSERT_NE(NULL, pipe);
	EXPECT_STREQ("/dev/asc_event", fake.path);
	asc_pipe_close(pipe);
}

TEST(open_explicit_path_beats_env)
{
	struct asc_pipe *pipe;

	ASSERT_EQ(0, setenv("ASC_EVENT_DEV", "/dev/asc_event_test0", 1));
	fake_reset(8);
	pipe = asc_pipe_open("/dev/asc_event_test1");
	ASSERT_NE(NULL, pipe);
	EXPECT_STREQ("/dev/asc_event_test1", fake.path);
	asc_pipe_close(pipe);
}

TEST(open_asks_info_once)
{
	struct asc_pipe *pipe = fake_pipe(8);

	ASSERT_NE(NULL, pipe);
	EXPECT_EQ(1, fake.calls);
	EXPECT_EQ(ASC_EVENT_IOC_INFO, fake.request);
	EXPECT_EQ(0, fake.foreign_fd_calls);
	asc_pipe_close(pipe);
}

TEST(event_ids_from_info)
{
	static const unsigned int ids[] = { 1, 4, 8, 63, ASC_EVENT_IDS_MAX };
	struct asc_pipe *pipe;
	unsigned int i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		pipe = fake_pipe(ids[i]);
		ASSERT_NE(NULL, pipe);
		EXPECT_EQ((int)ids[i], asc_event_ids(pipe));
		EXPECT_EQ(1, fake.calls);
		asc_pipe_close(pipe);
	}
}

TEST(unknown_abi_version_refused)
{
	static const uint32_t bad[] = { 0, ASC_EVENT_ABI_VERSION + 1, UINT32_MAX };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_reset(8);
		fake.info.abi_version = bad[i];
		EXPECT_REFUSED("abi_version");
	}
}

TEST(wrong_event_count_refused)
{
	static const uint32_t bad[] = {
		0, ASC_HARD_EVENT_COUNT - 1, ASC_HARD_EVENT_COUNT + 1, UINT32_MAX,
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_reset(8);
		fake.info.nr_events = bad[i];
		EXPECT_REFUSED("nr_events");
	}
}

TEST(bad_event_ids_refused)
{
	static const uint32_t bad[] = { 0, ASC_EVENT_IDS_MAX + 1, UINT32_MAX };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_reset(bad[i]);
		EXPECT_REFUSED("event_ids");
	}
}

TEST(unknown_features_accepted)
{
	struct asc_pipe *pipe;

	fake_reset(8);
	fake.info.features = ~0ULL;
	pipe = asc_pipe_open("/dev/asc_event");
	ASSERT_NE(NULL, pipe);
	asc_pipe_close(pipe);
}

TEST(info_error_passed_through)
{
	int fd = lowest_free_fd();

	fake_reset(8);
	fake.fail_errno = EIO;
	errno = 0;
	EXPECT_EQ(NULL, asc_pipe_open("/dev/asc_event"));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(fd, lowest_free_fd());
}

FIXTURE(pipe) {
	struct asc_pipe *pipe;
};

FIXTURE_SETUP(pipe)
{
	self->pipe = fake_pipe(8);
	ASSERT_NE(NULL, self->pipe);
	fake.calls = 0;
}

FIXTURE_TEARDOWN(pipe)
{
	asc_pipe_close(self->pipe);
}

/* Flags and padding are always zero on the way in. */
#define EXPECT_REF(req, ev, i) do {			\
	EXPECT_EQ(1, fake.calls);			\
	EXPECT_EQ((req), fake.request);			\
	EXPECT_EQ((__u32)(ev), fake.arg.ref.event);	\
	EXPECT_EQ((__u32)(i), fake.arg.ref.id);		\
	EXPECT_EQ(0U, fake.arg.ref.flags);		\
	EXPECT_EQ(0U, fake.arg.ref.pad);			\
} while (0)

#define EXPECT_WAIT(ev, i) do {				\
	EXPECT_EQ(1, fake.calls);			\
	EXPECT_EQ(ASC_EVENT_IOC_WAIT_FLAG, fake.request); \
	EXPECT_EQ((__u32)(ev), fake.arg.wait.event);	\
	EXPECT_EQ((__u32)(i), fake.arg.wait.id);	\
	EXPECT_EQ(0U, fake.arg.wait.flags);		\
	EXPECT_EQ(0U, fake.arg.wait.pad);		\
} while (0)

TEST_F(pipe, alloc_returns_driver_id)
{
	fake.reply_id = 5;
	EXPECT_EQ(5, asc_alloc_event_id(self->pipe, ASC_HARD_EVENT_MTE2_V));
	EXPECT_REF(ASC_EVENT_IOC_ALLOC_ID, ASC_HARD_EVENT_MTE2_V, 0);
}

TEST_F(pipe, fetch_returns_driver_id)
{
	fake.reply_id = 7;
	EXPECT_EQ(7, asc_fetch_event_id(self->pipe, ASC_HARD_EVENT_FIX_FIX));
	EXPECT_REF(ASC_EVENT_IOC_FETCH_ID, ASC_HARD_EVENT_FIX_FIX, 0);
}

TEST_F(pipe, release_takes_id_then_event)
{
	EXPECT_EQ(0, asc_release_event_id(self->pipe, 3, ASC_HARD_EVENT_V_MTE3));
	EXPECT_REF(ASC_EVENT_IOC_RELEASE_ID, ASC_HARD_EVENT_V_MTE3, 3);
}

TEST_F(pipe, set_flag)
{
	EXPECT_EQ(0, asc_set_flag(self->pipe, ASC_HARD_EVENT_MTE2_MTE1, 6));
	EXPECT_REF(ASC_EVENT_IOC_SET_FLAG, ASC_HARD_EVENT_MTE2_MTE1, 6);
}

TEST_F(pipe, wait_flag_waits_forever)
{
	EXPECT_EQ(0, asc_wait_flag(self->pipe, ASC_HARD_EVENT_MTE3_V, 2));
	EXPECT_WAIT(ASC_HARD_EVENT_MTE3_V, 2);
	EXPECT_EQ(ASC_EVENT_WAIT_FOREVER, fake.arg.wait.deadline);
}

TEST_F(pipe, negative_timeout_waits_forever)
{
	static const int64_t timeouts[] = { -1, -NSEC_PER_SEC, INT64_MIN };
	unsigned int i;

	for (i = 0; i < sizeof(timeouts) / sizeof(timeouts[0]); i++) {
		fake.calls = 0;
		EXPECT_EQ(0, asc_wait_flag_timeout(self->pipe, ASC_HARD_EVENT_M_V,
						   1, timeouts[i]));
		EXPECT_WAIT(ASC_HARD_EVENT_M_V, 1);
		EXPECT_EQ(ASC_EVENT_WAIT_FOREVER, fake.arg.wait.deadline);
	}
}

TEST_F(pipe, zero_timeout_is_a_past_deadline)
{
	int64_t before = now_ns();

	EXPECT_EQ(0, asc_wait_flag_timeout(self->pipe, ASC_HARD_EVENT_V_V, 0, 0));
	EXPECT_WAIT(ASC_HARD_EVENT_V_V, 0);
	EXPECT_GE((uint64_t)before, fake.arg.wait.deadline);
}

TEST_F(pipe, relative_timeout_becomes_monotonic_deadline)
{
	static const int64_t timeouts[] = { 1, 5000000, NSEC_PER_SEC, 3600 * NSEC_PER_SEC };
	int64_t before, after;
	unsigned int i;

	for (i = 0; i < sizeof(timeouts) / sizeof(timeouts[0]); i++) {
		fake.calls = 0;
		before = now_ns();
		EXPECT_EQ(0, asc_wait_flag_timeout(self->pipe, ASC_HARD_EVENT_S_V,
						   4, timeouts[i]));
		after = now_ns();
		EXPECT_WAIT(ASC_HARD_EVENT_S_V, 4);
		EXPECT_LE((uint64_t)(before + timeouts[i]), fake.arg.wait.deadline);
		EXPECT_GE((uint64_t)(after + timeouts[i]), fake.arg.wait.deadline);
	}
}

TEST_F(pipe, huge_timeout_does_not_wrap)
{
	int64_t before = now_ns();

	EXPECT_EQ(0, asc_wait_flag_timeout(self->pipe, ASC_HARD_EVENT_S_V, 0,
					   INT64_MAX));
	EXPECT_LE((uint64_t)before + INT64_MAX, fake.arg.wait.deadline);
}

TEST_F(pipe, reset)
{
	EXPECT_EQ(0, asc_pipe_reset(self->pipe));
	EXPECT_EQ(1, fake.calls);
	EXPECT_EQ(ASC_EVENT_IOC_RESET, fake.request);
	EXPECT_EQ(0U, fake.arg.reset.flags);
	EXPECT_EQ(0U, fake.arg.reset.pad);
}

/* The driver's errno comes back unchanged, after exactly one ioctl. */
#define EXPECT_DRIVER_ERROR(err, call) do {			\
	fake.calls = 0;						\
	fake.fail_errno = (err);				\
	errno = 0;						\
	EXPECT_EQ(-1, (call)) TH_LOG(#call);			\
	EXPECT_EQ((err), errno) TH_LOG(#call);			\
	EXPECT_EQ(1, fake.calls) TH_LOG(#call);			\
} while (0)

TEST_F(pipe, driver_errors_passed_through)
{
	struct asc_pipe *p = self->pipe;
	int ev = ASC_HARD_EVENT_MTE2_V;

	EXPECT_DRIVER_ERROR(ENOSPC, asc_alloc_event_id(p, ev));
	EXPECT_DRIVER_ERROR(ENOSPC, asc_fetch_event_id(p, ev));
	EXPECT_DRIVER_ERROR(ENOENT, asc_release_event_id(p, 1, ev));
	EXPECT_DRIVER_ERROR(EBUSY, asc_set_flag(p, ev, 1));
	EXPECT_DRIVER_ERROR(ECANCELED, asc_wait_flag(p, ev, 1));
	EXPECT_DRIVER_ERROR(ETIMEDOUT, asc_wait_flag_timeout(p, ev, 1, 0));
	EXPECT_DRIVER_ERROR(ETIMEDOUT, asc_wait_flag_timeout(p, ev, 1, 1000));
	EXPECT_DRIVER_ERROR(ECANCELED, asc_pipe_reset(p));
	EXPECT_DRIVER_ERROR(EFAULT, asc_set_flag(p, ev, 1));
}

TEST_F(pipe, eintr_is_not_retried)
{
	struct asc_pipe *p = self->pipe;
	int ev = ASC_HARD_EVENT_V_MTE2;

	EXPECT_DRIVER_ERROR(EINTR, asc_wait_flag(p, ev, 0));
	EXPECT_DRIVER_ERROR(EINTR, asc_wait_flag_timeout(p, ev, 0, NSEC_PER_SEC));
	EXPECT_DRIVER_ERROR(EINTR, asc_set_flag(p, ev, 0));
}

/* Refused with EINVAL by the library: no ioctl reaches the driver. */
#define EXPECT_REJECTED(call) do {				\
	fake.calls = 0;						\
	errno = 0;						\
	EXPECT_EQ(-1, (call)) TH_LOG(#call);			\
	EXPECT_EQ(EINVAL, errno) TH_LOG(#call);			\
	EXPECT_EQ(0, fake.calls) TH_LOG(#call);			\
} while (0)

TEST_F(pipe, bad_event_rejected_by_library)
{
	static const int bad[] = {
		-1, ASC_HARD_EVENT_COUNT, ASC_HARD_EVENT_COUNT + 1, INT_MIN, INT_MAX,
	};
	struct asc_pipe *p = self->pipe;
	unsigned int i;
	int ev;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ev = bad[i];
		EXPECT_REJECTED(asc_alloc_event_id(p, ev));
		EXPECT_REJECTED(asc_fetch_event_id(p, ev));
		EXPECT_REJECTED(asc_release_event_id(p, 0, ev));
		EXPECT_REJECTED(asc_set_flag(p, ev, 0));
		EXPECT_REJECTED(asc_wait_flag(p, ev, 0));
		EXPECT_REJECTED(asc_wait_flag_timeout(p, ev, 0, 0));
	}
}

TEST_F(pipe, negative_id_rejected_by_library)
{
	static const int bad[] = { -1, -64, INT_MIN };
	struct asc_pipe *p = self->pipe;
	int ev = ASC_HARD_EVENT_MTE2_V;
	unsigned int i;
	int id;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		id = bad[i];
		EXPECT_REJECTED(asc_release_event_id(p, id, ev));
		EXPECT_REJECTED(asc_set_flag(p, ev, id));
		EXPECT_REJECTED(asc_wait_flag(p, ev, id));
		EXPECT_REJECTED(asc_wait_flag_timeout(p, ev, id, 0));
	}
}

/* The driver knows its geometry: an ID too large is its to refuse. */
#define EXPECT_DRIVER_EINVAL(call) do {				\
	fake.calls = 0;						\
	errno = 0;						\
	EXPECT_EQ(-1, (call)) TH_LOG(#call);			\
	EXPECT_EQ(EINVAL, errno) TH_LOG(#call);			\
	EXPECT_EQ(1, fake.calls) TH_LOG(#call);			\
} while (0)

TEST_F(pipe, large_id_left_to_driver)
{
	static const int big[] = { 8, ASC_EVENT_IDS_MAX, INT_MAX };
	struct asc_pipe *p = self->pipe;
	int ev = ASC_HARD_EVENT_MTE2_V;
	unsigned int i;
	int id;

	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		id = big[i];
		EXPECT_DRIVER_EINVAL(asc_release_event_id(p, id, ev));
		EXPECT_DRIVER_EINVAL(asc_set_flag(p, ev, id));
		EXPECT_DRIVER_EINVAL(asc_wait_flag(p, ev, id));
		EXPECT_DRIVER_EINVAL(asc_wait_flag_timeout(p, ev, id, 0));
	}
}

/* The numbers of the issue 4 ioctls are ABI: type, number, direction, size. */
TEST(pipe_role_ioctl_numbers)
{
	EXPECT_EQ(8U, sizeof(struct asc_event_bind));
	EXPECT_EQ(8U, sizeof(struct asc_event_mode));

	EXPECT_EQ(0xA5U, _IOC_TYPE(ASC_EVENT_IOC_BIND_PIPE));
	EXPECT_EQ(0x47U, _IOC_NR(ASC_EVENT_IOC_BIND_PIPE));
	EXPECT_EQ((unsigned int)_IOC_WRITE, _IOC_DIR(ASC_EVENT_IOC_BIND_PIPE));
	EXPECT_EQ(8U, _IOC_SIZE(ASC_EVENT_IOC_BIND_PIPE));

	EXPECT_EQ(0xA5U, _IOC_TYPE(ASC_EVENT_IOC_GET_MODE));
	EXPECT_EQ(0x48U, _IOC_NR(ASC_EVENT_IOC_GET_MODE));
	EXPECT_EQ((unsigned int)_IOC_READ, _IOC_DIR(ASC_EVENT_IOC_GET_MODE));
	EXPECT_EQ(8U, _IOC_SIZE(ASC_EVENT_IOC_GET_MODE));

	EXPECT_EQ(0xA5U, _IOC_TYPE(ASC_EVENT_IOC_SET_MODE));
	EXPECT_EQ(0x49U, _IOC_NR(ASC_EVENT_IOC_SET_MODE));
	EXPECT_EQ((unsigned int)_IOC_WRITE, _IOC_DIR(ASC_EVENT_IOC_SET_MODE));
	EXPECT_EQ(8U, _IOC_SIZE(ASC_EVENT_IOC_SET_MODE));
}

#define EXPECT_BIND(id) do {					\
	EXPECT_EQ(1, fake.calls);				\
	EXPECT_EQ(ASC_EVENT_IOC_BIND_PIPE, fake.request);	\
	EXPECT_EQ((__s32)(id), fake.arg.bind.pipe);		\
	EXPECT_EQ(0U, fake.arg.bind.flags);			\
} while (0)

TEST_F(pipe, bind_every_pipe)
{
	static const int ids[] = {
		ASC_PIPE_S, ASC_PIPE_V, ASC_PIPE_M, ASC_PIPE_MTE1, ASC_PIPE_MTE2,
		ASC_PIPE_MTE3, ASC_PIPE_FIX, ASC_PIPE_NONE,
	};
	unsigned int i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		fake.calls = 0;
		EXPECT_EQ(0, asc_pipe_bind(self->pipe, ids[i])) TH_LOG("%d", ids[i]);
		EXPECT_BIND(ids[i]);
	}
}

TEST_F(pipe, bind_non_pipe_rejected_by_library)
{
	static const int bad[] = { -2, 6, 7, 8, 9, 11, 64, INT_MIN, INT_MAX };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_REJECTED(asc_pipe_bind(self->pipe, bad[i]));
}

#define EXPECT_SET_MODE(m) do {					\
	EXPECT_EQ(1, fake.calls);				\
	EXPECT_EQ(ASC_EVENT_IOC_SET_MODE, fake.request);	\
	EXPECT_EQ((__u32)(m), fake.arg.mode.mode);		\
	EXPECT_EQ(0U, fake.arg.mode.pad);			\
} while (0)

/* One SET_MODE writing the whole mode word; never a GET_MODE first. */
TEST_F(pipe, set_checked_writes_mode)
{
	static const int on[] = { 1, 2, -1, INT_MIN, INT_MAX };
	unsigned int i;

	EXPECT_EQ(0, asc_pipe_set_checked(self->pipe, 0));
	EXPECT_SET_MODE(0);
	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		fake.calls = 0;
		fake.mode = 0;
		EXPECT_EQ(0, asc_pipe_set_checked(self->pipe, on[i]))
			TH_LOG("%d", on[i]);
		EXPECT_SET_MODE(ASC_EVENT_MODE_CHECKED);
	}
}

TEST_F(pipe, checked_reads_mode)
{
	static const struct { __u32 mode; int checked; } cases[] = {
		{ 0, 0 },
		{ ASC_EVENT_MODE_CHECKED, 1 },
		{ ASC_EVENT_MODE_CHECKED | 0x80000000U, 1 },
		{ 0x2, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake.calls = 0;
		fake.mode = cases[i].mode;
		EXPECT_EQ(cases[i].checked, asc_pipe_checked(self->pipe))
			TH_LOG("mode %#x", cases[i].mode);
		EXPECT_EQ(1, fake.calls);
		EXPECT_EQ(ASC_EVENT_IOC_GET_MODE, fake.request);
	}
}

/* set_mode writes the mode word as given; a negative one never goes out. */
TEST_F(pipe, set_mode_writes_mode)
{
	static const int modes[] = { 0, ASC_MODE_CHECKED,
				     ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS, 0x40 };
	unsigned int i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		fake.calls = 0;
		EXPECT_EQ(0, asc_pipe_set_mode(self->pipe, modes[i]));
		EXPECT_SET_MODE(modes[i]);
	}
	fake.calls = 0;
	errno = 0;
	EXPECT_EQ(-1, asc_pipe_set_mode(self->pipe, -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, fake.calls);
}

TEST_F(pipe, mode_reads_mode)
{
	static const struct { __u32 mode; int want; } cases[] = {
		{ 0, 0 },
		{ ASC_EVENT_MODE_CHECKED, ASC_MODE_CHECKED },
		{ ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS,
		  ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS },
		{ ASC_EVENT_MODE_CHECKED | 0x80000000U, ASC_MODE_CHECKED },
		{ 0x7ffffff0U, 0x7ffffff0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake.calls = 0;
		fake.mode = cases[i].mode;
		EXPECT_EQ(cases[i].want, asc_pipe_mode(self->pipe))
			TH_LOG("mode %#x", cases[i].mode);
		EXPECT_EQ(1, fake.calls);
		EXPECT_EQ(ASC_EVENT_IOC_GET_MODE, fake.request);
	}
}

TEST_F(pipe, set_checked_then_checked)
{
	EXPECT_EQ(0, asc_pipe_set_checked(self->pipe, 0));
	EXPECT_EQ(0, asc_pipe_checked(self->pipe));
	EXPECT_EQ(0, asc_pipe_set_checked(self->pipe, 1));
	EXPECT_EQ(1, asc_pipe_checked(self->pipe));
	EXPECT_EQ(4, fake.calls);
}

TEST_F(pipe, reset_leftovers_reports_counts)
{
	unsigned int ids = 77, flags = 78;

	EXPECT_EQ(0, asc_pipe_reset_leftovers(self->pipe, &ids, &flags));
	EXPECT_EQ(1, fake.calls);
	EXPECT_EQ(ASC_EVENT_IOC_RESET, fake.request);
	EXPECT_EQ(0U, fake.arg.reset.flags);
	EXPECT_EQ(0U, fake.arg.reset.pad);
	EXPECT_EQ(3U, ids);
	EXPECT_EQ(2U, flags);

	ids = 77;
	EXPECT_EQ(0, asc_pipe_reset_leftovers(self->pipe, &ids, NULL));
	EXPECT_EQ(3U, ids);
	flags = 78;
	EXPECT_EQ(0, asc_pipe_reset_leftovers(self->pipe, NULL, &flags));
	EXPECT_EQ(2U, flags);
	EXPECT_EQ(0, asc_pipe_reset_leftovers(self->pipe, NULL, NULL));
	EXPECT_EQ(4, fake.calls);
}

TEST_F(pipe, reset_leftovers_error_stores_nothing)
{
	unsigned int ids = 77, flags = 78;

	EXPECT_DRIVER_ERROR(EIO, asc_pipe_reset_leftovers(self->pipe, &ids,
							   &flags));
	EXPECT_EQ(77U, ids);
	EXPECT_EQ(78U, flags);
}

TEST_F(pipe, pipe_role_driver_errors_passed_through)
{
	struct asc_pipe *p = self->pipe;
	int ev = ASC_HARD_EVENT_MTE2_V;

	EXPECT_DRIVER_ERROR(EBUSY, asc_pipe_bind(p, ASC_PIPE_V));
	EXPECT_DRIVER_ERROR(EINVAL, asc_pipe_bind(p, ASC_PIPE_NONE));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_bind(p, ASC_PIPE_MTE2));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_set_checked(p, 1));
	EXPECT_DRIVER_ERROR(EINVAL, asc_pipe_set_checked(p, 0));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_checked(p));
	EXPECT_DRIVER_ERROR(EFAULT, asc_pipe_checked(p));
	EXPECT_DRIVER_ERROR(EINVAL, asc_pipe_set_mode(p, ASC_MODE_STRICT_IDS));
	EXPECT_DRIVER_ERROR(EBUSY, asc_pipe_set_mode(p, 3));
	EXPECT_DRIVER_ERROR(EFAULT, asc_pipe_mode(p));
	EXPECT_DRIVER_ERROR(EPERM, asc_set_flag(p, ev, 0));
	EXPECT_DRIVER_ERROR(ENOENT, asc_set_flag(p, ev, 0));
	EXPECT_DRIVER_ERROR(EPERM, asc_wait_flag(p, ev, 0));
	EXPECT_DRIVER_ERROR(ENOENT, asc_wait_flag(p, ev, 0));
	EXPECT_DRIVER_ERROR(EDEADLK, asc_wait_flag(p, ev, 0));
	EXPECT_DRIVER_ERROR(EDEADLK, asc_wait_flag_timeout(p, ev, 0, -1));
	EXPECT_DRIVER_ERROR(EPERM, asc_wait_flag_timeout(p, ev, 0, 1000));
	EXPECT_DRIVER_ERROR(ENOENT, asc_wait_flag_timeout(p, ev, 0, 0));
}

/* A driver from before pipe roles: ENOTTY, one ioctl, the rest works. */
TEST_F(pipe, old_driver_answers_enotty)
{
	struct asc_pipe *p = self->pipe;

	fake.old_driver = true;
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_bind(p, ASC_PIPE_V));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_bind(p, ASC_PIPE_NONE));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_set_checked(p, 0));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_checked(p));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_set_mode(p, 1));
	EXPECT_DRIVER_ERROR(ENOTTY, asc_pipe_mode(p));
	fake.calls = 0;
	EXPECT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_MTE2_V, 0));
	EXPECT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_MTE2_V, 0));
	EXPECT_EQ(0, asc_pipe_reset(p));
	EXPECT_EQ(3, fake.calls);
}

TEST_F(pipe, close_closes_descriptor_and_keeps_errno)
{
	int fd = fake.fd;

	EXPECT_LE(0, fcntl(fd, F_GETFD));
	errno = EXDEV;
	asc_pipe_close(self->pipe);
	self->pipe = NULL;
	EXPECT_EQ(EXDEV, errno);
	EXPECT_EQ(-1, fcntl(fd, F_GETFD));
	EXPECT_EQ(EBADF, errno);
}

TEST_F(pipe, every_call_uses_the_pipe_descriptor)
{
	struct asc_pipe *p = self->pipe;
	int ev = ASC_HARD_EVENT_MTE1_M;

	EXPECT_EQ(0, asc_alloc_event_id(p, ev));
	EXPECT_EQ(0, asc_fetch_event_id(p, ev));
	EXPECT_EQ(0, asc_release_event_id(p, 0, ev));
	EXPECT_EQ(0, asc_set_flag(p, ev, 0));
	EXPECT_EQ(0, asc_wait_flag(p, ev, 0));
	EXPECT_EQ(0, asc_wait_flag_timeout(p, ev, 0, 10));
	EXPECT_EQ(0, asc_pipe_reset(p));
	EXPECT_EQ(0, asc_pipe_reset_leftovers(p, NULL, NULL));
	EXPECT_EQ(0, asc_pipe_bind(p, ASC_PIPE_MTE1));
	EXPECT_EQ(0, asc_pipe_set_checked(p, 1));
	EXPECT_EQ(1, asc_pipe_checked(p));
	EXPECT_EQ(11, fake.calls);
	EXPECT_EQ(0, fake.foreign_fd_calls);
}

TEST_HARNESS_MAIN
