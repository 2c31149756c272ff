/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the asc_event selftests.
 *
 * The tests talk to /dev/asc_event through raw ioctls (never libasc): the
 * wrappers below return the ID or 0 on success and -errno on failure, so a
 * test reads ASSERT_EQ(-ENOSPC, asc_alloc(fd, event)).  Every test uses a
 * fixture made by ASC_FIXTURE(), which opens the device, reads its geometry
 * and skips the test when the device is absent or not accessible.
 *
 * Only static inline functions and macros live here, so a program that
 * does not use one of them still builds with -Wall -Wextra -Werror.
 *
 * ASSERT_*() and EXPECT_*() expand to two statements (the check, then a loop
 * that runs an optional TH_LOG()), so the body of every if/for that holds
 * one is braced.
 */
#ifndef ASC_EVENT_TEST_H
#define ASC_EVENT_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/asc_event.h>

/*
 * The harness of Linux 6.1 has an unused parameter, which -Wextra -Werror
 * would turn into an error in every program.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

/** ASC_DEV_PATH - the device node, unless $ASC_EVENT_DEV names another. */
#define ASC_DEV_PATH		"/dev/asc_event"

/** ASC_NR_EVENTS - number of HardEvents, as an int for loop counters. */
#define ASC_NR_EVENTS		((int)ASC_EVENT_NR_HARD_EVENTS)

/** ASC_NSEC_PER_MSEC - nanoseconds in a millisecond. */
#define ASC_NSEC_PER_MSEC	1000000ULL

/** ASC_NSEC_PER_SEC - nanoseconds in a second. */
#define ASC_NSEC_PER_SEC	1000000000ULL

/*
 * How a test process tells the harness "skipped" when it has to stop in a
 * fixture setup: kselftest_harness.h of Linux 6.1 takes exit status 255 (and
 * would run the test body after a plain SKIP(return) in a setup), the
 * harness of Linux 6.10 and later (which has XFAIL_ADD) takes KSFT_SKIP.
 */
#ifdef XFAIL_ADD
#define ASC_HARNESS_SKIP_STATUS	KSFT_SKIP
#else
#define ASC_HARNESS_SKIP_STATUS	255
#endif

/**
 * ASC_SKIP_SETUP() - skip the current test from its fixture setup.
 * @fmt: reason, printf-style, then its arguments.
 *
 * Records the reason and ends the test process, so the test body never runs.
 */
#define ASC_SKIP_SETUP(fmt, ...)					\
	SKIP(_exit(ASC_HARNESS_SKIP_STATUS), "%s: " fmt, _metadata->name, ##__VA_ARGS__)

/**
 * asc_dev_path() - path of the device under test.
 *
 * Return: $ASC_EVENT_DEV when set and not empty, else %ASC_DEV_PATH.
 */
static inline const char *asc_dev_path(void)
{
	const char *path = getenv("ASC_EVENT_DEV");

	return path && *path ? path : ASC_DEV_PATH;
}

/**
 * asc_open() - open the device read-write, close-on-exec.
 *
 * Return: a file descriptor, or -1 with errno set.
 */
static inline int asc_open(void)
{
	return open(asc_dev_path(), O_RDWR | O_CLOEXEC);
}

/**
 * asc_ioctl() - issue one ioctl.
 * @fd: open device.
 * @cmd: ioctl number.
 * @arg: argument pointer (may be bad on purpose).
 *
 * Return: what the ioctl returned when it succeeded, -errno otherwise.
 */
static inline int asc_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	return ret < 0 ? -errno : ret;
}

/**
 * asc_info() - %ASC_EVENT_IOC_INFO.
 * @fd: open device.
 * @info: filled in.
 *
 * Return: 0 or -errno.
 */
static inline int asc_info(int fd, struct asc_event_info *info)
{
	return asc_ioctl(fd, ASC_EVENT_IOC_INFO, info);
}

/**
 * asc_alloc() - %ASC_EVENT_IOC_ALLOC_ID on @event.
 * @fd: open device.
 * @event: HardEvent number (anything, to test validation).
 *
 * Return: the ID taken, or -errno.
 */
static inline int asc_alloc(int fd, int event)
{
	struct asc_event_ref ref = { .event = event };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_ALLOC_ID, &ref);

	return ret ? ret : (int)ref.id;
}

/**
 * asc_fetch() - %ASC_EVENT_IOC_FETCH_ID on @event.
 * @fd: open device.
 * @event: HardEvent number.
 *
 * Return: the lowest free ID, or -errno.
 */
static inline int asc_fetch(int fd, int event)
{
	struct asc_event_ref ref = { .event = event };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_FETCH_ID, &ref);

	return ret ? ret : (int)ref.id;
}

/**
 * asc_release() - %ASC_EVENT_IOC_RELEASE_ID.
 * @fd: open device.
 * @event: HardEvent number.
 * @id: event ID.
 *
 * Return: 0 or -errno.
 */
static inline int asc_release(int fd, int event, int id)
{
	struct asc_event_ref ref = { .event = event, .id = id };

	return asc_ioctl(fd, ASC_EVENT_IOC_RELEASE_ID, &ref);
}

/**
 * asc_set() - %ASC_EVENT_IOC_SET_FLAG.
 * @fd: open device.
 * @event: HardEvent number.
 * @id: event ID.
 *
 * Return: 0 or -errno.
 */
static inline int asc_set(int fd, int event, int id)
{
	struct asc_event_ref ref = { .event = event, .id = id };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_FLAG, &ref);
}

/**
 * asc_wait() - %ASC_EVENT_IOC_WAIT_FLAG.
 * @fd: open device.
 * @event: HardEvent number.
 * @id: event ID.
 * @deadline: absolute CLOCK_MONOTONIC ns, or %ASC_EVENT_WAIT_FOREVER.
 *
 * Return: 0 or -errno.
 */
static inline int asc_wait(int fd, int event, int id, __u64 deadline)
{
	struct asc_event_wait wait = {
		.deadline = deadline,
		.event = event,
		.id = id,
	};

	return asc_ioctl(fd, ASC_EVENT_IOC_WAIT_FLAG, &wait);
}

/**
 * asc_reset() - %ASC_EVENT_IOC_RESET.
 * @fd: open device.
 * @out: receives the counts; may be NULL when they do not matter.
 *
 * Return: 0 or -errno.
 */
static inline int asc_reset(int fd, struct asc_event_reset *out)
{
	struct asc_event_reset reset = { 0 };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_RESET, &reset);

	if (out)
		*out = reset;
	return ret;
}

/**
 * ASSERT_RESET() - reset @fd and assert what it reports.
 * @fd: open device.
 * @held: expected ids_held.
 * @pending: expected flags_pending.
 */
#define ASSERT_RESET(fd, held, pending) do {				\
	struct asc_event_reset __r;					\
									\
	ASSERT_EQ(0, asc_reset((fd), &__r));				\
	ASSERT_EQ((__u32)(held), __r.ids_held);				\
	ASSERT_EQ((__u32)(pending), __r.flags_pending);			\
} while (0)

/**
 * asc_now_ns() - CLOCK_MONOTONIC now, in ns.
 *
 * Return: the time, in the caller's time namespace.
 */
static inline __u64 asc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * ASC_NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

/**
 * asc_deadline_ms() - an absolute deadline @ms milliseconds from now.
 * @ms: milliseconds.
 *
 * Return: CLOCK_MONOTONIC ns.
 */
static inline __u64 asc_deadline_ms(unsigned int ms)
{
	return asc_now_ns() + ms * ASC_NSEC_PER_MSEC;
}

/**
 * asc_sleep_ms() - sleep @ms milliseconds, resuming after signals.
 * @ms: milliseconds.
 */
static inline void asc_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/**
 * asc_ms_since() - milliseconds elapsed since @start_ns.
 * @start_ns: an asc_now_ns() value.
 *
 * Return: whole milliseconds.
 */
static inline long asc_ms_since(__u64 start_ns)
{
	return (long)((asc_now_ns() - start_ns) / ASC_NSEC_PER_MSEC);
}

/**
 * asc_gettid() - the calling thread's kernel thread ID.
 *
 * Return: the TID.
 */
static inline pid_t asc_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/**
 * asc_task_in_ioctl() - is a task asleep inside an ioctl() right now?
 * @pid: thread group (process) ID.
 * @tid: thread ID within @pid.
 *
 * Reads /proc/PID/task/TID/stat (state S or D) and .../syscall (the system
 * call number).
 *
 * Return: 1 if so, 0 if not, -1 if /proc cannot tell.
 */
static inline int asc_task_in_ioctl(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *paren;
	long nr;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	paren = strrchr(buf, ')');
	if (!paren || (paren[2] != 'S' && paren[2] != 'D'))
		return 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	if (!strncmp(buf, "running", 7))
		return 0;
	nr = strtol(buf, NULL, 10);
	return nr == SYS_ioctl;
}

/**
 * asc_wait_in_ioctl() - wait until a task sleeps in an ioctl().
 * @pid: process ID.
 * @tid: thread ID.
 * @timeout_ms: give up after this long.
 *
 * The task must be seen asleep in the ioctl twice in a row, 5 ms apart, so
 * a short sleep on a lock on the way in does not count.  When /proc cannot
 * tell, this sleeps 100 ms and hopes.
 *
 * Return: true when the task is blocked in an ioctl, false on timeout.
 */
static inline bool asc_wait_in_ioctl(pid_t pid, pid_t tid, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);
	int seen = 0, r;

	for (;;) {
		r = asc_task_in_ioctl(pid, tid);
		if (r < 0) {
			asc_sleep_ms(100);
			return true;
		}
		seen = r ? seen + 1 : 0;
		if (seen >= 2)
			return true;
		if (asc_now_ns() > end)
			return false;
		asc_sleep_ms(5);
	}
}

/**
 * struct asc_waiter - a thread blocked in one %ASC_EVENT_IOC_WAIT_FLAG.
 * @thread: the thread.
 * @fd: device it waits on.
 * @event: HardEvent.
 * @id: event ID.
 * @deadline: absolute deadline passed to the ioctl.
 * @tid: the thread's TID, set before it waits (0 until then).
 * @done: set once the ioctl returned.
 * @ret: what the ioctl returned: 0 or -errno.
 * @end_ns: CLOCK_MONOTONIC when it returned.
 */
struct asc_waiter {
	pthread_t thread;
	int fd;
	int event;
	int id;
	__u64 deadline;
	atomic_int tid;
	atomic_int done;
	int ret;
	__u64 end_ns;
};

/**
 * asc_waiter_fn() - body of an asc_waiter thread.
 * @arg: the struct asc_waiter.
 *
 * Return: NULL.
 */
static inline void *asc_waiter_fn(void *arg)
{
	struct asc_waiter *w = arg;

	atomic_store(&w->tid, asc_gettid());
	w->ret = asc_wait(w->fd, w->event, w->id, w->deadline);
	w->end_ns = asc_now_ns();
	atomic_store(&w->done, 1);
	return NULL;
}

/**
 * asc_waiter_start() - start a thread waiting for one flag.
 * @w: waiter to fill in and start.
 * @fd: device.
 * @event: HardEvent.
 * @id: event ID.
 * @deadline: absolute deadline for the wait.
 *
 * Return: 0 or an error number from pthread_create().
 */
static inline int asc_waiter_start(struct asc_waiter *w, int fd, int event, int id,
				   __u64 deadline)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->event = event;
	w->id = id;
	w->deadline = deadline;
	return pthread_create(&w->thread, NULL, asc_waiter_fn, w);
}

/**
 * asc_waiter_blocked() - wait until @w sleeps in its ioctl.
 * @w: a started waiter.
 * @timeout_ms: give up after this long.
 *
 * Return: true when it is blocked; false when it returned or never slept.
 */
static inline bool asc_waiter_blocked(struct asc_waiter *w, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);

	while (!atomic_load(&w->tid)) {
		if (asc_now_ns() > end)
			return false;
		asc_sleep_ms(1);
	}
	return asc_wait_in_ioctl(getpid(), atomic_load(&w->tid), timeout_ms) &&
	       !atomic_load(&w->done);
}

/**
 * asc_waiter_join() - join @w, giving up after @timeout_ms.
 * @w: a started waiter.
 * @timeout_ms: how long to wait for it.
 *
 * Return: 0 when joined, ETIMEDOUT when it is still running.
 */
static inline int asc_waiter_join(struct asc_waiter *w, unsigned int timeout_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return pthread_timedjoin_np(w->thread, NULL, &ts);
}

/**
 * asc_child_wait() - reap child @pid, killing it after @timeout_ms.
 * @pid: child process.
 * @timeout_ms: how long it may take.
 *
 * Return: its exit status (0..255), 256 + signal number if it was killed by
 * a signal, or -1 if it had to be killed for taking too long.
 */
static inline int asc_child_wait(pid_t pid, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (asc_now_ns() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		asc_sleep_ms(2);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 256 + WTERMSIG(status);
}

/**
 * asc_opened_or_skip() - check a fixture's open of the device, or skip.
 * @_metadata: the harness's test metadata.
 * @fd: what the open returned, errno set when it is negative.
 *
 * Skips when the node is absent (no module loaded) or not accessible (not
 * root); fails on any other error.
 *
 * Return: @fd, an open file descriptor.
 */
static inline int asc_opened_or_skip(struct __test_metadata *_metadata, int fd)
{
	if (fd < 0 && (errno == ENOENT || errno == ENODEV || errno == ENXIO ||
		       errno == EACCES || errno == EPERM))
		ASC_SKIP_SETUP("%s: %s", asc_dev_path(), strerror(errno));
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", asc_dev_path(), strerror(errno));
	return fd;
}

/**
 * asc_open_or_skip() - open the device for a fixture, or skip the test.
 * @_metadata: the harness's test metadata.
 *
 * As asc_opened_or_skip() for asc_open().
 *
 * Return: an open file descriptor.
 */
static inline int asc_open_or_skip(struct __test_metadata *_metadata)
{
	return asc_opened_or_skip(_metadata, asc_open());
}

/**
 * asc_event_ids() - the geometry of an open device (IDs per HardEvent).
 * @_metadata: the harness's test metadata.
 * @fd: open device.
 *
 * Return: event_ids from %ASC_EVENT_IOC_INFO, checked to be 1..64.
 */
static inline int asc_event_ids(struct __test_metadata *_metadata, int fd)
{
	struct asc_event_info info;

	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, asc_info(fd, &info));
	ASSERT_LE(1U, info.event_ids);
	ASSERT_GE((__u32)ASC_EVENT_IDS_MAX, info.event_ids);
	return (int)info.event_ids;
}

/**
 * ASC_FIXTURE() - the fixture every asc_event test uses.
 * @name: fixture name (the first part of each test's TAP name).
 *
 * self->fd is an open device, self->ids its event_ids.  A test that closes
 * self->fd sets it to -1.
 */
#define ASC_FIXTURE(name)						\
	FIXTURE(name) {							\
		int fd;							\
		int ids;						\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		self->fd = asc_open_or_skip(_metadata);			\
		self->ids = asc_event_ids(_metadata, self->fd);		\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		if (self->fd >= 0)					\
			close(self->fd);				\
	}

/* The module under test, as the module loader names it. */
#define MODULE_NAME	"asc_event"
#define MODULE_SYSFS	"/sys/module/" MODULE_NAME

static inline bool module_loaded(void)
{
	return access(MODULE_SYSFS, F_OK) == 0;
}

/* delete_module() without waiting: 0 or -errno (-EWOULDBLOCK while in use). */
static inline int module_unload(void)
{
	return syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK) ? -errno : 0;
}

/* finit_module() of $ASC_EVENT_KO with @params: 0 or -errno. */
static inline int module_load(const char *params)
{
	int fd = open(getenv("ASC_EVENT_KO"), O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/**
 * asc_set_unchecked() - turn checked mode off for the TPipe of @fd.
 * @fd: open device.
 *
 * %ASC_EVENT_IOC_SET_MODE with mode 0.  For tests of the raw flag
 * semantics on arbitrary (event, id) pairs, which checked mode (the
 * default) refuses as hand-written IDs (-ENOENT).  The mode belongs to the
 * open file: every descriptor of it, dup()ed or inherited, sees it; a new
 * open starts with the module parameter "checked" again.
 *
 * Return: 0 or -errno.
 */
static inline int asc_set_unchecked(int fd)
{
	struct asc_event_mode mode = { .mode = 0, .pad = 0 };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_MODE, &mode);
}

#endif /* ASC_EVENT_TEST_H */
