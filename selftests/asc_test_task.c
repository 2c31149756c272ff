// SPDX-License-Identifier: GPL-2.0
/*
 * Threads and child processes of a selftest: see asc_test_task.h.
 */
#include "asc_test_task.h"
#include "asc_test_time.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

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
