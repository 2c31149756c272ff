// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event deadlock detection (checked mode).
 *
 * The nodes of the wait-for graph are the pipe slots of the cores: of one
 * TPipe, or of every core of the launch it has joined.  A node is stuck
 * while a live thread bound to it is blocked, on a checked TPipe, in a wait
 * that only a set can end (no deadline).  Who can end it:
 *  - a flag wait: a set from the HardEvent's source pipe on the same core;
 *  - a cross-core wait: for one of the groups whose sets count on the
 *    core, every member that has not yet issued the set issuing it, from
 *    any pipe but S;
 *  - SyncAll: every core of its group (every core, or the AIVs of a mix
 *    launch for their own SyncAll, asc_sync_group()) that has not reached
 *    it, from its pipe S.  A core of the group waiting in the other
 *    SyncAll has not reached it (an AIV cannot come to one while another
 *    AIV waits in the other, but the AIC of a mix launch can wait in its
 *    SyncAll while the AIVs meet in theirs).
 * While a live thread is bound to a pipe, it alone may do these for its
 * core (pipe ownership, see struct asc_tpipe; SyncAll belongs to S), so a
 * stuck node's pipe does nothing until its wait ends.
 *
 * A node may still act when it is not stuck (its thread runs, or waits
 * with a deadline, or no live thread stands for the pipe, so that anyone
 * may), or when the nodes that may act can end its wait; the nodes that
 * may act are found as a fixpoint.  A stuck node that may not act never
 * will: it is deadlocked.
 *
 * Deadlock can begin only when a node gets stuck, so the detector looks
 * only then, from that node.  It fails the waits of the deadlocked nodes
 * that wait, through one another, for the new one and it for them (its
 * strongly connected component); once they come back with -EDEADLK every
 * other node may act as it could before, so each deadlock is reported
 * once, whatever the timing.  With flag waits only, that component is a
 * cycle of pipes; a stuck wait whose chain merely leads into it stays
 * blocked: the threads of the cycle come back and may still set its flag.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/lockdep.h>
#include <linux/string.h>

#include "asc_event_hw.h"
#include "asc_event_launch.h"
#include "asc_event_report.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

#define ASC_DL_NODE(core, slot)	((core) * ASC_NR_PIPES + (slot))
#define ASC_DL_CORES_MAX	(3 * ASC_EVENT_BLOCK_DIM_MAX)

/**
 * struct asc_dl - one run of deadlock detection.
 * @tp: the TPipe of the wait that has just got stuck.
 * @l: its launch, or NULL: then @tp is the only core, core 0.
 * @nodes: nodes of the graph.
 * @reach: the stuck nodes the new wait waits for, through one another.
 * @live: those of @reach shown to be able to act.
 * @cycle: the deadlocked nodes of @reach that wait for the new wait.
 * @queue: breadth-first search through @reach.
 * @tail: end of @queue.
 */
struct asc_dl {
	struct asc_tpipe *tp;
	struct asc_launch *l;
	unsigned int nodes;
	unsigned long *reach;
	unsigned long *live;
	unsigned long *cycle;
	u16 *queue;
	unsigned int tail;
};

static struct asc_tpipe *asc_dl_tpipe(const struct asc_dl *d, u32 core)
{
	return d->l ? d->l->cores[core].tp : d->tp;
}

/* The wait that makes a node stuck, or NULL. */
static struct asc_waiter *asc_dl_stuck(const struct asc_dl *d,
				       unsigned int node)
{
	struct asc_tpipe *tp = asc_dl_tpipe(d, node / ASC_NR_PIPES);

	return tp ? asc_tpipe_slot_stuck(tp, node % ASC_NR_PIPES) : NULL;
}

static bool asc_dl_may_act(const struct asc_dl *d, unsigned int node)
{
	if (d->l && d->l->cores[node / ASC_NR_PIPES].gone)
		return false;
	return !asc_dl_stuck(d, node) || test_bit(node, d->live);
}

/* Whether a core may still issue a cross-core set. */
static bool asc_dl_core_may_set(const struct asc_dl *d, u32 core)
{
	int slot;

	for (slot = 0; slot < ASC_NR_PIPES; slot++) {
		if (slot != ASC_SLOT_S &&
		    asc_dl_may_act(d, ASC_DL_NODE(core, slot)))
			return true;
	}
	return false;
}

static bool asc_dl_group_may_complete(const struct asc_dl *d,
				      const struct asc_cross_group *g,
				      u32 flag)
{
	u32 c;

	for (c = g->first; c <= g->last; c++) {
		if (!d->l->cores[c].issued[g->mode][flag] &&
		    !asc_dl_core_may_set(d, c))
			return false;
	}
	return true;
}

/* Whether core @c has reached the SyncAll of @aiv. */
static bool asc_dl_synced(const struct asc_launch *l, u32 c, bool aiv)
{
	return l->cores[c].synced && l->cores[c].sync_aiv == aiv;
}

/* Whether the nodes that may act can end the wait @w of @node. */
static bool asc_dl_can_end(const struct asc_dl *d, unsigned int node,
			   const struct asc_waiter *w)
{
	struct asc_cross_group g[ASC_CROSS_MODES];
	u32 c, first, last, core = node / ASC_NR_PIPES;
	unsigned int i, n;
	bool aiv;

	switch (w->kind) {
	case ASC_WAIT_FLAG:
		return asc_dl_may_act(d, ASC_DL_NODE(core,
					asc_hard_events[w->event].src));
	case ASC_WAIT_CROSS:
		n = asc_cross_groups_into(d->l, core, g);
		for (i = 0; i < n; i++) {
			if (asc_dl_group_may_complete(d, &g[i], w->event))
				return true;
		}
		return false;
	default:
		aiv = d->l->cores[core].sync_aiv;
		if (asc_sync_group_gone(d->l, aiv))
			return false;
		asc_sync_group(d->l, aiv, &first, &last);
		for (c = first; c <= last; c++) {
			if (!asc_dl_synced(d->l, c, aiv) &&
			    !asc_dl_may_act(d, ASC_DL_NODE(c, ASC_SLOT_S)))
				return false;
		}
		return true;
	}
}

/*
 * Visit @node as an ender: with @cycle, say whether it is in @d->cycle;
 * without, add it to @d->reach and the queue when it is stuck and new.
 */
static bool asc_dl_visit(struct asc_dl *d, unsigned int node, bool cycle)
{
	if (cycle)
		return test_bit(node, d->cycle);
	if (asc_dl_stuck(d, node) && !__test_and_set_bit(node, d->reach))
		d->queue[d->tail++] = node;
	return false;
}

/*
 * Visit (asc_dl_visit()) every node that may end the wait @w of @node,
 * until a visit returns true.
 */
static bool asc_dl_any_ender(struct asc_dl *d, unsigned int node,
			     const struct asc_waiter *w, bool cycle)
{
	struct asc_cross_group g[ASC_CROSS_MODES];
	u32 c, first, last, core = node / ASC_NR_PIPES;
	unsigned int i, n;
	bool aiv;
	int slot;

	switch (w->kind) {
	case ASC_WAIT_FLAG:
		return asc_dl_visit(d, ASC_DL_NODE(core, asc_hard_events[w->event].src),
				    cycle);
	case ASC_WAIT_CROSS:
		n = asc_cross_groups_into(d->l, core, g);
		for (i = 0; i < n; i++) {
			for (c = g[i].first; c <= g[i].last; c++) {
				if (d->l->cores[c].issued[g[i].mode][w->event])
					continue;
				for (slot = 0; slot < ASC_NR_PIPES; slot++) {
					if (slot != ASC_SLOT_S &&
					    asc_dl_visit(d, ASC_DL_NODE(c, slot), cycle))
						return true;
				}
			}
		}
		return false;
	default:
		aiv = d->l->cores[core].sync_aiv;
		asc_sync_group(d->l, aiv, &first, &last);
		for (c = first; c <= last; c++) {
			if (!asc_dl_synced(d->l, c, aiv) &&
			    asc_dl_visit(d, ASC_DL_NODE(c, ASC_SLOT_S), cycle))
				return true;
		}
		return false;
	}
}

/* Fill @d->reach from @me, breadth first. */
static void asc_dl_find_reach(struct asc_dl *d, unsigned int me)
{
	unsigned int head = 0, node;

	__set_bit(me, d->reach);
	d->queue[d->tail++] = me;
	while (head < d->tail) {
		node = d->queue[head++];
		asc_dl_any_ender(d, node, asc_dl_stuck(d, node), false);
	}
}

/* Fill @d->live: the nodes of @d->reach that may act, as a fixpoint. */
static void asc_dl_find_live(struct asc_dl *d, unsigned int me)
{
	unsigned int node;
	bool changed;

	do {
		changed = false;
		for_each_set_bit(node, d->reach, d->nodes) {
			if (test_bit(node, d->live) ||
			    !asc_dl_can_end(d, node, asc_dl_stuck(d, node)))
				continue;
			__set_bit(node, d->live);
			changed = true;
		}
	} while (changed && !test_bit(me, d->live));
}

/* Fill @d->cycle: the deadlocked nodes that wait for @me, and @me. */
static void asc_dl_find_cycle(struct asc_dl *d, unsigned int me)
{
	unsigned int node;
	bool changed;

	__set_bit(me, d->cycle);
	do {
		changed = false;
		for_each_set_bit(node, d->reach, d->nodes) {
			if (test_bit(node, d->live) || test_bit(node, d->cycle) ||
			    !asc_dl_any_ender(d, node, asc_dl_stuck(d, node),
						   true))
				continue;
			__set_bit(node, d->cycle);
			changed = true;
		}
	} while (changed);
}

static void asc_dl_report_tpipe(struct asc_dl *d, struct asc_report *r)
{
	u64 flags[ASC_EVENT_NR_HARD_EVENTS];
	struct asc_tpipe *tp = d->tp;
	struct asc_waiter *w;
	unsigned int slot;

	asc_report_warn(r, "deadlock in TPipe %u (%s[%d]): these pipes wait forever for flags only they can set",
			tp->serial, tp->owner.comm, tp->owner.tgid);
	for_each_set_bit(slot, d->cycle, d->nodes) {
		w = tp->slots[slot].wait;
		asc_report_warn(r, "  %s waits for %s id %u, set by %s",
				asc_slot_name(slot),
				asc_hard_event_name(w->event), w->id,
				asc_slot_name(asc_hard_events[w->event].src));
	}
	asc_tpipe_pool_read(tp, flags);
	asc_report_ids(r, "allocated", flags);
	asc_tpipe_flags_read(tp, flags);
	asc_report_ids(r, "set", flags);
}

/* "cores 1,3-4" or "core 2": the cores of @set. */
static void asc_dl_format_cores(const struct asc_launch *l,
				const unsigned long *set, char *buf,
				size_t size)
{
	scnprintf(buf, size, "%s %*pbl",
		  bitmap_weight(set, l->ncores) == 1 ? "core" : "cores",
		  l->ncores, set);
}

static void asc_dl_report_wait(struct asc_dl *d, struct asc_report *r,
			       unsigned int node, const struct asc_waiter *w)
{
	DECLARE_BITMAP(cores, ASC_DL_CORES_MAX);
	struct asc_cross_group g[ASC_CROSS_MODES];
	u32 c, first, last, core = node / ASC_NR_PIPES;
	const struct asc_launch *l = d->l;
	char name[32], who[96];
	unsigned int i, n;
	bool aiv;

	asc_launch_core_name(l, core, name, sizeof(name));
	bitmap_zero(cores, ASC_DL_CORES_MAX);
	switch (w->kind) {
	case ASC_WAIT_FLAG:
		asc_report_warn(r, "  %s %s waits for %s id %u, set by %s",
				name, asc_slot_name(node % ASC_NR_PIPES),
				asc_hard_event_name(w->event), w->id,
				asc_slot_name(asc_hard_events[w->event].src));
		break;
	case ASC_WAIT_CROSS:
		n = asc_cross_groups_into(l, core, g);
		for (i = 0; i < n; i++) {
			for (c = g[i].first; c <= g[i].last; c++) {
				if (!l->cores[c].issued[g[i].mode][w->event])
					__set_bit(c, cores);
			}
		}
		asc_dl_format_cores(l, cores, who, sizeof(who));
		asc_report_warn(r, "  %s %s waits for cross-core flag %u, which %s have not set",
				name, asc_slot_name(node % ASC_NR_PIPES),
				w->event, who);
		break;
	default:
		aiv = l->cores[core].sync_aiv;
		asc_sync_group(l, aiv, &first, &last);
		for (c = first; c <= last; c++) {
			if (!asc_dl_synced(l, c, aiv))
				__set_bit(c, cores);
		}
		asc_dl_format_cores(l, cores, who, sizeof(who));
		asc_report_warn(r, "  %s %s waits in SyncAll%s for %s",
				name, asc_slot_name(node % ASC_NR_PIPES),
				aiv ? " of the AIVs" : "", who);
		break;
	}
}

static void asc_dl_report_launch(struct asc_dl *d, struct asc_report *r)
{
	unsigned int node;

	asc_report_warn(r, "deadlock in launch %u (%s[%d]): these cores and pipes wait forever for one another",
			d->l->serial, d->tp->owner.comm, d->tp->owner.tgid);
	for_each_set_bit(node, d->cycle, d->nodes)
		asc_dl_report_wait(d, r, node, asc_dl_stuck(d, node));
}

/*
 * Count, trace and report the deadlock in @d->cycle, and end its waits
 * (their tasks go to @wake).
 */
static struct asc_report *asc_dl_end_cycle(struct asc_dl *d,
					   struct asc_wake_list *wake)
{
	struct asc_report *r;
	struct asc_tpipe *tp;
	struct asc_waiter *w;
	unsigned int node;
	u32 core;

	asc_stat_add(ASC_STAT_DEADLOCKS, 1);
	r = asc_report_start(d->tp->quota, ASC_REPORT_DEADLOCK);
	if (r && d->l)
		asc_dl_report_launch(d, r);
	else if (r)
		asc_dl_report_tpipe(d, r);

	for_each_set_bit(node, d->cycle, d->nodes) {
		core = node / ASC_NR_PIPES;
		tp = asc_dl_tpipe(d, core);
		w = asc_dl_stuck(d, node);
		if (w->kind == ASC_WAIT_FLAG)
			trace_asc_event_deadlock(tp->serial, node % ASC_NR_PIPES,
						 w->event, w->id);
		else
			trace_asc_event_cross_deadlock(tp->serial,
						       d->l->serial, core,
						       node % ASC_NR_PIPES,
						       w->kind == ASC_WAIT_SYNC,
						       w->event);
	}
	for_each_set_bit(node, d->cycle, d->nodes)
		asc_waiter_end(asc_dl_stuck(d, node), ASC_WAIT_DEADLOCK, wake);
	return r;
}

/**
 * asc_tpipe_end_deadlocked() - fail the waits a new stuck wait deadlocks.
 * @tp: TPipe, locked, in checked mode.
 * @w: the forever wait a bound thread of @tp has just begun, already on
 *	the waiter list and in its slot.
 * @wake: where the tasks of the waits it ends go, to be woken once @tp is
 *	unlocked.
 *
 * When @w is deadlocked, the deadlock is counted and traced, its waits
 * (@w among them) end with -%EDEADLK, and a report is built within the
 * opener's rate limit.
 *
 * Return: the report to print once @tp is unlocked, or NULL.
 */
struct asc_report *asc_tpipe_end_deadlocked(struct asc_tpipe *tp,
					    struct asc_waiter *w,
					    struct asc_wake_list *wake)
{
	unsigned long bits[3] = {};
	u16 queue[ASC_NR_PIPES];
	struct asc_dl d = {
		.tp = tp,
		.l = tp->launch,
		.nodes = ASC_NR_PIPES,
		.reach = &bits[0],
		.live = &bits[1],
		.cycle = &bits[2],
		.queue = queue,
	};
	unsigned int me = w->slot;
	size_t longs;

	lockdep_assert_held(tp->lockp);
	BUILD_BUG_ON(ASC_NR_PIPES > BITS_PER_LONG);

	if (d.l) {
		d.nodes = d.l->ncores * ASC_NR_PIPES;
		longs = BITS_TO_LONGS(d.nodes);
		d.reach = d.l->scratch;
		d.live = d.reach + longs;
		d.cycle = d.live + longs;
		d.queue = (u16 *)(d.cycle + longs);
		bitmap_zero(d.reach, 3 * longs * BITS_PER_LONG);
		me = ASC_DL_NODE(tp->core, w->slot);
	}

	if (asc_dl_can_end(&d, me, w))
		return NULL;
	asc_dl_find_reach(&d, me);
	asc_dl_find_live(&d, me);
	if (test_bit(me, d.live))
		return NULL;
	asc_dl_find_cycle(&d, me);
	return asc_dl_end_cycle(&d, wake);
}
