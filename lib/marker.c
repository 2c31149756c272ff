// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_marker: the core runtime's trace marker.  When the
 * environment names one (ASC_TRACE_MARKER, read with secure_getenv() when
 * a run starts: ascctl trace points it at the trace_marker of its tracefs
 * instance), the pipe running a work item writes one line just before and
 * one just after it, so that the trace shows the work as spans between the
 * pipe's sets and waits:
 *
 *   asc_span begin core=<tid>.<run> pipe=<PIPE> n=<n> name=<name>
 *   asc_span end core=<tid>.<run> pipe=<PIPE> n=<n>
 *
 * <tid> is the thread that called asc_core_run() (the scalar), <run>
 * counts the process's runs from 1, <PIPE> is asc_pipe_id_name() of the
 * pipe, <n> the instruction number of the asc_core_issue() (the numbers
 * of the reports) and <name> its @what, "work" for NULL, at most
 * ASC_MARKER_NAME_MAX bytes with control characters written as '?'.
 * (An item whose name could not be copied, out of memory, goes without
 * its lines.)
 *
 * Each line is one write(2), of a buffer formatted on the stack.  The
 * marker must not fail the kernel: a marker that cannot be opened, that
 * is neither a regular file (tracefs files are) nor a character device
 * (a FIFO or a socket could raise SIGPIPE), or a write that fails, and
 * nothing more is written in this run; no error is reported.  Without
 * ASC_TRACE_MARKER, a run costs one secure_getenv().
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The runs of this process, for the core= of the lines. */
static unsigned int asc_marker_runs;

void asc_marker_open(struct asc_marker *m)
{
	const char *path = secure_getenv("ASC_TRACE_MARKER");
	struct stat st;
	int fd;

	m->fd = -1;
	m->failed = 0;
	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		close(fd);
		return;
	}
	snprintf(m->core, sizeof(m->core), "%d.%u", (int)gettid(),
		 __atomic_add_fetch(&asc_marker_runs, 1, __ATOMIC_RELAXED));
	m->fd = fd;
}

void asc_marker_close(struct asc_marker *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

char *asc_marker_name(const char *what)
{
	size_t len, i;
	char *name;

	if (!what)
		what = "work";
	len = strlen(what);
	if (len > ASC_MARKER_NAME_MAX) {
		len = ASC_MARKER_NAME_MAX;
		/* Cut before a UTF-8 sequence, not inside it. */
		while (len && ((unsigned char)what[len] & 0xc0) == 0x80)
			len--;
	}
	name = malloc(len + 1);
	if (!name)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char ch = what[i];

		name[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	name[len] = '\0';
	return name;
}

void asc_marker_work(struct asc_marker *m, bool begin, int pipe_id,
		     unsigned long n, const char *name)
{
	char line[64 + sizeof(m->core) + ASC_MARKER_NAME_MAX];
	int saved = errno, len;
	ssize_t w;

	if (m->fd < 0 || __atomic_load_n(&m->failed, __ATOMIC_RELAXED))
		return;
	if (begin)
		len = snprintf(line, sizeof(line),
			       "asc_span begin core=%s pipe=%s n=%lu name=%s\n",
			       m->core, asc_pipe_id_name(pipe_id), n, name);
	else
		len = snprintf(line, sizeof(line),
			       "asc_span end core=%s pipe=%s n=%lu\n",
			       m->core, asc_pipe_id_name(pipe_id), n);
	/* The line always fits: the name is at most ASC_MARKER_NAME_MAX bytes. */
	if (len < 0 || (size_t)len >= sizeof(line)) {
		__atomic_store_n(&m->failed, 1, __ATOMIC_RELAXED);
		return;
	}
	do
		w = write(m->fd, line, len);
	while (w < 0 && errno == EINTR);
	if (w != len)
		__atomic_store_n(&m->failed, 1, __ATOMIC_RELAXED);
	errno = saved;
}
