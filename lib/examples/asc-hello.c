// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * asc-hello: the smallest libasc program with two pipes.
 *
 * Opens a TPipe, allocates a V_S event ID, and runs a V thread that sets
 * its flag while the main thread, standing for S, waits for it; then
 * releases the ID and closes the TPipe.  Prints each step and exits 0, or
 * prints what failed and exits 1.
 *
 * Installed as an example by `make install`; build it with
 *
 *	cc -o asc-hello asc-hello.c $(pkg-config --cflags --libs libasc)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <asc.h>

struct job {
	struct asc_pipe *pipe;
	int id;
	int err;
};

/* The V pipe: says that its work is done. */
static void *vector(void *arg)
{
	struct job *job = arg;

	if (asc_pipe_bind(job->pipe, ASC_PIPE_V) < 0 ||
	    asc_set_flag(job->pipe, ASC_HARD_EVENT_V_S, job->id) < 0)
		job->err = errno;
	return NULL;
}

static int fail(const char *what)
{
	fprintf(stderr, "asc-hello: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	struct job job = { 0 };
	pthread_t v;
	int err;

	job.pipe = asc_pipe_open(NULL);
	if (!job.pipe)
		return fail("asc_pipe_open");
	printf("libasc %s: TPipe open, %d IDs per HardEvent\n",
	       asc_version_string(), asc_event_ids(job.pipe));

	if (asc_pipe_bind(job.pipe, ASC_PIPE_S) < 0)
		return fail("asc_pipe_bind(S)");
	job.id = asc_alloc_event_id(job.pipe, ASC_HARD_EVENT_V_S);
	if (job.id < 0)
		return fail("asc_alloc_event_id(V_S)");
	printf("S: allocated V_S id %d\n", job.id);

	err = pthread_create(&v, NULL, vector, &job);
	if (err) {
		errno = err;
		return fail("pthread_create");
	}
	if (asc_wait_flag(job.pipe, ASC_HARD_EVENT_V_S, job.id) < 0)
		return fail("asc_wait_flag(V_S)");
	pthread_join(v, NULL);
	if (job.err) {
		errno = job.err;
		return fail("V: asc_set_flag(V_S)");
	}
	printf("S: V set V_S id %d, the wait consumed it\n", job.id);

	if (asc_release_event_id(job.pipe, job.id, ASC_HARD_EVENT_V_S) < 0)
		return fail("asc_release_event_id(V_S)");
	asc_pipe_close(job.pipe);
	printf("S: released the ID, TPipe closed\n");
	return 0;
}
