// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event deadlock detection (checked mode).
 *
 * The wait-for graph has one edge per stuck thread: a live thread bound to
 * a pipe, blocked in a wait that only a set can end (no deadline), on a
 * HardEvent E; the edge leads to the thread bound to E's source pipe.
 * While that thread lives, no other thread may set E (pipe ownership, see
 * struct asc_tpipe), so when the edges from a stuck thread come back to
 * it, the threads on that cycle wait for flags only they can set, and
 * they are all stuck: the cycle is final.  A chain that reaches a pipe
 * nobody owns, or a thread that runs or waits with a deadline, is no
 * deadlock: that thread, or anyone for an ownerless pipe, may still set.
 *
 * Every cycle closes when its last thread begins its stuck wait, and the
 * detector looks only then, from that thread; so a cycle is reported once,
 * whatever the timing.  Only the waits on the cycle fail.  A stuck wait
 * whose chain merely leads into the cycle stays blocked: the threads of
 * the cycle come back with -EDEADLK and may still set its flag.
 */

#include <linux/bitops.h>
#include <linux/lockdep.h>

#include "asc_event_hw.h"
#include "asc_event_report.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

/* The wait of a live bound thread that only a set can end, or NULL. */
static struct asc_waiter *asc_slot_stuck(const struct asc_tpipe *tp, int slot)
{
	struct asc_waiter *w = tp->slots[slot].wait;

	if (!w || !w->forever || READ_ONCE(w->state) != ASC_WAIT_PENDING)
		return NULL;
	return w;
}

/*
 * The pipes of the cycle that the chain of stuck threads from @slot comes
 * back to @slot on, or 0 when it ends elsewhere.
 */
static unsigned long asc_cycle_through(const struct asc_tpipe *tp, int slot)
{
	unsigned long seen = 0;
	struct asc_waiter *w;
	int s = slot;

	while ((w = asc_slot_stuck(tp, s))) {
		if (seen & BIT(s))
			break;
		seen |= BIT(s);
		s = asc_hard_events[w->event].src;
		if (s == slot)
			return seen;
	}
	return 0;
}

static void asc_deadlock_report(struct asc_tpipe *tp, unsigned long cycle,
				struct asc_report *r)
{
	struct asc_waiter *w;
	int slot;

	asc_report_warn(r, "deadlock in TPipe %u (%s[%d]): these pipes wait forever for flags only they can set",
			tp->serial, tp->owner.comm, tp->owner.tgid);
	for_each_set_bit(slot, &cycle, ASC_NR_PIPES) {
		w = tp->slots[slot].wait;
		asc_report_warn(r, "  %s waits for %s id %u, set by %s",
				asc_slot_name(slot),
				asc_hard_event_name(w->event), w->id,
				asc_slot_name(asc_hard_events[w->event].src));
	}
	asc_report_ids(r, "allocated", tp->pool);
	asc_report_ids(r, "set", tp->hw->flags);
}

/**
 * asc_tpipe_find_deadlock() - the waits a new stuck wait closes a cycle of.
 * @tp: TPipe, locked, in checked mode.
 * @slot: pipe slot of the bound thread that has just begun a forever wait.
 * @report: out: the report to print once @tp is unlocked, or NULL.
 *
 * When the chain of stuck threads from @slot comes back to it, the
 * deadlock is counted and traced and a report is built (within the
 * opener's rate limit).
 *
 * Return: the slots of the cycle, whose waits must fail with -%EDEADLK;
 * 0 for none.
 */
unsigned long asc_tpipe_find_deadlock(struct asc_tpipe *tp, int slot,
				      struct asc_report **report)
{
	unsigned long cycle;
	struct asc_waiter *w;
	int s;

	lockdep_assert_held(&tp->lock);

	*report = NULL;
	cycle = asc_cycle_through(tp, slot);
	if (!cycle)
		return 0;
	for_each_set_bit(s, &cycle, ASC_NR_PIPES) {
		w = tp->slots[s].wait;
		trace_asc_event_deadlock(tp->serial, s, w->event, w->id);
	}
	asc_stat_add(ASC_STAT_DEADLOCKS, 1);
	*report = asc_report_start(tp->quota, ASC_REPORT_DEADLOCK);
	if (*report)
		asc_deadlock_report(tp, cycle, *report);
	return cycle;
}
