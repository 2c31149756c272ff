// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The software sync of Ascend C between the cores of a launch: IBSet /
 * IBWait and SyncAll<false>, plain memory protocols over a workspace in
 * global memory that the kernel passes, as the chip runs them: counters
 * of 32 bits, one per 32 bytes (the chip's unit of a copy to global
 * memory), written by MTE3 and polled by MTE2.
 *
 * A set adds one to its counter when MTE3 runs it.  A wait runs on MTE2:
 * the pipe's thread looks at the counters until each has reached the
 * wait's target, sleeping between looks (a millisecond at most; a set
 * does not wake it), and tells the launch's deadlock detector that it
 * waits (CORE_BLOCK_GM): when no thread of the launch can act and the
 * counters are short, the launch fails with EDEADLK instead of spinning;
 * the launch's first error ends the wait too.  The target is counted by
 * the scalar as it issues: the n-th wait of a core for one counter waits
 * for n sets, so counters only grow and need no reset.
 *
 * Both detectors see the protocol as sync: each core's (race.c) sees a set
 * and a wait as instructions of MTE3 and MTE2 (the counters themselves
 * are not declared accesses: their races are the protocol), the
 * cross-core one (race_launch.c) as a set publishing its clock and a wait joining
 * the clock of the set it waited for.  IBSet and SyncAll begin with
 * pipe_barrier(PIPE_ALL), IBWait and SyncAll end with one, so that
 * everything before the set on any pipe is ordered before everything
 * after the wait.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core.h"
#include "race.h"
#include "race_launch.h"

/* A counter every 32 bytes. */
#define GM_SLOT_WORDS	(ASC_GM_SLOT_BYTES / sizeof(uint32_t))
#define GM_POLL_NS	(1000 * 1000L)

/* The cores of the caller's type: the blocks a workspace has slots for. */
static int gm_blocks(const struct asc_core *c)
{
	return c->block_num * c->sub_block_num;
}

static uint32_t *gm_slot(void *ws, size_t i)
{
	return (uint32_t *)ws + i * GM_SLOT_WORDS;
}

/* The number the scalar's next wait for the counter at @gm waits for. */
static int gm_next_target(struct asc_core *c, const uint32_t *gm,
			  uint32_t *target)
{
	struct core_gm_count *v;
	size_t i;

	for (i = 0; i < c->n_gm_waits; i++) {
		if (c->gm_waits[i].gm == gm) {
			*target = ++c->gm_waits[i].n;
			return 0;
		}
	}
	v = realloc(c->gm_waits, (c->n_gm_waits + 1) * sizeof(*v));
	if (!v)
		return -1;
	c->gm_waits = v;
	c->gm_waits[c->n_gm_waits++] = (struct core_gm_count){ gm, 1 };
	*target = 1;
	return 0;
}

/* Issue a set of the counter at @gm to MTE3, as instruction c->seq. */
static int gm_issue_set(struct asc_core *c, const char *what, uint32_t *gm)
{
	struct core_item it = { .kind = CORE_GM_SET, .seq = c->seq, .gm = gm,
				.gm_n = 1 };
	struct asc_xrace *x = asc_launch_xrace(c->launch);
	int lane = asc_core_lane_of(ASC_PIPE_MTE3), pos;
	long mark;

	if (asc_core_room(c, lane, false))
		return -1;
	if (x) {
		mark = asc_xrace_gm_set(x, c->index, gm, it.seq);
		if (mark < 0)
			return asc_core_call_fail(c, errno, "#%lu %s: the cross-core detector",
						  it.seq, what);
		pos = asc_race_mark(c->race, ASC_PIPE_MTE3, it.seq, what, mark);
	} else {
		pos = asc_race_work(c->race, ASC_PIPE_MTE3, it.seq, what, NULL, 0);
	}
	if (pos < 0)
		return asc_core_race_fail(c, "the detector");
	return asc_core_enqueue(c, lane, &it, pos);
}

/*
 * Issue to MTE2, as instruction c->seq, a wait until each of the @n
 * counters from @gm has reached @target: IBWait's of (@block, @event), or
 * SyncAll's of blocks 0..@n-1 (@event -1).
 */
static int gm_issue_wait(struct asc_core *c, const char *what, uint32_t *gm,
			 unsigned int n, uint32_t target, int block, int event)
{
	struct core_item it = { .kind = CORE_GM_WAIT, .seq = c->seq, .gm = gm,
				.gm_n = n, .gm_target = target, .id = block,
				.event = event };
	struct asc_xrace *x = asc_launch_xrace(c->launch);
	int lane = asc_core_lane_of(ASC_PIPE_MTE2), pos;
	unsigned int i;

	if (asc_core_room(c, lane, false))
		return -1;
	pos = asc_race_work(c->race, ASC_PIPE_MTE2, it.seq, what, NULL, 0);
	if (pos < 0)
		return asc_core_race_fail(c, "the detector");
	for (i = 0; x && i < n; i++)
		if (asc_xrace_gm_wait(x, c->index, gm + i * GM_SLOT_WORDS, target,
				    ASC_PIPE_MTE2, pos, it.seq))
			return asc_core_call_fail(c, errno, "#%lu %s: the cross-core detector",
						  it.seq, what);
	return asc_core_enqueue(c, lane, &it, pos);
}

/* Why @ws and @block_idx are refused by a call of @c, or NULL. */
static const char *gm_refused(const struct asc_core *c, const void *ws,
			      int block_idx, int blocks)
{
	if (!ws)
		return "no workspace";
	if ((uintptr_t)ws % sizeof(uint32_t))
		return "the workspace is not 4-byte aligned";
	if (block_idx < 0 || block_idx >= blocks)
		return "no such block";
	(void)c;
	return NULL;
}

/* Enter a call of the software sync: the checks every one makes. */
static int gm_enter(struct asc_core *c, const char *what, const void *ws,
		    int block_idx, int blocks, int event_id)
{
	const char *why;

	if (asc_core_enter(c))
		return -1;
	if (!c->launch)
		return asc_core_call_fail(c, ENOTCONN, "#%lu %s: not a core of a launch",
					  c->seq, what);
	why = gm_refused(c, ws, block_idx, blocks);
	if (!why && event_id < 0)
		why = "event IDs are 0 or more";
	if (why)
		return asc_core_call_fail(c, EINVAL, "#%lu %s(block %d, event %d): %s",
					  c->seq, what, block_idx, event_id, why);
	return 0;
}

ASC_API int asc_core_ib_set(struct asc_core *c, void *gm_workspace,
			    int block_idx, int event_id)
{
	size_t slot;

	if (!c)
		return asc_einval();
	if (gm_enter(c, "IBSet", gm_workspace, block_idx, gm_blocks(c), event_id))
		return -1;
	slot = (size_t)event_id * gm_blocks(c) + block_idx;
	if (asc_core_pipe_barrier(c, ASC_PIPE_ALL) || asc_core_enter(c))
		return -1;
	return gm_issue_set(c, "IBSet", gm_slot(gm_workspace, slot));
}

ASC_API int asc_core_ib_wait(struct asc_core *c, void *gm_workspace,
			     int block_idx, int event_id)
{
	uint32_t *gm, target;

	if (!c)
		return asc_einval();
	if (gm_enter(c, "IBWait", gm_workspace, block_idx, gm_blocks(c), event_id))
		return -1;
	gm = gm_slot(gm_workspace, (size_t)event_id * gm_blocks(c) + block_idx);
	if (gm_next_target(c, gm, &target))
		return asc_core_call_fail(c, ENOMEM, "#%lu IBWait", c->seq);
	if (gm_issue_wait(c, "IBWait", gm, 1, target, block_idx, event_id))
		return -1;
	return asc_core_pipe_barrier(c, ASC_PIPE_ALL);
}

ASC_API int asc_core_sync_all_gm(struct asc_core *c, void *gm_workspace,
				 int used_cores)
{
	const char *what = "SyncAll over global memory";
	int used;
	uint32_t round;

	if (!c)
		return asc_einval();
	used = used_cores ? used_cores : gm_blocks(c);
	if (asc_core_enter(c))
		return -1;
	if (!c->launch)
		return asc_core_call_fail(c, ENOTCONN, "#%lu %s: not a core of a launch",
					  c->seq, what);
	if (used < 0 || used > gm_blocks(c) ||
	    gm_refused(c, gm_workspace, c->block_idx, used))
		return asc_core_call_fail(c, EINVAL, "#%lu %s(%d cores) on block %d: %s",
					  c->seq, what, used_cores, c->block_idx,
					  used < 0 || used > gm_blocks(c) ?
					  "more cores than the launch has" :
					  gm_refused(c, gm_workspace, c->block_idx, used));
	/* Rounds are counted per workspace: by the waits for its first slot. */
	if (gm_next_target(c, gm_workspace, &round))
		return asc_core_call_fail(c, ENOMEM, "#%lu %s", c->seq, what);
	if (asc_core_pipe_barrier(c, ASC_PIPE_ALL) || asc_core_enter(c) ||
	    gm_issue_set(c, what, gm_slot(gm_workspace, c->block_idx)) ||
	    asc_core_enter(c) ||
	    gm_issue_wait(c, what, gm_workspace, used, round, 0, -1))
		return -1;
	return asc_core_pipe_barrier(c, ASC_PIPE_ALL);
}

ASC_API int asc_core_ib_set_at(struct asc_core *c, void *gm_workspace,
			       int block_idx, int event_id, const char *file,
			       int line)
{
	CORE_AT(int, asc_core_ib_set(c, gm_workspace, block_idx, event_id));
}

ASC_API int asc_core_ib_wait_at(struct asc_core *c, void *gm_workspace,
				int block_idx, int event_id, const char *file,
				int line)
{
	CORE_AT(int, asc_core_ib_wait(c, gm_workspace, block_idx, event_id));
}

ASC_API int asc_core_sync_all_gm_at(struct asc_core *c, void *gm_workspace,
				    int used_cores, const char *file, int line)
{
	CORE_AT(int, asc_core_sync_all_gm(c, gm_workspace, used_cores));
}

static bool gm_reached(const struct core_item *it)
{
	unsigned int i;

	for (i = 0; i < it->gm_n; i++)
		if (__atomic_load_n(it->gm + i * GM_SLOT_WORDS, __ATOMIC_ACQUIRE) <
		    it->gm_target)
			return false;
	return true;
}

/* A pipe of a core of a launch runs a set or a wait (launch.c). */
void asc_wsync_lane_run(struct asc_core *c, struct core_lane *ln,
			 const struct core_item *it)
{
	struct timespec t;

	if (it->kind == CORE_GM_SET) {
		__atomic_fetch_add(it->gm, 1, __ATOMIC_RELEASE);
		return;
	}
	pthread_mutex_lock(c->lock);
	while (!gm_reached(it) && !c->err) {
		ln->block = CORE_BLOCK_GM;
		ln->gm_wait = it;
		asc_launch_check(c->launch);
		if (c->err)
			break;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += GM_POLL_NS;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&ln->wake, c->lock, &t);
	}
	ln->block = CORE_RUNS;
	ln->gm_wait = NULL;
	pthread_mutex_unlock(c->lock);
}

/* Under the lock: @ln waits for counters that are short. */
bool asc_wsync_stuck(const struct core_lane *ln)
{
	return ln->gm_wait && !gm_reached(ln->gm_wait);
}

/* Under the lock: a line of the deadlock report for @ln of core @name. */
void asc_wsync_report(const struct core_lane *ln, const char *name,
		       struct asc_report *r)
{
	const struct core_item *it = ln->gm_wait;
	char at[144], whose[48];
	uint32_t *gm;
	unsigned int i;

	if (!it)
		return;
	for (i = 0; i < it->gm_n; i++)
		if (__atomic_load_n(it->gm + i * GM_SLOT_WORDS, __ATOMIC_ACQUIRE) <
		    it->gm_target)
			break;
	if (i == it->gm_n)
		return;
	asc_core_site_text(&it->site, at, sizeof(at));
	gm = it->gm + i * GM_SLOT_WORDS;
	if (it->event < 0)
		snprintf(whose, sizeof(whose), "block %u", i);
	else
		snprintf(whose, sizeof(whose), "block %d, event %d", it->id,
			 it->event);
	asc_report_add(r, "  %s %s waits (#%lu %s%s) for the counter of %s to reach %u; it is %u",
		       name, asc_pipe_id_name(ln->pipe_id), it->seq,
		       it->event < 0 ? "SyncAll over global memory" : "IBWait",
		       at, whose, it->gm_target,
		       __atomic_load_n(gm, __ATOMIC_ACQUIRE));
}
