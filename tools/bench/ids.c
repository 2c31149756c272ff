// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: alloc_event_id + release_event_id, against two null ioctls
 * on the same file.
 *
 * The null ioctl is ASC_EVENT_IOC_INFO: the cheapest call of the driver
 * that succeeds.  It takes the same way into the driver as ALLOC_ID and
 * RELEASE_ID (the ioctl system call, the driver's dispatch and its count
 * of every ioctl), writes to the caller's memory in one user access as
 * ALLOC_ID does (a struct where ALLOC_ID writes an ID), and touches no
 * lock and no state of the TPipe.  An unknown ioctl number
 * would do less still, but it fails with ENOTTY, and the driver counts an
 * error for it that no successful call pays.  The ratio is what the pool
 * of IDs costs over the bare way in and out of the driver: the floor of
 * the figure.  The same pair made with the two ioctls directly is timed
 * too (what the library does whenever it does not do the pair in
 * userspace), and sem_post() + sem_wait() on a sem_t nobody else uses,
 * the baseline of a pair done in userspace.
 *
 * libasc hides the file descriptor of a TPipe; the benchmark finds it in
 * /proc/self/fd: the one open of the device that was not there before
 * asc_pipe_open().
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <semaphore.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/asc_event.h>

#include "bench.h"

/* Pairs per run, before --quick's scale. */
#define IDS_ITERS	100000

/* The open files of the device @rdev, as a bitmap of the first 1024 fds. */
static int device_fds(dev_t rdev, unsigned char *map, size_t size)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *d;
	struct stat st;
	long fd;

	if (!dir)
		return -1;
	memset(map, 0, size);
	while ((d = readdir(dir))) {
		fd = strtol(d->d_name, NULL, 10);
		if (d->d_name[0] == '.' || fd < 0 || fd >= (long)size * 8)
			continue;
		if (!fstat(fd, &st) && S_ISCHR(st.st_mode) && st.st_rdev == rdev)
			map[fd / 8] |= 1 << (fd % 8);
	}
	closedir(dir);
	return 0;
}

/* Open a TPipe and find its file descriptor; -1 with errno when not. */
static struct asc_pipe *open_with_fd(const char *device, int *fdp)
{
	unsigned char before[128], after[128];
	struct asc_pipe *pipe;
	struct stat st;
	size_t fd;

	if (stat(device, &st) < 0 || device_fds(st.st_rdev, before, sizeof(before)) < 0)
		return NULL;
	pipe = asc_pipe_open(device);
	if (!pipe)
		return NULL;
	if (device_fds(st.st_rdev, after, sizeof(after)) < 0)
		goto fail;
	for (fd = 0; fd < sizeof(after) * 8; fd++) {
		if ((after[fd / 8] & ~before[fd / 8]) & (1 << (fd % 8))) {
			*fdp = fd;
			return pipe;
		}
	}
	errno = ENOENT;
fail:
	asc_pipe_close(pipe);
	return NULL;
}

struct ids_ctx {
	struct asc_pipe *pipe;
	int fd;
	sem_t sem;
};

static int alloc_release(void *ctx, unsigned long iters, double *ns)
{
	struct ids_ctx *c = ctx;
	unsigned long i;
	double t0;
	int id;

	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		id = asc_alloc_event_id(c->pipe, ASC_HARD_EVENT_MTE2_V);
		if (id < 0 || asc_release_event_id(c->pipe, id, ASC_HARD_EVENT_MTE2_V) < 0)
			return -1;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

static int ioctl_alloc_release(void *ctx, unsigned long iters, double *ns)
{
	struct ids_ctx *c = ctx;
	struct asc_event_ref ref = { .event = ASC_EVENT_MTE2_V };
	unsigned long i;
	double t0;

	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		if (ioctl(c->fd, ASC_EVENT_IOC_ALLOC_ID, &ref) < 0 ||
		    ioctl(c->fd, ASC_EVENT_IOC_RELEASE_ID, &ref) < 0)
			return -1;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

static int two_null_ioctls(void *ctx, unsigned long iters, double *ns)
{
	struct ids_ctx *c = ctx;
	struct asc_event_info info;
	unsigned long i;
	double t0;

	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		if (ioctl(c->fd, ASC_EVENT_IOC_INFO, &info) < 0 ||
		    ioctl(c->fd, ASC_EVENT_IOC_INFO, &info) < 0)
			return -1;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

/**
 * bench_ids() - the alloc+release figure, its floor and the sem_t.
 * @opts: the options.
 * @test: its TAP test number.
 * @lib: out: the goals row of libasc's pair against the floor.
 * @page: out: the row of libasc's pair against sem_post + sem_wait (the
 *	goal of a pair done in userspace).
 * @ioctls: out: the row of the two ioctls against the floor.
 *
 * Return: 0, or -1 when the figure could not be measured.
 */
int bench_ids(const struct bench_opts *opts, unsigned int test, struct bench_goal *lib,
	      struct bench_goal *page, struct bench_goal *ioctls)
{
	static const char figure[] = "alloc_event_id + release_event_id";
	struct ids_ctx c;
	/* In this order, each pair compared runs next to each other. */
	struct bench_subject subj[4] = {
		{ .name = "ioctl ALLOC_ID + RELEASE_ID", .fn = ioctl_alloc_release, .ctx = &c },
		{ .name = "2 x ioctl(ASC_EVENT_IOC_INFO)", .fn = two_null_ioctls, .ctx = &c },
		{ .name = "asc alloc + release", .fn = alloc_release, .ctx = &c },
		{ .name = "sem_post + sem_wait", .fn = bench_sem_post_wait, .ctx = &c.sem },
	};
	unsigned long iters = IDS_ITERS / opts->scale / BENCH_SPLIT;
	unsigned int i, runs = opts->runs * BENCH_SPLIT;
	int ret = 0;

	printf("# %s: median of %u runs of %lu pairs each (min..max)\n",
	       figure, runs, iters);
	if (sem_init(&c.sem, 0, 0))
		return bench_fail(test, figure, "sem_init failed");
	c.pipe = open_with_fd(opts->device, &c.fd);
	if (!c.pipe) {
		printf("# a TPipe and its file descriptor: %s\n", strerror(errno));
		sem_destroy(&c.sem);
		return bench_fail(test, figure, "no TPipe");
	}
	if (bench_run(subj, 4, iters, runs) < 0) {
		ret = bench_fail(test, figure, "a run failed");
	} else {
		for (i = 0; i < 4; i++)
			bench_print(&subj[i], "pair");
		bench_print_ratio(&subj[2], &subj[1]);
		bench_print_ratio(&subj[0], &subj[1]);
		bench_print_ratio(&subj[2], &subj[3]);
		lib->value = bench_ratio(&subj[2], &subj[1], NULL, NULL);
		ioctls->value = bench_ratio(&subj[0], &subj[1], NULL, NULL);
		page->value = bench_ratio(&subj[2], &subj[3], NULL, NULL);
		lib->measured = ioctls->measured = page->measured = true;
		printf("ok %u %s\n", test, figure);
	}
	asc_pipe_close(c.pipe);
	sem_destroy(&c.sem);
	return ret;
}
