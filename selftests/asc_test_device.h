/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device under test: its ioctls as the selftests issue them, the module
 * (loaded, unloaded, loaded again) and the HardEvents and pipes as the tests
 * name them.
 */
#ifndef ASC_TEST_DEVICE_H
#define ASC_TEST_DEVICE_H

#include <stdbool.h>
#include <linux/asc_event.h>

/*
 * The device under test and its ioctls, as the selftests issue them.
 *
 * The tests talk to /dev/asc_event through raw ioctls (never libasc).  Each
 * wrapper returns the ID, the mode or 0 on success and -errno on failure,
 * so a test reads ASSERT_EQ(-ENOSPC, asc_alloc(fd, event)).  None of them
 * depends on the test harness.
 */
/** ASC_DEV_PATH - the device node, unless $ASC_EVENT_DEV names another. */
#define ASC_DEV_PATH		"/dev/asc_event"

/** ASC_DEV_FEATURES - the ASC_EVENT_FEATURE_* bits INFO must report. */
#define ASC_DEV_FEATURES						\
	(ASC_EVENT_FEATURE_CHECKED | ASC_EVENT_FEATURE_ISSUE |		\
	 ASC_EVENT_FEATURE_LAUNCH | ASC_EVENT_FEATURE_MAP |		\
	 ASC_EVENT_FEATURE_SYNC_AIV | ASC_EVENT_FEATURE_MAP_BOUND |	\
	 ASC_EVENT_FEATURE_MAP_IDS)

/** ASC_NR_EVENTS - number of HardEvents, as an int for loop counters. */
#define ASC_NR_EVENTS		((int)ASC_EVENT_NR_HARD_EVENTS)

/**
 * asc_dev_path() - path of the device under test.
 *
 * Every selftest program finds the device through this function.
 *
 * Return: $ASC_EVENT_DEV when set and not empty, else %ASC_DEV_PATH.
 */
const char *asc_dev_path(void);

/**
 * asc_dev_absent() - does a failed open of the device mean "not here for us"?
 * @err: the errno of the open.
 *
 * Return: true for ENOENT, ENODEV, ENXIO (no module loaded), EACCES and
 * EPERM (not allowed): reasons to skip a test rather than fail it.
 */
bool asc_dev_absent(int err);

/**
 * asc_open() - open the device read-write, close-on-exec.
 *
 * Return: a file descriptor, or -1 with errno set.
 */
int asc_open(void);

/**
 * asc_ioctl() - issue one ioctl.
 * @fd: open device.
 * @cmd: ioctl number.
 * @arg: argument pointer (may be bad on purpose).
 *
 * Return: what the ioctl returned when it succeeded, -errno otherwise.
 */
int asc_ioctl(int fd, unsigned long cmd, void *arg);

/**
 * asc_info() - %ASC_EVENT_IOC_INFO.
 * @fd: open device.
 * @info: filled in.
 *
 * Return: 0 or -errno.
 */
int asc_info(int fd, struct asc_event_info *info);

/**
 * asc_alloc() - %ASC_EVENT_IOC_ALLOC_ID on @event.
 * @fd: open device.
 * @event: HardEvent number (anything, to test validation).
 *
 * Return: the ID taken, or -errno.
 */
int asc_alloc(int fd, int event);

/**
 * asc_fetch() - %ASC_EVENT_IOC_FETCH_ID on @event.
 * @fd: open device.
 * @event: HardEvent number.
 *
 * Return: the lowest free ID, or -errno.
 */
int asc_fetch(int fd, int event);

/**
 * asc_release() - %ASC_EVENT_IOC_RELEASE_ID.
 * @fd: open device.
 * @event: HardEvent number.
 * @id: event ID.
 *
 * Return: 0 or -errno.
 */
int asc_release(int fd, int event, int id);

/**
 * asc_set() - %ASC_EVENT_IOC_SET_FLAG.
 * @fd: open device.
 * @event: HardEvent number.
 * @id: event ID.
 *
 * Return: 0 or -errno.
 */
int asc_set(int fd, int event, int id);

/**
 * asc_wait() - %ASC_EVENT_IOC_WAIT_FLAG.
 * @fd: open device.
 * @event: HardEvent number.
 * @id: event ID.
 * @deadline: absolute CLOCK_MONOTONIC ns, or %ASC_EVENT_WAIT_FOREVER.
 *
 * Return: 0 or -errno.
 */
int asc_wait(int fd, int event, int id, __u64 deadline);

/**
 * asc_reset() - %ASC_EVENT_IOC_RESET.
 * @fd: open device.
 * @out: receives the counts; may be NULL when they do not matter.
 *
 * Return: 0 or -errno.
 */
int asc_reset(int fd, struct asc_event_reset *out);

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
int asc_set_unchecked(int fd);

/**
 * asc_bind_flags() - %ASC_EVENT_IOC_BIND_PIPE with explicit flags.
 * @fd: open device.
 * @pipe: ASC_EVENT_PIPE_*, %ASC_EVENT_PIPE_NONE or anything (to test validation).
 * @flags: the flags field.
 *
 * Return: 0 or -errno.
 */
int asc_bind_flags(int fd, int pipe, __u32 flags);

/**
 * asc_bind() - bind the calling thread to @pipe on @fd's TPipe.
 * @fd: open device.
 * @pipe: ASC_EVENT_PIPE_* or %ASC_EVENT_PIPE_NONE.
 *
 * Return: 0 or -errno.
 */
int asc_bind(int fd, int pipe);

/**
 * asc_get_mode() - %ASC_EVENT_IOC_GET_MODE.
 * @fd: open device.
 *
 * Return: the mode (ASC_EVENT_MODE_* bits, never negative), -errno, or
 * -EPROTO when the driver wrote a non-zero pad.
 */
int asc_get_mode(int fd);

/**
 * asc_set_mode_pad() - %ASC_EVENT_IOC_SET_MODE with an explicit pad.
 * @fd: open device.
 * @mode: ASC_EVENT_MODE_* bits (or others, to test validation).
 * @pad: the pad field.
 *
 * Return: 0 or -errno.
 */
int asc_set_mode_pad(int fd, __u32 mode, __u32 pad);

/**
 * asc_set_mode() - %ASC_EVENT_IOC_SET_MODE.
 * @fd: open device.
 * @mode: ASC_EVENT_MODE_* bits.
 *
 * Return: 0 or -errno.
 */
int asc_set_mode(int fd, __u32 mode);

/**
 * asc_issue() - %ASC_EVENT_IOC_ISSUE.
 * @fd: open device.
 * @op: %ASC_EVENT_OP_SET or %ASC_EVENT_OP_WAIT (or anything, to test).
 * @event: HardEvent.
 * @id: event ID.
 *
 * Return: the ticket (positive), or -errno.
 */
long long asc_issue(int fd, __u32 op, int event, int id);

/**
 * asc_execute() - %ASC_EVENT_IOC_EXECUTE.
 * @fd: open device.
 * @ticket: from asc_issue().
 * @deadline: for a wait.
 *
 * Return: 0 or -errno.
 */
int asc_execute(int fd, long long ticket, __u64 deadline);

/*
 * The module under test: is it loaded, unload it, load it again from the
 * .ko the test runner names in $ASC_EVENT_KO (root only).
 */
/** MODULE_NAME - the module under test, as the module loader names it. */
#define MODULE_NAME	"asc_event"

/** MODULE_SYSFS - its sysfs directory (parameters/, refcnt). */
#define MODULE_SYSFS	"/sys/module/" MODULE_NAME

/**
 * module_loaded() - is the module loaded?
 *
 * Return: true when %MODULE_SYSFS exists.
 */
bool module_loaded(void);

/**
 * module_unload() - delete_module() without waiting.
 *
 * Return: 0 or -errno (-EWOULDBLOCK while the module is in use).
 */
int module_unload(void);

/**
 * module_load() - finit_module() of $ASC_EVENT_KO.
 * @params: module parameters, e.g. "event_ids=4"; "" for none.
 *
 * Return: 0 or -errno (-ENOENT when $ASC_EVENT_KO is not set, is empty or
 * names no file).
 */
int module_load(const char *params);

/*
 * The HardEvents and pipes as the selftests see them: the name of each
 * HardEvent, the pipe that sets and the pipe that waits for it, and the
 * names of the pipes.
 */
/*
 * ASC_HARD_EVENTS lists every HardEvent once, as X(SRC, DST), in number
 * order; names and pipe columns are made from those two tokens.
 * asc_test_device.c checks each entry at build time against the uAPI's
 * enum, the one source of the numbering: an entry out of place, a missing
 * one or a misspelt one does not compile.
 */
#define ASC_HARD_EVENTS(X)						\
	X(MTE2, MTE1) X(MTE1, MTE2) X(MTE1, M) X(M, MTE1) X(MTE2, V)	\
	X(V, MTE2) X(MTE3, V) X(V, MTE3) X(M, V) X(V, M) X(V, V)	\
	X(MTE3, MTE1) X(MTE1, MTE3) X(MTE1, V) X(MTE2, M) X(M, MTE2)	\
	X(V, MTE1) X(M, FIX) X(FIX, M) X(MTE3, MTE2) X(MTE2, MTE3) X(S, V)	\
	X(V, S) X(S, MTE2) X(MTE2, S) X(S, MTE3) X(MTE3, S) X(MTE2, FIX)	\
	X(FIX, MTE2) X(FIX, S) X(M, S) X(FIX, MTE3) X(MTE1, FIX)	\
	X(FIX, MTE1) X(FIX, FIX)

/** ASC_NR_PIPES - the pipes a thread can bind to. */
#define ASC_NR_PIPES	7

/**
 * asc_event_name() - name of a HardEvent ("MTE2_V").
 * @event: HardEvent number.
 *
 * Return: the name, or "?" out of range.
 */
const char *asc_event_name(int event);

/**
 * asc_event_src() - the pipe that sets a HardEvent's flags.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 *
 * Return: ASC_EVENT_PIPE_* number.
 */
int asc_event_src(int event);

/**
 * asc_event_dst() - the pipe that waits for a HardEvent's flags.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 *
 * Return: ASC_EVENT_PIPE_* number.
 */
int asc_event_dst(int event);

/**
 * asc_pipe_at() - the @i-th pipe, in ASC_EVENT_PIPE_* order.
 * @i: 0 .. %ASC_NR_PIPES - 1.
 *
 * Return: its ASC_EVENT_PIPE_* number.
 */
int asc_pipe_at(int i);

/**
 * asc_pipe_name() - the name of a pipe as the driver prints it.
 * @pipe: ASC_EVENT_PIPE_* or %ASC_EVENT_PIPE_NONE.
 *
 * Return: "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"; "-" for
 * %ASC_EVENT_PIPE_NONE; "?" for anything else.
 */
const char *asc_pipe_name(int pipe);

#endif /* ASC_TEST_DEVICE_H */
