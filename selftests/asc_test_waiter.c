// SPDX-License-Identifier: GPL-2.0
/*
 * A thread blocked in one wait: see asc_test_waiter.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* pthread_timedjoin_np() */
#endif

#include "asc_test_waiter.h"
#include "asc_test_dev.h"
#include "asc_test_task.h"
#include "asc_test_time.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

void *asc_waiter_fn(void *arg)
{
	struct asc_waiter *w = arg;

	atomic_store(&w->tid, asc_gettid());
	w->ret = asc_wait(w->fd, w->event, w->id, w->deadline);
	w->end_ns = asc_now_ns();
	atomic_store(&w->done, 1);
	return NULL;
}

int asc_waiter_start(struct asc_waiter *w, int fd, int event, int id, __u64 deadline)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->event = event;
	w->id = id;
	w->deadline = deadline;
	return pthread_create(&w->thread, NULL, asc_waiter_fn, w);
}

bool asc_waiter_blocked(struct asc_waiter *w, unsigned int timeout_ms)
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

int asc_waiter_join(struct asc_waiter *w, unsigned int timeout_ms)
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
