// SPDX-License-Identifier: GPL-2.0
/*
 * Threads and processes of a selftest: see asc_test_threads.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asc_test_threads.h"
#include "asc_test_device.h"
#include "asc_test_util.h"

/*
 * Threads and child processes of a selftest: see asc_test_threads.h.
 */
pid_t asc_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

void asc_set_comm(const char *comm)
{
	prctl(PR_SET_NAME, (unsigned long)comm, 0, 0, 0);
}

/* The first line of a small file into @buf: 0, or -1 when it cannot be read. */
static int read_line(const char *path, char *buf, int size)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -1;
	if (!fgets(buf, size, f))
		ret = -1;
	fclose(f);
	return ret;
}

int asc_task_in_ioctl(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *paren;
	long nr;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	paren = strrchr(buf, ')');
	if (!paren || (paren[2] != 'S' && paren[2] != 'D'))
		return 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	if (!strncmp(buf, "running", 7))
		return 0;
	nr = strtol(buf, NULL, 10);
	return nr == SYS_ioctl;
}

bool asc_wait_in_ioctl(pid_t pid, pid_t tid, unsigned int timeout_ms)
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

bool asc_task_gone(pid_t tid, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	while (access(path, F_OK) == 0) {
		if (asc_now_ns() > end)
			return false;
		asc_sleep_ms(1);
	}
	return true;
}

int asc_child_wait(pid_t pid, unsigned int timeout_ms)
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

/*
 * A thread blocked in one wait: see asc_test_threads.h.
 */
void *asc_waiter_fn(void *arg)
{
	struct asc_test_waiter *w = arg;

	atomic_store(&w->tid, asc_gettid());
	w->ret = asc_wait(w->fd, w->event, w->id, w->deadline);
	w->end_ns = asc_now_ns();
	atomic_store(&w->done, 1);
	return NULL;
}

int asc_waiter_start(struct asc_test_waiter *w, int fd, int event, int id, __u64 deadline)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->event = event;
	w->id = id;
	w->deadline = deadline;
	return pthread_create(&w->thread, NULL, asc_waiter_fn, w);
}

bool asc_waiter_blocked(struct asc_test_waiter *w, unsigned int timeout_ms)
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

int asc_waiter_join(struct asc_test_waiter *w, unsigned int timeout_ms)
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

/*
 * Worker threads that run one ioctl at a time: see asc_test_threads.h.
 */
int asc_worker_run_op(int fd, int op, int a, int b, __u64 deadline)
{
	switch (op) {
	case ASC_OP_BIND: return asc_bind(fd, a);
	case ASC_OP_ALLOC: return asc_alloc(fd, a);
	case ASC_OP_FETCH: return asc_fetch(fd, a);
	case ASC_OP_RELEASE: return asc_release(fd, a, b);
	case ASC_OP_SET: return asc_set(fd, a, b);
	case ASC_OP_WAIT: return asc_wait(fd, a, b, deadline);
	case ASC_OP_RESET: return asc_reset(fd, NULL);
	case ASC_OP_EXECUTE: return asc_execute(fd, a, deadline);
	}
	return -ENOSYS;
}

void *asc_worker_fn(void *arg)
{
	struct asc_worker *w = arg;
	int op, a, b, fd, ret;
	unsigned int delay;
	__u64 deadline, start;

	atomic_store(&w->tid, asc_gettid());
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->done == w->posted)
			pthread_cond_wait(&w->cond, &w->lock);
		op = w->op;
		if (op == ASC_OP_QUIT)
			break;
		fd = w->fd;
		a = w->a;
		b = w->b;
		deadline = w->deadline;
		delay = w->delay_ms;
		pthread_mutex_unlock(&w->lock);

		if (delay)
			asc_sleep_ms(delay);
		start = asc_now_ns();
		ret = asc_worker_run_op(fd, op, a, b, deadline);

		pthread_mutex_lock(&w->lock);
		w->ret = ret;
		w->start_ns = start;
		w->end_ns = asc_now_ns();
		w->done++;
		pthread_cond_broadcast(&w->cond);
	}
	w->done++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int asc_worker_start(struct asc_worker *w, int fd)
{
	pthread_condattr_t attr;
	int err;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	err = pthread_create(&w->thread, NULL, asc_worker_fn, w);
	if (err)
		return err;
	w->running = true;
	while (!atomic_load(&w->tid))
		asc_sleep_ms(1);
	return 0;
}

void asc_worker_set_fd(struct asc_worker *w, int fd)
{
	pthread_mutex_lock(&w->lock);
	w->fd = fd;
	pthread_mutex_unlock(&w->lock);
}

int asc_worker_post(struct asc_worker *w, int op, int a, int b,
		    __u64 deadline, unsigned int delay_ms)
{
	pthread_mutex_lock(&w->lock);
	if (w->done != w->posted) {
		pthread_mutex_unlock(&w->lock);
		return -EBUSY;
	}
	w->op = op;
	w->a = a;
	w->b = b;
	w->deadline = deadline;
	w->delay_ms = delay_ms;
	w->posted++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int asc_worker_result(struct asc_worker *w, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);
	struct timespec ts = {
		.tv_sec = (time_t)(end / ASC_NSEC_PER_SEC),
		.tv_nsec = (long)(end % ASC_NSEC_PER_SEC),
	};
	int ret;

	pthread_mutex_lock(&w->lock);
	while (w->done != w->posted) {
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
			break;
	}
	ret = w->done == w->posted ? w->ret : ASC_WORKER_BUSY;
	pthread_mutex_unlock(&w->lock);
	return ret;
}

bool asc_worker_idle(struct asc_worker *w)
{
	bool idle;

	pthread_mutex_lock(&w->lock);
	idle = w->done == w->posted;
	pthread_mutex_unlock(&w->lock);
	return idle;
}

int asc_worker_do(struct asc_worker *w, int op, int a, int b, __u64 deadline)
{
	int ret = asc_worker_post(w, op, a, b, deadline, 0);

	return ret ? ret : asc_worker_result(w, ASC_WORKER_MS);
}

bool asc_worker_blocked(struct asc_worker *w, unsigned int timeout_ms)
{
	return asc_wait_in_ioctl(getpid(), atomic_load(&w->tid), timeout_ms) &&
	       !asc_worker_idle(w);
}

int asc_worker_stop(struct asc_worker *w)
{
	struct timespec ts;
	pid_t tid = atomic_load(&w->tid);

	if (!w->running)
		return 0;
	if (asc_worker_result(w, ASC_WORKER_MS) == ASC_WORKER_BUSY)
		return -EBUSY;
	asc_worker_post(w, ASC_OP_QUIT, 0, 0, 0, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ASC_WORKER_MS / 1000;
	if (pthread_timedjoin_np(w->thread, NULL, &ts))
		return -EBUSY;
	w->running = false;
	return asc_task_gone(tid, ASC_WORKER_MS) ? 0 : -EBUSY;
}

void asc_workers_stop(struct asc_worker *w, int n, int fd)
{
	bool reset = false;
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].running && !asc_worker_idle(&w[i]) && !reset && fd >= 0) {
			asc_reset(fd, NULL);
			reset = true;
		}
	}
	for (i = 0; i < n; i++)
		asc_worker_stop(&w[i]);
}
