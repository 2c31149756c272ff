/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads and child processes of a selftest, as the kernel sees them: their
 * thread IDs and names, whether one sleeps in an ioctl (from /proc), and
 * reaping a child with a time limit.
 */
#ifndef ASC_TEST_TASK_H
#define ASC_TEST_TASK_H

#include <stdbool.h>
#include <sys/types.h>

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

#endif /* ASC_TEST_TASK_H */
