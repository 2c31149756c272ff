// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event reports: the deadlock detector and its report, and the leak
 * report of a reset or close.  Both are what a sanitizer prints: the
 * kernel log names the TPipe's owner and the exact (HardEvent, ID)s, the
 * counters in sysfs and the tracepoints count every occurrence, and the
 * log lines are rate-limited module-wide because userspace can cause them
 * at will.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>

#include "asc_event_hw.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

/* Room for a report line's list of IDs; longer lists end in "...". */
#define ASC_REPORT_IDS_LEN	160

static DEFINE_RATELIMIT_STATE(asc_deadlock_rs, 5 * HZ, 20);
static DEFINE_RATELIMIT_STATE(asc_leak_rs, 5 * HZ, 20);

/**
 * asc_format_ids() - write a set of (HardEvent, ID)s as text.
 * @buf: where to write.
 * @size: size of @buf, at least 4.
 * @words: one bit word per HardEvent (a pool or the flag registers).
 *
 * The text is "MTE2_V:0,1 V_MTE3:3", "none" for an empty set, cut short
 * with "..." when it does not fit.
 *
 * Return: the length written, without the terminating NUL.
 */
int asc_format_ids(char *buf, size_t size, const u64 *words)
{
	unsigned int event, id;
	int len = 0;

	buf[0] = '\0';
	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++) {
		u64 word = READ_ONCE(words[event]);
		const char *sep = ":";

		if (!word)
			continue;
		len += scnprintf(buf + len, size - len, "%s%s", len ? " " : "",
				 asc_hard_event_name(event));
		while (word) {
			id = __ffs64(word);
			word &= word - 1;
			len += scnprintf(buf + len, size - len, "%s%u", sep, id);
			sep = ",";
		}
	}
	if (!len)
		return scnprintf(buf, size, "none");
	if ((size_t)len >= size - 1)
		len = size - 4 + scnprintf(buf + size - 4, 4, "...");
	return len;
}

/**
 * asc_tpipe_report_leak() - report IDs and flags a reset or close left.
 * @tp: TPipe, locked unless it is being destroyed.
 * @at_close: the TPipe is being closed rather than reset.
 * @left: what was left.
 */
void asc_tpipe_report_leak(struct asc_tpipe *tp, bool at_close,
			   const struct asc_tpipe_leftovers *left)
{
	char ids[ASC_REPORT_IDS_LEN], flags[ASC_REPORT_IDS_LEN];

	if (!left->ids_held && !left->flags_pending)
		return;

	asc_stat_add(ASC_STAT_LEAK_REPORTS, 1);
	asc_stat_add(ASC_STAT_LEAKED_IDS, left->ids_held);
	asc_stat_add(ASC_STAT_LEAKED_FLAGS, left->flags_pending);
	trace_asc_event_leak(tp->serial, at_close, left->ids_held,
			     left->flags_pending);
	if (!__ratelimit(&asc_leak_rs))
		return;

	asc_format_ids(ids, sizeof(ids), tp->pool);
	asc_format_ids(flags, sizeof(flags), tp->hw->flags);
	pr_warn("TPipe %u (%s[%d] uid %u) %s with %u IDs allocated (%s) and %u flags set never waited on (%s)\n",
		tp->serial, tp->owner.comm, tp->owner.tgid, tp->owner.uid,
		at_close ? "closed" : "reset", left->ids_held, ids,
		left->flags_pending, flags);
}

/* A bound thread blocked in a wait that only a set can end. */
static struct asc_waiter *asc_slot_stuck(const struct asc_tpipe *tp, int slot)
{
	struct asc_waiter *w = tp->slots[slot].wait;

	if (!tp->slots[slot].pid || !w || !w->forever ||
	    READ_ONCE(w->state) != ASC_WAIT_PENDING)
		return NULL;
	return w;
}

/*
 * Follow "waits for a flag set by" from @slot: true when the chain comes
 * back to a pipe it has passed, i.e. ends in a cycle of stuck threads.
 */
static bool asc_slot_deadlocked(const struct asc_tpipe *tp, int slot)
{
	unsigned long seen = 0;
	struct asc_waiter *w;

	while ((w = asc_slot_stuck(tp, slot))) {
		if (seen & BIT(slot))
			return true;
		seen |= BIT(slot);
		slot = asc_hard_events[w->event].src;
	}
	return false;
}

static void asc_tpipe_report_deadlock(struct asc_tpipe *tp,
				      unsigned long doomed)
{
	char ids[ASC_REPORT_IDS_LEN];
	struct asc_waiter *w;
	int slot;

	if (!__ratelimit(&asc_deadlock_rs))
		return;

	pr_warn("deadlock in TPipe %u (%s[%d]): these pipes wait forever for flags only they can set\n",
		tp->serial, tp->owner.comm, tp->owner.tgid);
	for_each_set_bit(slot, &doomed, ASC_NR_PIPES) {
		w = tp->slots[slot].wait;
		pr_warn("  %s waits for %s id %u, set by %s\n",
			asc_slot_name(slot), asc_hard_event_name(w->event),
			w->id,
			asc_slot_name(asc_hard_events[w->event].src));
	}
	asc_format_ids(ids, sizeof(ids), tp->pool);
	pr_warn("  allocated: %s\n", ids);
	asc_format_ids(ids, sizeof(ids), tp->hw->flags);
	pr_warn("  set: %s\n", ids);
}

/**
 * asc_tpipe_find_deadlock() - the waits a new forever wait dooms.
 * @tp: TPipe, locked, in checked mode, with no unbound setter.
 * @slot: pipe slot of the thread that has just begun a forever wait.
 *
 * The wait-for graph has one edge per stuck bound thread: to the thread
 * bound to the source pipe of the HardEvent it waits for.  When the chain
 * from @slot ends in a cycle, every stuck thread whose chain ends in a
 * cycle can never be woken: the report is logged and counted.
 *
 * Return: the slots whose waits must fail with -%EDEADLK, 0 for none.
 */
unsigned long asc_tpipe_find_deadlock(struct asc_tpipe *tp, int slot)
{
	unsigned long doomed = 0;
	struct asc_waiter *w;
	int s;

	lockdep_assert_held(&tp->lock);

	if (!asc_slot_deadlocked(tp, slot))
		return 0;
	for (s = 0; s < ASC_NR_PIPES; s++) {
		w = asc_slot_stuck(tp, s);
		if (w && asc_slot_deadlocked(tp, s)) {
			doomed |= BIT(s);
			trace_asc_event_deadlock(tp->serial, s, w->event, w->id);
		}
	}
	asc_stat_add(ASC_STAT_DEADLOCKS, 1);
	asc_tpipe_report_deadlock(tp, doomed);
	return doomed;
}
