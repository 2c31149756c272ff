/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cross-core missing-sync detector (race_launch.c, the check in race_launch_check.c):
 * accesses of one buffer by pipes of different cores of a launch that no
 * cross-core set/wait or SyncAll orders, found from the issue order
 * alone.
 *
 * Not installed.  launch.c makes one per launch, attaches it to the
 * detector of each core (race.c), tells it each core's cross-core sets,
 * waits and SyncAlls as they are issued, and asks after the launch;
 * lib/tests/race_launch.c drives it without a device.
 *
 * What a core records is touched only by that core's scalar thread (the
 * thread calling its race): no lock.  asc_xrace_check() runs once every core
 * has ended.
 */
#ifndef __LIBASC_XHB_H__
#define __LIBASC_XHB_H__

#include <stdint.h>

#include "race.h"
#include "internal.h"

struct asc_xrace;

/* Cores @first..@last of a launch, by the driver's numbering. */
struct asc_xrace_range {
	unsigned int first;
	unsigned int last;
};

/*
 * The chip's rule for a cross-core set of @mode (0, 1 or 2) by @core of a
 * launch of @kind (ASC_LAUNCH_*) on @block_dim AI cores (the AICs of a
 * mix launch are 0..block_dim-1, then the AIVs in pairs): the cores that
 * must all issue it before it counts (@group), and those whose counter
 * it then adds 1 to (@targets).  Return: 0, or -1 with EINVAL for a mode
 * the kind or core type does not have.
 */
int asc_xrace_set_group(int kind, unsigned int block_dim, unsigned int core,
		      int mode, struct asc_xrace_range *group,
		      struct asc_xrace_range *targets);

/* A detector for a launch; NULL with errno ENOMEM. */
struct asc_xrace *asc_xrace_new(int kind, unsigned int block_dim);
void asc_xrace_free(struct asc_xrace *x);

/*
 * Core @core runs with detector @race, named @name in the report ("core 0
 * (AIC 0)"): its work items' accesses are recorded as @race runs them.
 */
void asc_xrace_attach(struct asc_xrace *x, unsigned int core, struct asc_race *race,
		    const char *name);

/*
 * @core issues cross-core set (@flag_id, @mode) as instruction @seq.
 * Return: the mark to issue it to its race with (asc_race_mark()), or -1
 * with errno EINVAL (a mode the core does not have) or ENOMEM.
 */
long asc_xrace_cross_set(struct asc_xrace *x, unsigned int core, int flag_id,
		       int mode, unsigned long seq);

/*
 * @core issues cross-core wait @flag_id as instruction @seq to @pipe_id,
 * at position @pos of its race (S included: the wait is issued to the race
 * as an instruction of its own).  Return: 0 or -1 with errno ENOMEM.
 */
int asc_xrace_cross_wait(struct asc_xrace *x, unsigned int core, int flag_id,
		       int pipe_id, uint32_t pos, unsigned long seq);

/*
 * The software sync (workspace_sync.c): @core issues a set of the counter at @gm
 * as instruction @seq.  Return: the mark to issue it to its race with, or
 * -1 with errno ENOMEM.
 */
long asc_xrace_gm_set(struct asc_xrace *x, unsigned int core, const void *gm,
		    unsigned long seq);

/*
 * @core issues, as instruction @seq at position @pos of @pipe_id in its
 * race, a wait until the counter at @gm has had @count sets (1, 2, ...):
 * it joins the clock of the @count-th.  Return: 0 or -1 with errno
 * EINVAL or ENOMEM.
 */
int asc_xrace_gm_wait(struct asc_xrace *x, unsigned int core, const void *gm,
		    uint32_t count, int pipe_id, uint32_t pos,
		    unsigned long seq);

/*
 * @core reaches SyncAll (instruction @seq) right after its race ran the
 * pipe_barrier(PIPE_ALL) before it; @aiv: the AIVs' SyncAll of a mix
 * launch (an AIV's), not every core's.  Return: 0 or -1 with errno ENOMEM.
 */
int asc_xrace_sync_all(struct asc_xrace *x, unsigned int core, int aiv,
		     const struct asc_race *race, unsigned long seq);

/*
 * After the launch: every pair of accesses of different cores to
 * overlapping bytes, one a write, that no chain of cross-core sets and
 * waits or SyncAll orders (a missing sync), and every count of a
 * cross-core flag no wait took (a missing wait), a line each into @out.
 * Return: 0, or -1 with errno ENOLCK when something was found, ENOMEM.
 */
int asc_xrace_check(struct asc_xrace *x, struct asc_report *out);

#endif /* __LIBASC_XHB_H__ */
