// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event issued instructions: the scalar issues sets and waits, each
 * pipe runs them later, in order.
 *
 * On an AI core the scalar unit runs the kernel in program order and
 * issues every instruction into the in-order queue of its pipe: a set to
 * the HardEvent's source pipe, a wait to its destination pipe.  Whether
 * the instruction uses an allocated, fetched or hand-written ID is what
 * the scalar's bookkeeping says when it issues it, not when the pipe gets
 * to it: a program may release an ID right after issuing its set and
 * wait.  ASC_EVENT_IOC_ISSUE checks the instruction then and queues a
 * ticket on its pipe; ASC_EVENT_IOC_EXECUTE, called by the pipe's thread,
 * runs the oldest ticket of that pipe like SET_FLAG or WAIT_FLAG, without
 * looking at the ID's provenance again.  V_V and FIX_FIX are barriers
 * within one pipe on the chip, with no flag: their tickets run as no-ops.
 *
 * The queues are allocated by the first ISSUE and freed with the TPipe;
 * RESET empties them.  Everything here runs under the TPipe's lock.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/fault-inject-usercopy.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "asc_event_report.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

/* V_V and FIX_FIX: a barrier on one pipe, no flag. */
static bool asc_event_is_barrier(u32 event)
{
	return asc_hard_events[event].src == asc_hard_events[event].dst;
}

static struct asc_ticket *asc_queue_head(struct asc_pipe_queue *q)
{
	return q->count ? &q->t[q->head] : NULL;
}

static void asc_queue_pop(struct asc_pipe_queue *q)
{
	q->head = (q->head + 1) % ASC_EVENT_QUEUE_DEPTH;
	q->count--;
}

static struct asc_ticket *asc_queue_at(struct asc_pipe_queue *q,
				       unsigned int i)
{
	return &q->t[(q->head + i) % ASC_EVENT_QUEUE_DEPTH];
}

/**
 * asc_tpipe_queues_clear() - drop every issued instruction (RESET).
 * @tp: TPipe, locked.
 */
void asc_tpipe_queues_clear(struct asc_tpipe *tp)
{
	int slot;

	lockdep_assert_held(tp->lockp);

	if (!tp->queues)
		return;
	for (slot = 0; slot < ASC_NR_PIPES; slot++)
		tp->queues[slot].count = 0;
}

/**
 * asc_tpipe_handwritten_use() - whether hand-written code uses (@event, @id).
 * @tp: TPipe, locked.
 * @event: HardEvent.
 * @id: event ID.
 * @slot: out: the pipe slot of the use.
 *
 * A use is live while its flag is set by a hand-written set, while a
 * hand-written set or wait is issued and not yet run, or while a
 * hand-written wait is blocked.
 *
 * Return: what the use is, for a report, or NULL when there is none.
 */
const char *asc_tpipe_handwritten_use(struct asc_tpipe *tp, u32 event, u32 id,
				      int *slot)
{
	struct asc_ticket *t;
	struct asc_waiter *w;
	unsigned int i;
	int s;

	lockdep_assert_held(tp->lockp);

	if (test_bit(asc_handset_bit(tp, event, id), tp->handset)) {
		*slot = asc_hard_events[event].src;
		return "its flag, set by a hand-written set";
	}
	list_for_each_entry(w, asc_waiter_bucket(tp, ASC_WAIT_FLAG, event, id),
			    hnode) {
		if (w->kind == ASC_WAIT_FLAG && w->handwritten &&
		    w->event == event && w->id == id) {
			*slot = w->slot;
			return "a hand-written wait, blocked";
		}
	}
	for (s = 0; tp->queues && s < ASC_NR_PIPES; s++) {
		for (i = 0; i < tp->queues[s].count; i++) {
			t = asc_queue_at(&tp->queues[s], i);
			if (t->handwritten && t->event == event && t->id == id) {
				*slot = s;
				return t->op == ASC_EVENT_OP_SET ?
				       "a hand-written set, issued" :
				       "a hand-written wait, issued";
			}
		}
	}
	return NULL;
}

/*
 * asc_tpipe_put_user() for the ticket ISSUE hands out: one put_user() of
 * a known size, without the generic copy's string copy.
 */
static int asc_tpipe_put_ticket(const struct asc_tpipe *tp, u64 __user *uticket,
				u64 ticket)
{
	int ret;

	lockdep_assert_held(tp->lockp);

	if (should_fail_usercopy())
		return -EFAULT;
	pagefault_disable();
	ret = put_user(ticket, uticket);
	pagefault_enable();
	return ret ? -EFAULT : 0;
}

/**
 * asc_tpipe_issue() - the scalar issues a set or a wait to its pipe.
 * @tp: TPipe.
 * @args: the ioctl's arguments, flags checked; @args->ticket is filled in.
 * @uticket: where in userspace the ticket goes.
 * @spare: zeroed queues to install if the TPipe has none yet (the caller
 *	allocated them unlocked); taken when used, else left to the caller.
 *
 * Checked now, in program order: the caller must be the scalar (bound to
 * S, or unbound while nobody owns S), and, with strict IDs, the ID must
 * be allocated or the last one fetched.  The ticket is queued on the
 * set's source pipe or the wait's destination pipe only once it is
 * written to @uticket.
 *
 * Return: 0, -%EINVAL for a bad op, event or id, -%ENOMEM when @spare was
 * needed and is NULL, -%EPERM, -%ENOENT (strict) as above, -%EAGAIN when
 * that pipe's queue is full, -%EFAULT when @uticket could not be written
 * without a page fault.  Nothing is changed on failure.
 */
int asc_tpipe_issue(struct asc_tpipe *tp, struct asc_event_issue *args,
		    u64 __user *uticket, struct asc_pipe_queue *spare)
{
	u32 event = args->event, id = args->id;
	bool set = args->op == ASC_EVENT_OP_SET;
	struct asc_pipe_queue *q;
	struct asc_ticket *t;
	bool handwritten;
	int slot, pipe, ret;

	if (args->op != ASC_EVENT_OP_SET && args->op != ASC_EVENT_OP_WAIT)
		return -EINVAL;

	asc_tpipe_lock(tp);
	slot = asc_tpipe_caller_slot(tp);
	ret = asc_tpipe_check(tp, event, id);
	if (ret)
		goto out;
	if (!tp->queues && !spare) {
		ret = -ENOMEM;
		goto out;
	}
	if (tp->checked &&
	    (slot != ASC_SLOT_NONE ? slot != ASC_SLOT_S :
				     asc_tpipe_slot_owned(tp, ASC_SLOT_S))) {
		ret = -EPERM;
		goto out;
	}
	ret = asc_tpipe_check_id(tp, event, id, &handwritten);
	if (ret)
		goto out;
	pipe = set ? asc_hard_events[event].src : asc_hard_events[event].dst;
	q = &(tp->queues ?: spare)[pipe];
	if (q->count == ASC_EVENT_QUEUE_DEPTH) {
		ret = -EAGAIN;
		goto out;
	}
	args->ticket = tp->next_ticket;
	ret = asc_tpipe_put_ticket(tp, uticket, args->ticket);
	if (ret)
		goto out;

	if (!tp->queues) {
		WRITE_ONCE(tp->queues, spare);
		if (tp->state)
			WRITE_ONCE(tp->state->issued, 1);
	}
	t = asc_queue_at(q, q->count++);
	*t = (struct asc_ticket){
		.seq = tp->next_ticket++,
		.event = event,
		.id = id,
		.op = args->op,
		.handwritten = handwritten,
	};
out:
	if (ret != -EFAULT)
		trace_asc_event_issue(tp->serial, slot, args->op, event, id,
				      ret ? 0 : args->ticket, ret);
	asc_tpipe_unlock(tp);
	return ret;
}

/*
 * The pipe slot whose oldest instruction is @seq, or -%EINVAL when no
 * pipe's oldest instruction is.
 */
static int asc_tpipe_ticket_slot(struct asc_tpipe *tp, u64 seq)
{
	struct asc_ticket *t;
	int slot;

	lockdep_assert_held(tp->lockp);

	for (slot = 0; seq && tp->queues && slot < ASC_NR_PIPES; slot++) {
		t = asc_queue_head(&tp->queues[slot]);
		if (t && t->seq == seq)
			return slot;
	}
	return -EINVAL;
}

/*
 * Drop the oldest instruction of @slot's queue if it still is @seq: a
 * RESET may have emptied the queue while its wait was blocked.
 */
static void asc_tpipe_ticket_done(struct asc_tpipe *tp, int slot, u64 seq)
{
	struct asc_pipe_queue *q = &tp->queues[slot];
	struct asc_ticket *t = asc_queue_head(q);

	if (t && t->seq == seq)
		asc_queue_pop(q);
}

/**
 * asc_tpipe_execute() - a pipe runs the oldest instruction of its queue.
 * @tp: TPipe.
 * @seq: its ticket.
 * @deadline: for a wait, as for asc_tpipe_wait_flag().
 *
 * The caller must be the thread bound to the instruction's pipe (in both
 * modes: the queues belong to their pipes).  A set or wait runs as
 * SET_FLAG or WAIT_FLAG would, its ID's provenance decided at issue; V_V
 * and FIX_FIX run as no-ops.  The instruction leaves the queue once it has
 * run, whatever its result, but for a wait interrupted by a signal, which
 * stays to be run again.
 *
 * Return: 0, -%EINVAL when @seq is not the oldest instruction of a pipe,
 * -%EPERM when the caller is not bound to its pipe, -%EBUSY for a set
 * whose flag is set, the results of a wait.
 */
int asc_tpipe_execute(struct asc_tpipe *tp, u64 seq, u64 deadline)
{
	struct asc_waiter w = {
		.task = current,
		.forever = deadline == ASC_EVENT_WAIT_FOREVER,
		.state = ASC_WAIT_PENDING,
	};
	struct asc_wake_list wake = { .n = 0 };
	ktime_t expires = 0, start = 0;
	struct asc_ticket *t;
	int slot, ret;

	if (!w.forever)
		expires = asc_deadline_to_host(deadline);

	asc_tpipe_lock(tp);
	slot = asc_tpipe_ticket_slot(tp, seq);
	if (slot < 0) {
		ret = slot;
		goto out;
	}
	if (asc_tpipe_caller_slot(tp) != slot) {
		ret = -EPERM;
		goto out;
	}
	t = asc_queue_head(&tp->queues[slot]);
	w.event = t->event;
	w.id = t->id;
	w.slot = slot;
	w.handwritten = t->handwritten;

	if (asc_event_is_barrier(w.event)) {
		ret = 0;
	} else if (t->op == ASC_EVENT_OP_SET) {
		ret = asc_tpipe_raise(tp, w.event, w.id, w.handwritten, &wake);
		trace_asc_event_set(tp->serial, slot, w.event, w.id, ret);
	} else {
		if (trace_asc_event_wait_end_enabled())
			start = ktime_get();
		trace_asc_event_wait_start(tp->serial, slot, w.event, w.id,
					   w.forever);
		ret = asc_tpipe_wait_locked(tp, &w, expires);
		trace_asc_event_wait_end(tp->serial, slot, w.event, w.id, ret,
					 asc_waited_ns(start));
	}
	if (ret != -ERESTARTSYS)
		asc_tpipe_ticket_done(tp, slot, seq);
out:
	asc_tpipe_unlock(tp);
	asc_wake_up_all(&wake);
	return ret;
}
