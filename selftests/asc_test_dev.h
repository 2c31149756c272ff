/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device under test and its ioctls, as the selftests issue them.
 *
 * The tests talk to /dev/asc_event through raw ioctls (never libasc).  Each
 * wrapper returns the ID, the mode or 0 on success and -errno on failure,
 * so a test reads ASSERT_EQ(-ENOSPC, asc_alloc(fd, event)).  None of them
 * depends on the test harness.
 */
#ifndef ASC_TEST_DEV_H
#define ASC_TEST_DEV_H

#include <stdbool.h>

#include <linux/asc_event.h>

/** ASC_DEV_PATH - the device node, unless $ASC_EVENT_DEV names another. */
#define ASC_DEV_PATH		"/dev/asc_event"

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

#endif /* ASC_TEST_DEV_H */
