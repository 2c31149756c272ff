/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads and processes of a selftest: how the kernel sees them, a thread
 * blocked in one wait, and workers that run ioctls for the test.
 */
#ifndef ASC_TEST_THREADS_H
#define ASC_TEST_THREADS_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>
#include <linux/asc_event.h>	/* ASC_EVENT_WAIT_FOREVER, for W_EXEC() */
#include <linux/types.h>

/*
 * Threads and child processes of a selftest, as the kernel sees them: their
 * thread IDs and names, whether one sleeps in an ioctl (from /proc), and
 * reaping a child with a time limit.
 */
/**
 * asc_gettid() - the calling thread's kernel thread ID.
 *
 * Return: the TID.
 */
pid_t asc_gettid(void);

/**
 * asc_set_comm() - name the calling thread (and so a process that has
 * only this thread) as the kernel reports it.
 * @comm: at most 15 characters.
 */
void asc_set_comm(const char *comm);

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
int asc_task_in_ioctl(pid_t pid, pid_t tid);

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
bool asc_wait_in_ioctl(pid_t pid, pid_t tid, unsigned int timeout_ms);

/**
 * asc_task_gone() - wait until thread @tid of this process has left /proc.
 * @tid: thread ID.
 * @timeout_ms: give up after this long.
 *
 * Return: true once /proc/self/task/TID is gone.
 */
bool asc_task_gone(pid_t tid, unsigned int timeout_ms);

/**
 * asc_child_wait() - reap child @pid, killing it after @timeout_ms.
 * @pid: child process.
 * @timeout_ms: how long it may take.
 *
 * Return: its exit status (0..255), 256 + signal number if it was killed by
 * a signal, or -1 if it had to be killed for taking too long.
 */
int asc_child_wait(pid_t pid, unsigned int timeout_ms);

/*
 * struct asc_test_waiter: a thread blocked in one ASC_EVENT_IOC_WAIT_FLAG, so a
 * test can check what ends the wait (a set, a reset, a close, a signal)
 * and when.
 */
/**
 * struct asc_test_waiter - a thread blocked in one %ASC_EVENT_IOC_WAIT_FLAG.
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
struct asc_test_waiter {
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
 * asc_waiter_fn() - body of a waiter thread.
 * @arg: the struct asc_test_waiter.
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
int asc_waiter_start(struct asc_test_waiter *w, int fd, int event, int id, __u64 deadline);

/**
 * asc_waiter_blocked() - wait until @w sleeps in its ioctl.
 * @w: a started waiter.
 * @timeout_ms: give up after this long.
 *
 * Return: true when it is blocked; false when it returned or never slept.
 */
bool asc_waiter_blocked(struct asc_test_waiter *w, unsigned int timeout_ms);

/**
 * asc_waiter_join() - join @w, giving up after @timeout_ms.
 * @w: a started waiter.
 * @timeout_ms: how long to wait for it.
 *
 * Return: 0 when joined, ETIMEDOUT when it is still running.
 */
int asc_waiter_join(struct asc_test_waiter *w, unsigned int timeout_ms);

/*
 * struct asc_worker: a thread that runs the ioctls the test hands it, one
 * at a time, so a test can speak for several pipes (a binding belongs to
 * the calling thread) and keep one of them blocked in a wait.
 */
/*
 * What a worker runs.  Each is one ioctl on the worker's fd (ALLOC and FETCH
 * return the ID), except QUIT, which ends the thread.
 */
enum asc_op {
	ASC_OP_BIND,		/* a = pipe */
	ASC_OP_ALLOC,		/* a = event */
	ASC_OP_FETCH,		/* a = event */
	ASC_OP_RELEASE,		/* a = event, b = id */
	ASC_OP_SET,		/* a = event, b = id */
	ASC_OP_WAIT,		/* a = event, b = id, deadline */
	ASC_OP_RESET,
	ASC_OP_EXECUTE,		/* a = ticket, deadline */
	ASC_OP_QUIT,
};

/** ASC_WORKER_BUSY - what asc_worker_do() returns when the op did not end. */
#define ASC_WORKER_BUSY		INT_MIN

/** ASC_WORKER_MS - how long a synchronous worker op may take. */
#define ASC_WORKER_MS		5000

/**
 * struct asc_worker - a thread that runs one ioctl at a time for the test.
 *
 * The test posts an op (asc_worker_post()), the thread runs it, after
 * sleeping @delay_ms first when asked, and records the result; the test
 * collects it with asc_worker_result() or does both with asc_worker_do().
 * @posted and @done count ops, so "@done == @posted" means idle.  All fields
 * but @tid are under @lock.  The thread keeps its TID, hence its bindings,
 * until asc_worker_stop().
 *
 * @thread: the thread.
 * @lock: protects the fields below.
 * @cond: signalled on every post and every completion.
 * @fd: device for the ops.
 * @op: enum asc_op of the last posted op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: deadline of an %ASC_OP_WAIT or %ASC_OP_EXECUTE.
 * @delay_ms: sleep before the ioctl.
 * @posted: ops posted so far.
 * @done: ops finished so far.
 * @ret: result of the last finished op: ID, 0 or -errno.
 * @start_ns: CLOCK_MONOTONIC when the last op's ioctl started.
 * @end_ns: CLOCK_MONOTONIC when the last op finished.
 * @tid: the thread's TID (0 until it runs).
 * @running: the thread exists and has not been joined.
 */
struct asc_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int fd;
	int op;
	int a;
	int b;
	__u64 deadline;
	unsigned int delay_ms;
	unsigned int posted;
	unsigned int done;
	int ret;
	__u64 start_ns;
	__u64 end_ns;
	atomic_int tid;
	bool running;
};

/**
 * asc_worker_run_op() - run one op on @fd from the calling thread.
 * @fd: device.
 * @op: enum asc_op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: for %ASC_OP_WAIT and %ASC_OP_EXECUTE.
 *
 * Return: what the ioctl wrapper returned.
 */
int asc_worker_run_op(int fd, int op, int a, int b, __u64 deadline);

/**
 * asc_worker_fn() - body of a worker thread.
 * @arg: the struct asc_worker.
 *
 * Return: NULL.
 */
void *asc_worker_fn(void *arg);

/**
 * asc_worker_start() - start a worker on @fd and wait until it runs.
 * @w: worker to initialise.
 * @fd: device for its ops.
 *
 * Return: 0 or an error number.
 */
int asc_worker_start(struct asc_worker *w, int fd);

/**
 * asc_worker_set_fd() - make an idle worker's next ops go to @fd.
 * @w: a started, idle worker.
 * @fd: device.
 */
void asc_worker_set_fd(struct asc_worker *w, int fd);

/**
 * asc_worker_post() - hand an op to an idle worker and return at once.
 * @w: a started worker.
 * @op: enum asc_op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: for %ASC_OP_WAIT and %ASC_OP_EXECUTE.
 * @delay_ms: sleep this long before the ioctl.
 *
 * Return: 0, or -EBUSY while the previous op runs.
 */
int asc_worker_post(struct asc_worker *w, int op, int a, int b,
		    __u64 deadline, unsigned int delay_ms);

/**
 * asc_worker_result() - wait for the posted op to finish.
 * @w: a started worker.
 * @timeout_ms: how long to wait.
 *
 * Return: the op's result, or %ASC_WORKER_BUSY when it is still running.
 */
int asc_worker_result(struct asc_worker *w, unsigned int timeout_ms);

/**
 * asc_worker_idle() - has the posted op finished?
 * @w: a started worker.
 *
 * Return: true when the worker is idle.
 */
bool asc_worker_idle(struct asc_worker *w);

/**
 * asc_worker_do() - run an op on the worker and wait for its result.
 * @w: a started, idle worker.
 * @op: enum asc_op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: for %ASC_OP_WAIT and %ASC_OP_EXECUTE.
 *
 * Return: the op's result, %ASC_WORKER_BUSY when it did not finish within
 * %ASC_WORKER_MS or -EBUSY when the worker was not idle.
 */
int asc_worker_do(struct asc_worker *w, int op, int a, int b, __u64 deadline);

/**
 * asc_worker_blocked() - wait until the worker sleeps in its ioctl.
 * @w: a worker with a posted op.
 * @timeout_ms: give up after this long.
 *
 * Return: true when it is blocked in the ioctl and its op has not ended.
 */
bool asc_worker_blocked(struct asc_worker *w, unsigned int timeout_ms);

/**
 * asc_worker_stop() - end an idle worker's thread and reap it completely.
 * @w: a started worker; a no-op when it is not running.
 *
 * Waits up to %ASC_WORKER_MS for a running op first.  Returns once the
 * thread has exited and left /proc, so the driver sees it gone.
 *
 * Return: 0, or -EBUSY when the thread did not end.
 */
int asc_worker_stop(struct asc_worker *w);

/**
 * asc_workers_stop() - stop every running worker of @w, for a teardown.
 * @w: array of @n workers.
 * @n: how many.
 * @fd: their device: reset once when a worker is still blocked (a test
 *	that failed half-way), which cancels its wait.
 */
void asc_workers_stop(struct asc_worker *w, int n, int fd);

/*
 * Shorthands: run one op on worker W and return its result.  W is a
 * struct asc_worker pointer.
 */
#define W_BIND(w, pipe)			asc_worker_do((w), ASC_OP_BIND, (pipe), 0, 0)
#define W_ALLOC(w, ev)			asc_worker_do((w), ASC_OP_ALLOC, (ev), 0, 0)
#define W_FETCH(w, ev)			asc_worker_do((w), ASC_OP_FETCH, (ev), 0, 0)
#define W_RELEASE(w, ev, id)		asc_worker_do((w), ASC_OP_RELEASE, (ev), (id), 0)
#define W_SET(w, ev, id)		asc_worker_do((w), ASC_OP_SET, (ev), (id), 0)
#define W_WAIT(w, ev, id, dl)		asc_worker_do((w), ASC_OP_WAIT, (ev), (id), (dl))
/* Start a wait on W and return at once (0, or -EBUSY if W is busy). */
#define W_WAIT_POST(w, ev, id, dl)	asc_worker_post((w), ASC_OP_WAIT, (ev), (id), (dl), 0)
#define W_EXEC(w, t)			asc_worker_do((w), ASC_OP_EXECUTE, (int)(t), 0, \
					      ASC_EVENT_WAIT_FOREVER)
#define W_EXEC_POST(w, t, dl)		asc_worker_post((w), ASC_OP_EXECUTE, (int)(t), 0, (dl), 0)

#endif /* ASC_TEST_THREADS_H */
