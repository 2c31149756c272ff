// SPDX-License-Identifier: GPL-2.0
/*
 * asc-fetch-hazard - the fetch_event_id hazard of the source article, and
 * what /dev/asc_event reports for it.
 *
 * fetch_event_id() tells which ID alloc_event_id() would take, and reserves
 * nothing: fetched twice in a row, with nothing allocated in between, it
 * returns the same ID.  The article warns that two back-to-back set/wait
 * pairs on one pipe with a fetched ID hang the kernel.  Here V runs ahead
 * of MTE3 over two output tiles, as a double-buffered kernel lets it:
 *
 *   V     fetch V_MTE3 -> id; compute tile 0; set_flag(V_MTE3, id)
 *   V     fetch V_MTE3 -> id (the same); compute tile 1; set_flag(V_MTE3, id)
 *   MTE3  for each tile: wait_flag(V_MTE3, id); copy out;
 *         set_flag(MTE3_V, out_free[tile])      (the buffer is free again)
 *   V     for each buffer: wait_flag(MTE3_V, out_free[buffer])
 *
 * The second set finds the flag still set (MTE3 has not consumed the first
 * one): on the hardware it is lost, on the device it fails with EBUSY.  MTE3
 * then waits for tile 1 forever, and V for buffer 1, which MTE3 hands back
 * only after tile 1: each waits for the other.  Both threads are bound to
 * their pipe and wait without a timeout, so checked mode sees the cycle,
 * fails both waits with EDEADLK and logs "asc_event: deadlock in TPipe <n>".
 *
 * A barrier makes the run deterministic: MTE3 starts only after V has made
 * both sets (V running ahead).  With --alloc, V_MTE3 takes one allocated ID
 * per tile instead, the two sets go to two different flags, and the same
 * program runs clean.  The MTE3_V IDs are allocated in both modes, and
 * every ID is released at the end.
 */
#define _GNU_SOURCE
#include <asc.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NR_TILES		2
/* A hang the device did not report ends here: the run has failed. */
#define HAZARD_WATCHDOG_S	10
#define LOST_SET		"(the flag is still set: on the hardware this set is lost)"

static const char *progname = "asc-fetch-hazard";

/**
 * struct hazard - the run.
 * @pipe: the TPipe shared by the two pipe threads.
 * @alloc: --alloc: V_MTE3 IDs from alloc_event_id(), else fetch_event_id().
 * @out_ready: V_MTE3 ID per tile; in fetch mode V fills it in as it goes.
 * @out_free: MTE3_V ID per output buffer (allocated).
 * @ahead: V has issued its sets; MTE3 may start.
 * @lock: serialises the step lines and the counts below.
 * @nr_busy: calls that failed with EBUSY.
 * @nr_deadlock: calls that failed with EDEADLK.
 * @nr_other: calls that failed otherwise.
 */
struct hazard {
	struct asc_pipe *pipe;
	bool alloc;
	int out_ready[NR_TILES];
	int out_free[NR_TILES];
	pthread_barrier_t ahead;
	pthread_mutex_t lock;
	int nr_busy;
	int nr_deadlock;
	int nr_other;
};

static const char *err_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "?";
}

/* One step: "PIPE  call  -> result  why". @err is 0 or an errno. */
static void step(struct hazard *hz, const char *pipe, int err, const char *why,
		 const char *fmt, ...)
{
	char call[80];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(call, sizeof(call), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&hz->lock);
	if (err == EBUSY)
		hz->nr_busy++;
	else if (err == EDEADLK)
		hz->nr_deadlock++;
	else if (err)
		hz->nr_other++;
	printf("%-5s %-34s -> %s%s%s\n", pipe, call, err ? err_name(err) : "ok",
	       why ? "  " : "", why ? why : "");
	fflush(stdout);
	pthread_mutex_unlock(&hz->lock);
}

static void note(struct hazard *hz, const char *pipe, const char *fmt, ...)
{
	char what[120];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&hz->lock);
	printf("%-5s %s\n", pipe, what);
	fflush(stdout);
	pthread_mutex_unlock(&hz->lock);
}

static int bind_pipe(struct hazard *hz, int pipe_id)
{
	const char *name = asc_pipe_id_name(pipe_id);

	if (!asc_pipe_bind(hz->pipe, pipe_id))
		return 0;
	step(hz, name, errno, NULL, "asc_pipe_bind(%s)", name);
	return -1;
}

static void *v_thread(void *arg)
{
	struct hazard *hz = arg;
	int t, b, id, err;

	if (bind_pipe(hz, ASC_PIPE_V)) {
		pthread_barrier_wait(&hz->ahead);
		return NULL;
	}
	for (t = 0; t < NR_TILES; t++) {
		if (!hz->alloc) {
			id = asc_fetch_event_id(hz->pipe, ASC_HARD_EVENT_V_MTE3);
			if (id < 0) {
				step(hz, "V", errno, NULL, "fetch_event_id(V_MTE3)");
				continue;
			}
			hz->out_ready[t] = id;
			note(hz, "V", "fetch_event_id(V_MTE3) = %d%s", id,
			     t ? "  (nothing reserved it: the same ID again)" : "");
		}
		note(hz, "V", "computes tile %d into output buffer %d", t, t);
		err = asc_set_flag(hz->pipe, ASC_HARD_EVENT_V_MTE3, hz->out_ready[t]) ? errno : 0;
		step(hz, "V", err, err == EBUSY ? LOST_SET : NULL,
		     "set_flag(V_MTE3, %d)     tile %d", hz->out_ready[t], t);
	}
	pthread_barrier_wait(&hz->ahead);
	for (b = 0; b < NR_TILES; b++) {
		err = asc_wait_flag(hz->pipe, ASC_HARD_EVENT_MTE3_V, hz->out_free[b]) ? errno : 0;
		step(hz, "V", err, NULL, "wait_flag(MTE3_V, %d)    buffer %d", hz->out_free[b], b);
		if (err)
			break;
	}
	return NULL;
}

static void *mte3_thread(void *arg)
{
	struct hazard *hz = arg;
	int t, err, bound;

	bound = bind_pipe(hz, ASC_PIPE_MTE3);
	pthread_barrier_wait(&hz->ahead);
	if (bound)
		return NULL;
	for (t = 0; t < NR_TILES; t++) {
		err = asc_wait_flag(hz->pipe, ASC_HARD_EVENT_V_MTE3, hz->out_ready[t]) ? errno : 0;
		step(hz, "MTE3", err, NULL, "wait_flag(V_MTE3, %d)    tile %d", hz->out_ready[t],
		     t);
		if (err)
			break;
		note(hz, "MTE3", "copies tile %d out of output buffer %d", t, t);
		err = asc_set_flag(hz->pipe, ASC_HARD_EVENT_MTE3_V, hz->out_free[t]) ? errno : 0;
		step(hz, "MTE3", err, NULL, "set_flag(MTE3_V, %d)     buffer %d", hz->out_free[t],
		     t);
		if (err)
			break;
	}
	return NULL;
}

static int take_ids(struct hazard *hz)
{
	int i;

	for (i = 0; i < NR_TILES; i++) {
		hz->out_free[i] = asc_alloc_event_id(hz->pipe, ASC_HARD_EVENT_MTE3_V);
		if (hz->out_free[i] < 0) {
			step(hz, "main", errno, NULL, "alloc_event_id(MTE3_V)");
			return -1;
		}
		if (!hz->alloc)
			continue;
		hz->out_ready[i] = asc_alloc_event_id(hz->pipe, ASC_HARD_EVENT_V_MTE3);
		if (hz->out_ready[i] < 0) {
			step(hz, "main", errno, NULL, "alloc_event_id(V_MTE3)");
			return -1;
		}
	}
	note(hz, "main", "IDs: MTE3_V %d,%d (alloc); V_MTE3 %s", hz->out_free[0], hz->out_free[1],
	     hz->alloc ? "one alloc_event_id() per tile" : "fetch_event_id() per tile, by V");
	if (hz->alloc)
		note(hz, "main", "     V_MTE3 %d,%d (alloc)", hz->out_ready[0], hz->out_ready[1]);
	return 0;
}

static void release_ids(struct hazard *hz)
{
	int i;

	for (i = 0; i < NR_TILES; i++) {
		if (hz->out_free[i] >= 0 &&
		    asc_release_event_id(hz->pipe, hz->out_free[i], ASC_HARD_EVENT_MTE3_V))
			step(hz, "main", errno, NULL, "release_event_id(%d, MTE3_V)",
			     hz->out_free[i]);
		if (hz->alloc && hz->out_ready[i] >= 0 &&
		    asc_release_event_id(hz->pipe, hz->out_ready[i], ASC_HARD_EVENT_V_MTE3))
			step(hz, "main", errno, NULL, "release_event_id(%d, V_MTE3)",
			     hz->out_ready[i]);
	}
}

/* Join both threads; a hang the device did not report is ended by a reset. */
static bool join_threads(struct hazard *hz, pthread_t *threads)
{
	struct timespec deadline;
	bool hung = false;
	int i;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += HAZARD_WATCHDOG_S;
	for (i = 0; i < 2; i++) {
		if (pthread_timedjoin_np(threads[i], NULL, &deadline) == ETIMEDOUT) {
			hung = true;
			note(hz, "main", "still waiting after %d s: the device reported nothing; "
			     "asc_pipe_reset() ends the waits", HAZARD_WATCHDOG_S);
			asc_pipe_reset(hz->pipe);
			pthread_join(threads[i], NULL);
		}
	}
	return hung;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--alloc] [-d DEVICE] [-h]\n"
		"fetch_event_id() reserves nothing, so a pipe that runs ahead and sets the\n"
		"same fetched ID for two tiles before its consumer waited for the first sets\n"
		"a flag that is still set: on the hardware that set is lost and both pipes\n"
		"end up waiting for each other forever.  This program does exactly that with\n"
		"a V and an MTE3 thread and prints what the device reports (EBUSY for the\n"
		"second set, EDEADLK for both waits, a deadlock report in the kernel log);\n"
		"with --alloc it takes one allocated ID per tile and runs clean.\n"
		"  --alloc, -a  V_MTE3 IDs from alloc_event_id() (released at the end)\n"
		"  -d DEVICE    device node (default $ASC_EVENT_DEV, else /dev/asc_event)\n"
		"  -h, --help   this help\n"
		"Exit status: 0 clean run; 1 the device refused a call (the hazard); 2 bad\n"
		"usage; 4 no device, or a driver without checked mode.\n",
		progname);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "alloc", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct hazard hz = { .out_ready = { -1, -1 }, .out_free = { -1, -1 } };
	unsigned int ids_held = 0, flags_pending = 0;
	const char *dev = NULL;
	pthread_t threads[2];
	int opt, err, ret = 1;
	bool hung;

	while ((opt = getopt_long(argc, argv, "ad:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			hz.alloc = true;
			break;
		case 'd':
			dev = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		print_usage(stderr);
		return 2;
	}

	hz.pipe = asc_pipe_open(dev);
	if (!hz.pipe) {
		err = errno;
		fprintf(stderr, "%s: asc_pipe_open: %s\n", progname, strerror(err));
		return err == ENOENT || err == ENODEV || err == ENXIO ? 4 : 1;
	}
	if (asc_pipe_set_checked(hz.pipe, 1)) {
		err = errno;
		fprintf(stderr, "%s: asc_pipe_set_checked: %s%s\n", progname, strerror(err),
			err == ENOTTY ? " (driver without checked mode)" : "");
		asc_pipe_close(hz.pipe);
		return err == ENOTTY ? 4 : 1;
	}
	pthread_mutex_init(&hz.lock, NULL);
	pthread_barrier_init(&hz.ahead, NULL, 2);
	printf("%s: %s mode, checked mode on, V and MTE3 bound to their pipes\n", progname,
	       hz.alloc ? "alloc" : "fetch");
	if (take_ids(&hz))
		goto out;

	err = pthread_create(&threads[0], NULL, v_thread, &hz);
	if (!err) {
		err = pthread_create(&threads[1], NULL, mte3_thread, &hz);
		if (err) {
			/* V waits at the barrier for MTE3: stand in for it. */
			pthread_barrier_wait(&hz.ahead);
			asc_pipe_reset(hz.pipe);
			pthread_join(threads[0], NULL);
		}
	}
	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", progname, strerror(err));
		goto out;
	}
	hung = join_threads(&hz, threads);
	release_ids(&hz);
	if (asc_pipe_reset_leftovers(hz.pipe, &ids_held, &flags_pending))
		step(&hz, "main", errno, NULL, "asc_pipe_reset()");
	else
		note(&hz, "main", "asc_pipe_reset(): %u IDs held, %u flags set", ids_held,
		     flags_pending);

	if (hz.nr_busy && hz.nr_deadlock) {
		printf("%s: the hazard: the second set_flag(V_MTE3) found the flag still set "
		       "(EBUSY), so MTE3 waited for tile 1 and V for buffer 1 forever; the device "
		       "failed both waits with EDEADLK and logged the cycle (dmesg: \"asc_event: "
		       "deadlock in TPipe\")\n", progname);
	} else if (hung) {
		printf("%s: the pipes hung and the device did not report a deadlock\n", progname);
	} else if (!hz.nr_busy && !hz.nr_deadlock && !hz.nr_other && !ids_held && !flags_pending) {
		printf("%s: clean: every set consumed by one wait, every ID released\n", progname);
		ret = 0;
	} else {
		printf("%s: %d EBUSY, %d EDEADLK, %d other failures\n", progname, hz.nr_busy,
		       hz.nr_deadlock, hz.nr_other);
	}
out:
	asc_pipe_close(hz.pipe);
	return ret;
}
