/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct asc_waiter: a thread blocked in one ASC_EVENT_IOC_WAIT_FLAG, so a
 * test can check what ends the wait (a set, a reset, a close, a signal)
 * and when.
 */
#ifndef ASC_TEST_WAITER_H
#define ASC_TEST_WAITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <linux/types.h>

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
void *asc_waiter_fn(void *arg);

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
int asc_waiter_start(struct asc_waiter *w, int fd, int event, int id, __u64 deadline);

/**
 * asc_waiter_blocked() - wait until @w sleeps in its ioctl.
 * @w: a started waiter.
 * @timeout_ms: give up after this long.
 *
 * Return: true when it is blocked; false when it returned or never slept.
 */
bool asc_waiter_blocked(struct asc_waiter *w, unsigned int timeout_ms);

/**
 * asc_waiter_join() - join @w, giving up after @timeout_ms.
 * @w: a started waiter.
 * @timeout_ms: how long to wait for it.
 *
 * Return: 0 when joined, ETIMEDOUT when it is still running.
 */
int asc_waiter_join(struct asc_waiter *w, unsigned int timeout_ms);

#endif /* ASC_TEST_WAITER_H */
