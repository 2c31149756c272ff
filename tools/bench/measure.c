// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: timing of interleaved runs, their median and spread, and the
 * lines that print them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

#include "bench.h"

/**
 * bench_now_ns() - the monotonic clock, in nanoseconds.
 *
 * Return: CLOCK_MONOTONIC now.
 */
double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/**
 * bench_settle() - let the kernel finish freeing what was closed.
 *
 * An RCU grace period (membarrier(2)'s MEMBARRIER_CMD_GLOBAL waits for
 * one) and a pause of 200 ms, for the callbacks and workers that free
 * closed files to run before the next measurement.
 */
void bench_settle(void)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };

	syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	nanosleep(&pause, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sort @v (@n > 0 values) and take its median, min and max. */
static void median_of(double *v, unsigned int n, double *median, double *min,
		      double *max)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	*min = v[0];
	*max = v[n - 1];
	*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/**
 * bench_summarise() - the median, min and max of a subject's runs.
 * @s: the subject, with at least one run.
 */
void bench_summarise(struct bench_subject *s)
{
	double sorted[BENCH_SAMPLES_MAX];

	memcpy(sorted, s->samples, s->nr * sizeof(sorted[0]));
	median_of(sorted, s->nr, &s->median, &s->min, &s->max);
}

/**
 * bench_ratio() - the ratio of two subjects, run by run.
 * @num: the device's subject.
 * @den: its baseline, timed in the same rounds (as many runs as @num).
 * @min: out: the smallest ratio of one run of @num to the same round's
 *	run of @den, unless NULL.
 * @max: out: the largest, unless NULL.
 *
 * The ratio of each round's two runs, which ran next to each other, is
 * taken before the median: a change of the host's load between rounds
 * moves both runs of a round and so cancels in its ratio, where it would
 * move the two medians apart when they came from different rounds.
 *
 * Return: the median of the rounds' ratios.
 */
double bench_ratio(const struct bench_subject *num, const struct bench_subject *den,
		   double *min, double *max)
{
	double ratios[BENCH_SAMPLES_MAX], median, lo, hi;
	unsigned int r, n = num->nr < den->nr ? num->nr : den->nr;

	for (r = 0; r < n; r++)
		ratios[r] = num->samples[r] / den->samples[r];
	median_of(ratios, n, &median, &lo, &hi);
	if (min)
		*min = lo;
	if (max)
		*max = hi;
	return median;
}

/**
 * bench_run() - time subjects in interleaved runs.
 * @subj: the subjects.
 * @nr: how many.
 * @iters: operations per run.
 * @runs: runs per subject, 1..BENCH_SAMPLES_MAX.
 *
 * Runs every subject once, then every subject again, @runs times, and
 * summarises each: median, min and max of the time per operation.  Every
 * other round goes through the subjects backwards (A B C, C B A, A B C,
 * ...), so that over two rounds no subject runs earlier than another: a
 * load that rises or falls during the figure lands on all alike, and run
 * r of two subjects next to each other in @subj are neighbours in time,
 * which bench_ratio() pairs.
 *
 * Return: 0, or -1 with errno set by the subject that failed (whose
 * message is printed as a comment).
 */
int bench_run(struct bench_subject *subj, unsigned int nr, unsigned long iters,
	      unsigned int runs)
{
	unsigned int r, i, k;
	double ns;

	for (i = 0; i < nr; i++)
		subj[i].nr = 0;
	for (r = 0; r < runs; r++) {
		for (k = 0; k < nr; k++) {
			i = r % 2 ? nr - 1 - k : k;
			if (subj[i].fn(subj[i].ctx, iters, &ns) < 0) {
				int err = errno;

				printf("# %s: %s\n", subj[i].name, strerror(err));
				errno = err;
				return -1;
			}
			subj[i].samples[subj[i].nr++] = ns / iters;
		}
	}
	for (i = 0; i < nr; i++)
		bench_summarise(&subj[i]);
	return 0;
}

/**
 * bench_print() - print a subject's figure as a comment line.
 * @subj: the subject, summarised.
 * @unit_of_op: what one operation is, e.g. "round trip".
 */
void bench_print(const struct bench_subject *subj, const char *unit_of_op)
{
	printf("#   %-34s %10.2f us/%s  (%.2f..%.2f)\n", subj->name,
	       subj->median / 1e3, unit_of_op, subj->min / 1e3, subj->max / 1e3);
}

/**
 * bench_print_ratio() - print the ratio of two subjects: bench_ratio(),
 *	the spread of the rounds' ratios, and the ratio of the two medians.
 * @num: the device's subject.
 * @den: its baseline.
 */
void bench_print_ratio(const struct bench_subject *num, const struct bench_subject *den)
{
	double min, max, ratio = bench_ratio(num, den, &min, &max);

	printf("#   ratio %s / %s = %.2fx  (rounds %.2f..%.2f; of the medians %.2fx)\n",
	       num->name, den->name, ratio, min, max, num->median / den->median);
}

/**
 * bench_count() - a count as the tables write it: 10,000.
 * @buf: where to write it.
 * @size: the size of @buf.
 * @n: the count.
 *
 * Return: @buf.
 */
const char *bench_count(char *buf, size_t size, unsigned int n)
{
	if (n >= 1000000)
		snprintf(buf, size, "%u,%03u,%03u", n / 1000000, n / 1000 % 1000, n % 1000);
	else if (n >= 1000)
		snprintf(buf, size, "%u,%03u", n / 1000, n % 1000);
	else
		snprintf(buf, size, "%u", n);
	return buf;
}

/**
 * bench_fail() - report a figure that could not be measured.
 * @test: its TAP test number.
 * @figure: its name.
 * @what: why.
 *
 * Return: -1, for the caller to pass on.
 */
int bench_fail(unsigned int test, const char *figure, const char *what)
{
	printf("not ok %u %s # %s\n", test, figure, what);
	return -1;
}

/**
 * bench_compare() - time a subject against its baseline and print the
 *	figure: both, the ratio of the first to the second, its TAP line.
 * @subj: the subject and its baseline.
 * @iters: operations per run.
 * @runs: runs per subject, 1..BENCH_SAMPLES_MAX.
 * @test: the TAP test number.
 * @figure: the figure's name.
 * @unit_of_op: what one operation is, for the lines of the subjects.
 * @goal: gets the ratio, unless NULL (a figure without a goal).
 *
 * Return: 0, or -1 after a "not ok" line when a run failed.
 */
int bench_compare(struct bench_subject subj[2], unsigned long iters, unsigned int runs,
		  unsigned int test, const char *figure, const char *unit_of_op,
		  struct bench_goal *goal)
{
	if (bench_run(subj, 2, iters, runs) < 0)
		return bench_fail(test, figure, "a run failed");
	bench_print(&subj[0], unit_of_op);
	bench_print(&subj[1], unit_of_op);
	bench_print_ratio(&subj[0], &subj[1]);
	if (goal) {
		goal->value = bench_ratio(&subj[0], &subj[1], NULL, NULL);
		goal->measured = true;
	}
	printf("ok %u %s\n", test, figure);
	return 0;
}
