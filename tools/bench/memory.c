// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: kernel memory per open TPipe.
 *
 * The method: read the kernel's counters, open N files of /dev/null,
 * read them again, open N TPipes with open(2) on the device (no library,
 * nothing mapped: the TPipe as the driver makes it), read them a third
 * time.  The memory one open takes is the drop of the free pages divided
 * by N: everything the kernel allocated, slab or whole pages (page
 * allocator, vmalloc, per-CPU).  Free pages are counted from
 * /proc/zoneinfo, each zone's "pages free" plus the pages on its per-CPU
 * lists ("count:"), after /proc/sys/vm/stat_refresh has folded the
 * per-CPU differences of the counters: MemFree leaves the per-CPU lists
 * out and moves in steps of their batch, hundreds of pages.  Of it, the
 * growth of Slab (/proc/meminfo) is the part in slab caches, and
 * SUnreclaim the part no shrinker can free.  An open of /dev/null
 * allocates the struct file and nothing else; the difference between the
 * two is what the driver adds to an open, and that is the figure of the
 * goal.
 *
 * The process allocates nothing while the counters are read: the arrays
 * of file descriptors are touched and the file table is grown to its size
 * beforehand.  Rounds: the files are closed after each, and the next
 * round starts after an RCU grace period (membarrier(2)'s
 * MEMBARRIER_CMD_GLOBAL) and a pause, so that the objects freed through
 * RCU are back; the figures are the medians of the rounds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

/* Rounds, at most. */
#define MEMORY_ROUNDS	3

/**
 * struct meminfo - the counters read, in bytes.
 * @free: free pages: the buddy allocator's and those on the per-CPU lists.
 * @slab: Slab of /proc/meminfo.
 * @sunreclaim: SUnreclaim of /proc/meminfo.
 */
struct meminfo {
	long long free;
	long long slab;
	long long sunreclaim;
};

/* Whether /proc/sys/vm/stat_refresh could be written. */
static bool refreshed = true;

/*
 * Fold the per-CPU differences of the kernel's counters into them
 * (/proc/sys/vm/stat_refresh, root only): without, each CPU may hold back
 * some pages' worth of every counter.
 */
static void fold_vm_stats(void)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "1", 1) != 1)
		refreshed = false;
	if (fd >= 0)
		close(fd);
}

/*
 * Free pages: "pages free" of every zone of /proc/zoneinfo, plus the
 * "count:" of each per-CPU list of pages (taken from the buddy allocator,
 * so not in "pages free", yet not in use); MemFree leaves those out and
 * moves in steps of a list's batch.
 */
static int free_pages(long long *pages)
{
	FILE *f = fopen("/proc/zoneinfo", "re");
	char line[256];
	long long n;

	if (!f)
		return -1;
	*pages = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " pages free %lld", &n) == 1 ||
		    sscanf(line, " count: %lld", &n) == 1)
			*pages += n;
	}
	fclose(f);
	return 0;
}

static int meminfo_read(struct meminfo *m)
{
	char line[128];
	FILE *f;
	long long pages;
	long kib;
	int seen = 0;

	fold_vm_stats();
	if (free_pages(&pages) < 0)
		return -1;
	m->free = pages * sysconf(_SC_PAGESIZE);
	f = fopen("/proc/meminfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %ld kB", &kib) == 1) {
			m->slab = kib * 1024LL;
			seen |= 1;
		} else if (sscanf(line, "SUnreclaim: %ld kB", &kib) == 1) {
			m->sunreclaim = kib * 1024LL;
			seen |= 2;
		}
	}
	fclose(f);
	if (seen != 3) {
		errno = ENODATA;
		return -1;
	}
	return 0;
}

/* Open @n files of @path into @fds; on failure close what was opened. */
static int open_n(const char *path, int *fds, unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		fds[i] = open(path, O_RDWR | O_CLOEXEC);
		if (fds[i] < 0) {
			err = errno;
			printf("# open(%s), file %u of %u: %s\n", path, i + 1, n, strerror(err));
			while (i--)
				close(fds[i]);
			errno = err;
			return -1;
		}
	}
	return 0;
}

static void close_n(int *fds, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

/* Bytes per open from the growth of a counter over @n opens. */
static double per_open(long long bytes, unsigned int n)
{
	return (double)bytes / n;
}

/* Median, min and max of @nr values, into a subject for printing. */
static void summary(struct bench_subject *s, const char *name, const double *v,
		    unsigned int nr)
{
	s->name = name;
	memcpy(s->samples, v, nr * sizeof(*v));
	s->nr = nr;
	bench_summarise(s);
}

static void print_bytes(const struct bench_subject *s)
{
	printf("#   %-34s %8.0f B  (%.0f..%.0f)\n", s->name, s->median, s->min, s->max);
}

/**
 * bench_memory() - the kernel memory of an open TPipe.
 * @opts: the options (@tpipes opens per round).
 * @test: its TAP test number.
 * @goal: out: its row of the goals table, in bytes.
 *
 * Return: 0, or -1 when the figure could not be measured (the reason is
 * printed).
 */
int bench_memory(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal)
{
	static const char figure[] = "kernel memory per open TPipe, unmapped";
	double null_total[MEMORY_ROUNDS], asc_total[MEMORY_ROUNDS], net[MEMORY_ROUNDS];
	double net_slab[MEMORY_ROUNDS], net_unrecl[MEMORY_ROUNDS], net_pages[MEMORY_ROUNDS];
	unsigned int n = opts->tpipes, rounds = MEMORY_ROUNDS, r;
	struct bench_subject s;
	struct meminfo m0, m1, m2;
	int *null_fds, *asc_fds, top;

	if (opts->runs < rounds)
		rounds = opts->runs;
	printf("# %s: %u rounds of %u opens of /dev/null, then %u of the device (open(2), no library)\n",
	       figure, rounds, n, n);
	printf("#   bytes per open = drop of the free pages (zoneinfo: buddy + per-CPU lists) / %u;\n", n);
	printf("#   of it the growth of Slab and SUnreclaim (meminfo), after vm/stat_refresh;\n");
	printf("#   the driver's part = per TPipe - per /dev/null (the struct file); median (min..max)\n");
	if (bench_raise_nofile(2 * n + 64) < 0)
		return bench_fail(test, figure, "cannot raise RLIMIT_NOFILE");
	null_fds = calloc(n, sizeof(int));
	asc_fds = calloc(n, sizeof(int));
	if (!null_fds || !asc_fds) {
		free(null_fds);
		free(asc_fds);
		return bench_fail(test, figure, "out of memory");
	}
	/* Their pages are touched, and the file table grows, here. */
	memset(null_fds, -1, n * sizeof(int));
	memset(asc_fds, -1, n * sizeof(int));
	top = dup2(0, 2 * n + 32);
	if (top >= 0)
		close(top);
	bench_settle();
	for (r = 0; r < rounds; r++) {
		if (meminfo_read(&m0) < 0)
			goto no_meminfo;
		if (open_n("/dev/null", null_fds, n) < 0)
			goto no_open;
		if (meminfo_read(&m1) < 0) {
			close_n(null_fds, n);
			goto no_meminfo;
		}
		if (open_n(opts->device, asc_fds, n) < 0) {
			close_n(null_fds, n);
			goto no_open;
		}
		if (meminfo_read(&m2) < 0) {
			close_n(null_fds, n);
			close_n(asc_fds, n);
			goto no_meminfo;
		}
		close_n(asc_fds, n);
		close_n(null_fds, n);
		bench_settle();
		null_total[r] = per_open(m0.free - m1.free, n);
		asc_total[r] = per_open(m1.free - m2.free, n);
		net[r] = asc_total[r] - null_total[r];
		net_slab[r] = per_open(m2.slab - m1.slab, n) - per_open(m1.slab - m0.slab, n);
		net_unrecl[r] = per_open(m2.sunreclaim - m1.sunreclaim, n) -
				per_open(m1.sunreclaim - m0.sunreclaim, n);
		net_pages[r] = net[r] - net_slab[r];
	}
	free(null_fds);
	free(asc_fds);
	if (!refreshed)
		printf("# /proc/sys/vm/stat_refresh not writable: counters not folded, less exact\n");
	summary(&s, "per open of the device", asc_total, rounds);
	print_bytes(&s);
	summary(&s, "per open of /dev/null", null_total, rounds);
	print_bytes(&s);
	summary(&s, "the driver's part, in slab", net_slab, rounds);
	print_bytes(&s);
	summary(&s, "  of which SUnreclaim", net_unrecl, rounds);
	print_bytes(&s);
	summary(&s, "the driver's part, outside slab", net_pages, rounds);
	print_bytes(&s);
	summary(&s, "the driver's part, total", net, rounds);
	print_bytes(&s);
	goal->value = s.median;
	goal->measured = true;
	printf("ok %u %s\n", test, figure);
	return 0;

no_meminfo:
	printf("# /proc/meminfo: %s\n", strerror(errno));
	free(null_fds);
	free(asc_fds);
	return bench_fail(test, figure, "cannot read /proc/meminfo");
no_open:
	free(null_fds);
	free(asc_fds);
	return bench_fail(test, figure, "cannot open that many files");
}
