/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ported kernels of tools/examples/ share (example.c): the
 * command line, the run on libasc's core runtime, the check of the result
 * against plain C, and a switch that deletes one sync call.
 *
 * Each kernel is written line by line after a public Ascend C or pyasc
 * kernel.  Its sets and waits go through ex_set() and ex_wait(), its
 * queues' enques, deques and frees through ex_enque(), ex_deque() and
 * ex_free_tensor(), each naming its *site*: the line of the original file
 * it ports ("164", or "common:81" for a line of another file).  `-l` lists
 * the sites; `-s SITE` runs the kernel as if the line were deleted (every
 * call of that site does nothing), and the run must then report a missing
 * sync, a possible double set, a deadlock or a misuse of a queue (exit
 * status 3; in a launch, a deadlock across its cores counts too).  The
 * helpers are macros that pass the caller's file and line on, so that
 * reports name the port's lines.  A run that deletes
 * nothing and takes none of the example's own options (the defaults the
 * deletions run with) must call every site at least once, so that each
 * deletion is one that matters.
 */
#ifndef ASC_EXAMPLE_H
#define ASC_EXAMPLE_H

#include <asc.h>

/**
 * struct ex_site - a sync call of the original kernel.
 * @key: the line it ports, what `-s` takes.
 * @call: the call as the original writes it, for `-l`.
 */
struct ex_site {
	const char *key;
	const char *call;
};

/**
 * struct example - one ported kernel.
 * @name: the program's name.
 * @what: one line on what it computes.
 * @follows: the repository, file, lines (and commit) it follows.
 * @sites: its sync calls, @nsites of them.
 * @nsites: how many.
 * @options: getopt letters of its own options, or NULL.
 * @options_help: their help lines.
 * @option: takes one of them; 0, or -1 for a bad argument.
 * @prepare: makes the inputs and the expected output (plain C); 0 or -1.
 * @runs: how many times to run @kernel, each run a new core (0 is once);
 *	ex_run says which run it is.
 * @launch_kind: with @block_dim, the ASC_LAUNCH_* kind of a launch.
 * @block_dim: 0: @kernel runs on one core (asc_core_run()); else on a
 *	launch of that many AI cores (asc_launch_run()).
 * @kernel: the kernel, run with a NULL argument.
 * @verify: after the runs, 0 when the output is the expected one; else
 *	prints the first difference and returns -1.
 * @cleanup: frees what @prepare made, or NULL.
 */
struct example {
	const char *name;
	const char *what;
	const char *follows;
	const struct ex_site *sites;
	unsigned int nsites;
	const char *options;
	const char *options_help;
	int (*option)(int opt, const char *arg);
	int (*prepare)(void);
	unsigned int runs;
	int launch_kind;
	unsigned int block_dim;
	asc_kernel_fn kernel;
	int (*verify)(void);
	void (*cleanup)(void);
};

/* Which run of the kernel this is, 0 to runs - 1. */
extern unsigned int ex_run;

/*
 * Each helper below ends in @file and @line, the call site its macro
 * passes (ex_set() for ex_set_at(), and so on).
 */

/**
 * ex_set_at() - set_flag(@event, @id) at site @key, unless it is deleted.
 * @core: the core.
 * @key: the site (an ex_site key of the running example).
 * @event: HardEvent.
 * @id: event ID.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_set_flag() returns; 0 when the site is deleted.
 */
int ex_set_at(struct asc_core *core, const char *key, int event, int id,
	      const char *file, int line);

/**
 * ex_wait_at() - wait_flag(@event, @id) at site @key, unless it is deleted.
 * @core: the core.
 * @key: the site.
 * @event: HardEvent.
 * @id: event ID.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_wait_flag() returns; 0 when the site is deleted.
 */
int ex_wait_at(struct asc_core *core, const char *key, int event, int id,
	       const char *file, int line);

/**
 * ex_cross_set_at() - cross_core_set_flag(@flag_id, @mode, @pipe_id) at
 * site @key, unless it is deleted.
 * @core: the core, of a launch.
 * @key: the site.
 * @flag_id: cross-core flag.
 * @mode: 0, 1 or 2.
 * @pipe_id: the pipe that issues it.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_cross_set_flag() returns; 0 when the site is
 * deleted.
 */
int ex_cross_set_at(struct asc_core *core, const char *key, int flag_id,
		    int mode, int pipe_id, const char *file, int line);

/**
 * ex_cross_wait_at() - cross_core_wait_flag(@flag_id, @pipe_id) at site
 * @key, unless it is deleted.
 * @core: the core, of a launch.
 * @key: the site.
 * @flag_id: cross-core flag.
 * @pipe_id: the pipe that waits (S: the scalar).
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_cross_wait_flag() returns; 0 when the site is
 * deleted.
 */
int ex_cross_wait_at(struct asc_core *core, const char *key, int flag_id,
		     int pipe_id, const char *file, int line);

/**
 * ex_pipe_barrier_at() - PipeBarrier<@pipe_id>() at site @key, unless it
 * is deleted.
 * @core: the core.
 * @key: the site.
 * @pipe_id: the pipe, or ASC_PIPE_ALL.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_pipe_barrier() returns; 0 when the site is
 * deleted.
 */
int ex_pipe_barrier_at(struct asc_core *core, const char *key, int pipe_id,
		       const char *file, int line);

/**
 * ex_sync_all_at() - SyncAll() at site @key, unless it is deleted.
 * @core: the core, of a launch.
 * @key: the site.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_sync_all() returns; 0 when the site is deleted.
 */
int ex_sync_all_at(struct asc_core *core, const char *key, const char *file,
		   int line);

/**
 * ex_enque_at() - que.EnQue(@t) at site @key, unless it is deleted.
 * @core: the core.
 * @key: the site.
 * @que: the queue.
 * @t: the tensor.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_enque() returns; 0 when the site is deleted.
 */
int ex_enque_at(struct asc_core *core, const char *key, struct asc_que *que,
		const struct asc_local *t, const char *file, int line);

/**
 * ex_deque_at() - que.DeQue() at site @key; deleted, the tensor it would
 * return without the dequeue (and its wait).
 * @core: the core.
 * @key: the site.
 * @que: the queue.
 * @out: where to store the tensor.
 * @file: the caller's file.
 * @line: its line.
 *
 * The kernel goes on with the tensor as if the line were not there but
 * the data were: the oldest the kernel enqueued through ex_enque() and
 * has not dequeued through this call, which the queue still holds.
 *
 * Return: what asc_core_deque() returns; when the site is deleted, 0, or
 * -1 with errno ENODATA when nothing was enqueued.
 */
int ex_deque_at(struct asc_core *core, const char *key, struct asc_que *que,
		struct asc_local *out, const char *file, int line);

/**
 * ex_free_tensor_at() - que.FreeTensor(@t) at site @key, unless it is
 * deleted.
 * @core: the core.
 * @key: the site.
 * @que: the queue.
 * @t: the tensor.
 * @file: the caller's file.
 * @line: its line.
 *
 * Return: what asc_core_free_tensor() returns; 0 when the site is deleted.
 */
int ex_free_tensor_at(struct asc_core *core, const char *key, struct asc_que *que,
		      const struct asc_local *t, const char *file, int line);

#define ex_set(...)		ex_set_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_wait(...)		ex_wait_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_cross_set(...)	ex_cross_set_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_cross_wait(...)	ex_cross_wait_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_pipe_barrier(...)	ex_pipe_barrier_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_sync_all(...)	ex_sync_all_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_enque(...)		ex_enque_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_deque(...)		ex_deque_at(__VA_ARGS__, __FILE__, __LINE__)
#define ex_free_tensor(...)	ex_free_tensor_at(__VA_ARGS__, __FILE__, __LINE__)

/**
 * ex_main() - the program: options, device, prepare, run, verify.
 * @ex: the example.
 * @argc: from main().
 * @argv: from main().
 *
 * Return: the exit status: 0 verified; 1 error or wrong result; 2 bad
 * usage; 3 the run reported a missing sync, a possible double set, a
 * deadlock, a misuse of a queue or an error of the memory checks (an
 * "out of bounds:", "misaligned:" or, with ASC_UNINIT_READS=error,
 * "uninitialized read:" line, EFAULT); 4 no device.
 */
int ex_main(const struct example *ex, int argc, char **argv);

#endif /* ASC_EXAMPLE_H */
