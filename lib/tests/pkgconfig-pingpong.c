// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A libasc consumer built through pkg-config alone: it includes <asc.h>,
 * and the Makefile compiles it with `pkg-config --cflags --libs libasc`
 * against a staged install, nothing else.
 *
 * Two threads play ping-pong on one pipe for ROUNDS rounds.  Thread A sets
 * MTE2_V and waits for V_MTE2; thread B waits for MTE2_V and sets V_MTE2.
 * Each side counts its completed waits, which must come out exact, and no
 * flag may be left over at the end.  TAP output; exit 0 pass, 1 fail,
 * 4 (kselftest skip) when there is no device to open.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <asc.h>

#define ROUNDS		10000
#define TIMEOUT_NS	(10LL * 1000000000LL)
#define KSFT_SKIP	4

struct side {
	struct asc_pipe *pipe;
	int wait_event, wait_id;
	int set_event, set_id;
	int set_first;
	long waits;
	int err;
	const char *failed;
};

static void *play(void *arg)
{
	struct side *s = arg;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		if (s->set_first &&
		    asc_set_flag(s->pipe, s->set_event, s->set_id) < 0) {
			s->failed = "asc_set_flag";
			break;
		}
		if (asc_wait_flag_timeout(s->pipe, s->wait_event, s->wait_id,
					  TIMEOUT_NS) < 0) {
			s->failed = "asc_wait_flag_timeout";
			break;
		}
		s->waits++;
		if (!s->set_first &&
		    asc_set_flag(s->pipe, s->set_event, s->set_id) < 0) {
			s->failed = "asc_set_flag";
			break;
		}
	}
	if (s->failed)
		s->err = errno;
	return NULL;
}

static int fail(const char *what, int err)
{
	printf("# %s: %s\n", what, strerror(err));
	printf("not ok 1 pkgconfig-pingpong\n");
	return 1;
}

int main(void)
{
	struct side a = { 0 }, b = { 0 };
	pthread_t ta, tb;
	struct asc_pipe *pipe;
	int id_a, id_b, ret;

	printf("TAP version 13\n1..1\n");
	printf("# libasc %s\n", asc_version_string());

	pipe = asc_pipe_open(NULL);
	if (!pipe) {
		if (errno == ENOENT || errno == ENODEV || errno == ENXIO) {
			printf("ok 1 pkgconfig-pingpong # SKIP no event device: %s\n",
			       strerror(errno));
			return KSFT_SKIP;
		}
		return fail("asc_pipe_open", errno);
	}

	id_a = asc_alloc_event_id(pipe, ASC_HARD_EVENT_MTE2_V);
	if (id_a < 0)
		return fail("asc_alloc_event_id(MTE2_V)", errno);
	id_b = asc_alloc_event_id(pipe, ASC_HARD_EVENT_V_MTE2);
	if (id_b < 0)
		return fail("asc_alloc_event_id(V_MTE2)", errno);

	a = (struct side){ .pipe = pipe, .set_first = 1,
			   .set_event = ASC_HARD_EVENT_MTE2_V, .set_id = id_a,
			   .wait_event = ASC_HARD_EVENT_V_MTE2, .wait_id = id_b };
	b = (struct side){ .pipe = pipe, .set_first = 0,
			   .wait_event = ASC_HARD_EVENT_MTE2_V, .wait_id = id_a,
			   .set_event = ASC_HARD_EVENT_V_MTE2, .set_id = id_b };

	ret = pthread_create(&ta, NULL, play, &a);
	if (ret)
		return fail("pthread_create", ret);
	ret = pthread_create(&tb, NULL, play, &b);
	if (ret)
		return fail("pthread_create", ret);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);

	if (a.failed)
		return fail(a.failed, a.err);
	if (b.failed)
		return fail(b.failed, b.err);
	printf("# %ld + %ld waits in %d rounds\n", a.waits, b.waits, ROUNDS);
	if (a.waits != ROUNDS || b.waits != ROUNDS)
		return fail("wait count", EPROTO);

	if (asc_wait_flag_timeout(pipe, ASC_HARD_EVENT_MTE2_V, id_a, 0) == 0 ||
	    errno != ETIMEDOUT)
		return fail("leftover MTE2_V flag", errno);
	if (asc_wait_flag_timeout(pipe, ASC_HARD_EVENT_V_MTE2, id_b, 0) == 0 ||
	    errno != ETIMEDOUT)
		return fail("leftover V_MTE2 flag", errno);

	if (asc_release_event_id(pipe, id_a, ASC_HARD_EVENT_MTE2_V) < 0)
		return fail("asc_release_event_id(MTE2_V)", errno);
	if (asc_release_event_id(pipe, id_b, ASC_HARD_EVENT_V_MTE2) < 0)
		return fail("asc_release_event_id(V_MTE2)", errno);
	asc_pipe_close(pipe);

	printf("ok 1 pkgconfig-pingpong\n");
	return 0;
}
