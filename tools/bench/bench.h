/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc-bench: the device's figures against the kernel's own primitives,
 * each with its baseline measured in the same run.
 *
 * A figure is a few subjects (the device's operation and its baselines)
 * timed in interleaved runs: run 1 of every subject, then run 2 of every
 * subject, and so on, so that a change in the machine's load shows in
 * all of them alike.  Each subject's figure is the median of its runs,
 * printed with the spread (min..max); a ratio is the median of the ratios
 * of the two subjects' runs round by round (bench_ratio()).
 */
#ifndef ASC_BENCH_H
#define ASC_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include <asc.h>

/* The most runs of one subject (-r). */
#define BENCH_RUNS_MAX		31

/*
 * The handoff and alloc+release figures, whose goals are a few hundredths
 * from what they measure, split each run into this many shorter rounds:
 * as many operations timed, in three times as many pairs of neighbouring
 * runs.
 */
#define BENCH_SPLIT		3

/* The most runs of one subject in bench_run(). */
#define BENCH_SAMPLES_MAX	(BENCH_RUNS_MAX * BENCH_SPLIT)

/**
 * struct bench_opts - the options of one run of the benchmark.
 * @runs: timed runs per subject; the figure is their median.
 * @scale: iteration counts are divided by this (1, or 20 with --quick).
 * @tpipes: TPipes held open for the figures that open many.
 * @device: the device node.
 */
struct bench_opts {
	unsigned int runs;
	unsigned int scale;
	unsigned int tpipes;
	const char *device;
};

/**
 * typedef bench_fn - time one run of a subject.
 * @ctx: the subject's context.
 * @iters: operations to run.
 * @ns: out: the wall time of the @iters operations, in nanoseconds.
 *
 * Return: 0, or -1 with errno set; the message says what failed.
 */
typedef int (*bench_fn)(void *ctx, unsigned long iters, double *ns);

/**
 * struct bench_subject - one thing timed within a figure.
 * @name: its name in the output.
 * @fn: runs it.
 * @ctx: for @fn.
 * @samples: nanoseconds per operation of each run.
 * @nr: runs done.
 * @median: the median of @samples, once summarised.
 * @min: the fastest run.
 * @max: the slowest run.
 */
struct bench_subject {
	const char *name;
	bench_fn fn;
	void *ctx;
	double samples[BENCH_SAMPLES_MAX];
	unsigned int nr;
	double median, min, max;
};

/**
 * struct bench_goal - one row of the goals table.
 * @figure: what is compared.
 * @goal: the goal as written in the table.
 * @limit: the largest value that meets it.
 * @value: what the run measured.
 * @unit: "x" for a ratio, " B" for bytes.
 * @measured: false when the figure could not be measured.
 * @unmeasured: what the row says when not @measured, if not "unknown".
 */
struct bench_goal {
	const char *figure;
	const char *goal;
	double limit;
	double value;
	const char *unit;
	bool measured;
	const char *unmeasured;
};

/* measure.c */
double bench_now_ns(void);
void bench_settle(void);
int bench_run(struct bench_subject *subj, unsigned int nr, unsigned long iters,
	      unsigned int runs);
void bench_summarise(struct bench_subject *s);
void bench_print(const struct bench_subject *subj, const char *unit_of_op);
double bench_ratio(const struct bench_subject *num, const struct bench_subject *den,
		   double *min, double *max);
void bench_print_ratio(const struct bench_subject *num, const struct bench_subject *den);
const char *bench_count(char *buf, size_t size, unsigned int n);
int bench_fail(unsigned int test, const char *figure, const char *what);
int bench_compare(struct bench_subject subj[2], unsigned long iters, unsigned int runs,
		  unsigned int test, const char *figure, const char *unit_of_op,
		  struct bench_goal *goal);

/* handoff.c */
int bench_handoff(const struct bench_opts *opts, unsigned int test,
		  struct bench_goal *bound, struct bench_goal *unbound,
		  struct bench_goal *floor);
void *bench_handoff_asc_new(const char *device);
void bench_handoff_asc_free(void *ctx);
int bench_handoff_time(void *ctx, unsigned long iters, double *ns);

/**
 * struct bench_flag - one flag of one TPipe, for bench_set_wait().
 * @pipe: the TPipe.
 * @event: the HardEvent.
 * @id: an ID of @event allocated on @pipe.
 */
struct bench_flag {
	struct asc_pipe *pipe;
	int event;
	int id;
};

/* uncontended.c */
int bench_uncontended(const struct bench_opts *opts, unsigned int test,
		      struct bench_goal *bound, struct bench_goal *unbound);
int bench_set_wait(void *ctx, unsigned long iters, double *ns);
int bench_flag_open(struct bench_flag *f, const char *device);
int bench_sem_post_wait(void *ctx, unsigned long iters, double *ns);

/* ids.c */
int bench_ids(const struct bench_opts *opts, unsigned int test, struct bench_goal *lib,
	      struct bench_goal *page, struct bench_goal *ioctls);

/* many.c */
int bench_many(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal);
int bench_raise_nofile(unsigned int fds);

/* memory.c */
int bench_memory(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal);

/* core.c */
int bench_core(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal);

/* python.c */
int bench_python(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal);

#endif /* ASC_BENCH_H */
