// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core runtime's missing-sync detector: happens-before over the
 * instructions the scalar issues, computed from the issue order alone, so
 * that it finds the same things on every run whatever the threads do.
 *
 * The model is the chip's.  Each of the seven pipes (S, V, M, MTE1, MTE2,
 * MTE3, FIX) is a lane: an in-order queue of the instructions issued to
 * it.  A set of (E, id) goes to the lane of E's source pipe, a wait to
 * its destination's; V_V and FIX_FIX are barriers of one pipe, and a
 * barrier of one pipe orders nothing its queue does not already order.
 * The k-th wait of (E, id) takes the flag of the k-th set of (E, id): all
 * sets of E run in order on one pipe, all waits on another, and a second
 * set before the wait of the first is an error of its own (below).
 *
 * The abstract execution runs every lane as far as it can: an instruction
 * runs once the one before it on its lane has run and, for a wait, once
 * its set has.  Each instruction that runs gets a vector clock over the
 * lanes: its lane's clock with its own position, joined with its set's
 * clock for a wait.  Instruction A happens before B when A's position is
 * at most B's clock on A's lane.  What runs, and every clock, depends only
 * on the instructions issued so far and their order, never on how the
 * pipe threads are doing; the real pipes can never be ahead of it, since
 * the runtime hands an instruction to its pipe only after this file has
 * seen it.  pipe_barrier(PIPE_ALL) waits until every lane has run all it
 * holds and joins every clock into every lane's.
 *
 * The scalar orders what it issues after what it has done itself, since
 * it runs its own instructions when it reaches them: a wait on S blocks
 * it, and a load of the scalar is done once it has the value.  So every
 * instruction gets, when it is issued, what the scalar knows then: its
 * clock, and a component of its own, HB_ISSUE, with the scalar's
 * position.  A store of the scalar is posted, not done: it is ordered
 * before a pipe's loads only by an S_* flag, as on the chip (or a flag
 * that went out after it and came back to S, or PIPE_ALL).  So the S
 * component of what the scalar hands on is not its own position but the
 * highest one a flag brought back (@s_pub), and the S lane's accesses are
 * kept under HB_S when they write and under HB_ISSUE when they only read.
 * Issuing A before B orders nothing else: two pipes' instructions are
 * ordered only by sets and waits.
 *
 * What is reported, one line each, and the errno of the first:
 *
 * - ENOLCK, missing sync: two accesses of work items on different lanes
 *   to overlapping bytes, at least one a write, neither happening before
 *   the other.  Each access is checked against the earlier ones that are
 *   kept: an access is forgotten once a later one on the same bytes and
 *   more, ordered after it, makes it redundant (a write after anything; a
 *   read after a read), since whatever would race with the old one then
 *   races with the new one too.
 * - EBUSY, possible double set: a set of (E, id) that runs while the wait
 *   for the previous set of (E, id) has not run or does not happen before
 *   it.
 * - EDEADLK: lanes whose first waiting instructions wait for one another
 *   in a cycle (none of them can ever run: a set issued later queues
 *   behind them), found when the cycle closes; and, when the scalar must
 *   wait for a lane (a wait on S, a full queue, a drain), a wait there
 *   that nothing issued can satisfy.
 * - ENOLCK, missing wait: at a drain the caller names, a flag set and
 *   never waited for.
 *
 * Only the scalar thread calls these functions; no lock.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb.h"
#include "ranges.h"

#define HB_LANES	7
#define HB_S		ASC_HB_S
/* The clock component of what the scalar has done when it issues. */
#define HB_ISSUE	ASC_HB_ISSUE
#define HB_CLOCKS	ASC_HB_CLOCKS

_Static_assert(HB_ISSUE == HB_LANES, "the issue component follows the lanes");

/* Lane i stands for pipe hb_lane_pipe[i]; S is lane 0. */
static const int hb_lane_pipe[HB_LANES] = {
	ASC_PIPE_S, ASC_PIPE_V, ASC_PIPE_M, ASC_PIPE_MTE1, ASC_PIPE_MTE2,
	ASC_PIPE_MTE3, ASC_PIPE_FIX,
};

struct hb_clock {
	uint32_t t[HB_CLOCKS];
};


enum hb_kind {
	HB_WORK,
	HB_SET,
	HB_WAIT,
	HB_NOP,		/* a barrier of one pipe, V_V, FIX_FIX */
};

/*
 * struct hb_item - an issued instruction the abstract execution has not
 * run yet, on its lane's list; @issue is what the scalar knew when it
 * issued it.
 */
struct hb_item {
	struct hb_item *next;
	struct hb_clock issue;
	enum hb_kind kind;
	unsigned long seq;
	uint32_t pos;
	int event;
	int id;
	unsigned long mark;
	char *what;
	unsigned int nacc;
	struct asc_hb_span acc[];
};

/*
 * struct hb_lane - one pipe.
 * @head: the instructions issued and not run yet, oldest first.
 * @tail: where the next one goes.
 * @issued: instructions issued: the position of the last one.
 * @done: instructions run; @clock is the clock of the last of them.
 */
struct hb_lane {
	struct hb_item *head;
	struct hb_item **tail;
	uint32_t issued;
	uint32_t done;
	struct hb_clock clock;
};

/* A set that has run and whose flag no wait has taken yet. */
struct hb_set_run {
	struct hb_clock clock;
	unsigned long seq;
};

/*
 * struct hb_flag - one (HardEvent, ID).
 * @q: sets that have run and that no wait has taken yet, oldest first
 *	(at most one unless a double set was reported).
 * @qhead, @qlen, @qcap: the ring @q.
 * @sets_run, @waits_run: how many have run.
 * @set_seq: the last set that ran.
 * @wait_seq, @wait_pos: the last wait that ran, and its position.
 */
struct hb_flag {
	struct hb_set_run *q;
	uint32_t qhead;
	uint32_t qlen;
	uint32_t qcap;
	uint32_t sets_run;
	uint32_t waits_run;
	unsigned long set_seq;
	unsigned long wait_seq;
	uint32_t wait_pos;
};

/*
 * An access of a work item that has run, kept to check later ones
 * against; @lane is HB_ISSUE for a load of the scalar.
 */
struct hb_rec {
	struct asc_range range;		/* first: the bytes, in hb->hist */
	bool write;
	int lane;
	uint32_t pos;
	unsigned long seq;
	char *name;
	char *what;
};

/*
 * struct asc_hb - the detector.
 * @lane: the pipes, S first.
 * @flags: per HardEvent, its IDs; allocated on first use.
 * @s_pub: the highest position of the scalar's that a flag brought back
 *	to it (or PIPE_ALL): its stores up to there are out.
 * @hist: the accesses kept (struct hb_rec).
 * @found: scratch for the overlap queries of @hist.
 * @report: the findings.
 * @err: the errno of the first finding, 0 while there is none.
 * @tap: see asc_hb_tap(), with @tap_ctx.
 */
struct asc_hb {
	struct hb_lane lane[HB_LANES];
	uint32_t s_pub;
	struct hb_flag *flags[ASC_HARD_EVENT_COUNT];
	struct asc_ranges hist;
	struct asc_range_list found;
	struct asc_report report;
	int err;
	void (*tap)(void *ctx, const struct asc_hb_ran *ran);
	void *tap_ctx;
};

static int hb_lane_of(int pipe_id)
{
	int i;

	for (i = 0; i < HB_LANES; i++)
		if (hb_lane_pipe[i] == pipe_id)
			return i;
	return -1;
}

static const char *hb_lane_name(int lane)
{
	return asc_pipe_id_name(hb_lane_pipe[lane == HB_ISSUE ? HB_S : lane]);
}

static const char *hb_event_name(int event)
{
	return asc_hard_event_name(event);
}

static int hb_src(int event)
{
	return hb_lane_of(asc_hard_event_src_pipe(event));
}

static int hb_dst(int event)
{
	return hb_lane_of(asc_hard_event_dst_pipe(event));
}

static int hb_fail(int err)
{
	errno = err;
	return -1;
}

/* A finding: a line of the report; the first one's errno sticks. */
static void hb_find(struct asc_hb *hb, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void hb_find(struct asc_hb *hb, int err, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	asc_report_add(&hb->report, "%s", line);
	if (!hb->err)
		hb->err = err;
}

struct asc_hb *asc_hb_new(void)
{
	struct asc_hb *hb = calloc(1, sizeof(*hb));
	int i;

	if (!hb)
		return NULL;
	for (i = 0; i < HB_LANES; i++)
		hb->lane[i].tail = &hb->lane[i].head;
	return hb;
}

static void hb_item_free(struct hb_item *it)
{
	unsigned int i;

	for (i = 0; i < it->nacc; i++)
		free(it->acc[i].name);
	free(it->what);
	free(it);
}

static void hb_rec_free(struct asc_range *range)
{
	struct hb_rec *r = (struct hb_rec *)range;

	free(r->name);
	free(r->what);
	free(r);
}

void asc_hb_free(struct asc_hb *hb)
{
	struct hb_item *it, *next;
	size_t i;

	if (!hb)
		return;
	for (i = 0; i < HB_LANES; i++) {
		for (it = hb->lane[i].head; it; it = next) {
			next = it->next;
			hb_item_free(it);
		}
	}
	for (i = 0; i < ASC_HARD_EVENT_COUNT; i++) {
		if (!hb->flags[i])
			continue;
		for (int id = 0; id < ASC_EVENT_IDS_MAX; id++)
			free(hb->flags[i][id].q);
		free(hb->flags[i]);
	}
	asc_ranges_clear(&hb->hist, hb_rec_free);
	free(hb->found.v);
	asc_report_free(&hb->report);
	free(hb);
}

const char *asc_hb_report(const struct asc_hb *hb)
{
	return hb->report.buf;
}

char *asc_hb_take_report(struct asc_hb *hb)
{
	return asc_report_take(&hb->report);
}

/* The flag of (@event, @id), allocated with its HardEvent's on first use. */
static struct hb_flag *hb_flag_get(struct asc_hb *hb, int event, int id)
{
	if (!hb->flags[event]) {
		hb->flags[event] = calloc(ASC_EVENT_IDS_MAX, sizeof(struct hb_flag));
		if (!hb->flags[event])
			return NULL;
	}
	return &hb->flags[event][id];
}

static bool hb_happens_before(int lane, uint32_t pos, const struct hb_clock *c)
{
	return pos <= c->t[lane];
}

static void hb_clock_join(struct hb_clock *c, const struct hb_clock *o)
{
	int i;

	for (i = 0; i < HB_CLOCKS; i++)
		if (o->t[i] > c->t[i])
			c->t[i] = o->t[i];
}

static const char *hb_verb(bool write)
{
	return write ? "writes" : "reads";
}

/* "name" [0x1000+64], or just the range for an access without a name. */
static void hb_range(char *buf, size_t len, const char *name, uintptr_t lo,
		     uintptr_t hi)
{
	if (name)
		snprintf(buf, len, "\"%s\" [%#lx+%lu]", name, (unsigned long)lo,
			 (unsigned long)(hi - lo));
	else
		snprintf(buf, len, "[%#lx+%lu]", (unsigned long)lo,
			 (unsigned long)(hi - lo));
}

static bool hb_same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void hb_report_race(struct asc_hb *hb, const struct hb_rec *r,
			   int lane, const struct hb_item *it,
			   const struct asc_hb_span *a)
{
	char first[160], second[160];

	hb_range(first, sizeof(first), r->name, r->range.lo, r->range.hi);
	if (hb_same_name(r->name, a->name) && r->range.lo == a->lo &&
	    r->range.hi == a->hi)
		snprintf(second, sizeof(second), "it");
	else
		hb_range(second, sizeof(second), a->name, a->lo, a->hi);
	hb_find(hb, ENOLCK,
		"missing sync: %s %s %s (#%lu %s) and %s %s %s (#%lu %s): no set/wait or barrier orders them",
		hb_lane_name(r->lane), hb_verb(r->write), first, r->seq,
		r->what, hb_lane_name(lane), hb_verb(a->write), second,
		it->seq, it->what);
}

/* Old record @r is redundant after access @a of lane @lane at clock @c. */
static bool hb_covers(const struct hb_rec *r, const struct asc_hb_span *a,
		      int lane, const struct hb_clock *c)
{
	return a->lo <= r->range.lo && r->range.hi <= a->hi &&
	       (a->write || !r->write) &&
	       (r->lane == lane || hb_happens_before(r->lane, r->pos, c));
}

/* Keep @a of work item @it: forget what it makes redundant. */
static int hb_keep(struct asc_hb *hb, const struct hb_item *it,
		   const struct asc_hb_span *a, int lane, const struct hb_clock *c)
{
	struct hb_rec *r;
	size_t i;

	if (asc_ranges_overlap(&hb->hist, a->lo, a->hi, &hb->found))
		return -1;
	for (i = 0; i < hb->found.len; i++) {
		r = (struct hb_rec *)hb->found.v[i];
		if (hb_covers(r, a, lane, c)) {
			asc_ranges_remove(&hb->hist, &r->range);
			hb_rec_free(&r->range);
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -1;
	*r = (struct hb_rec){
		.range = { .lo = a->lo, .hi = a->hi },
		.write = a->write,
		/* A load of the scalar is done; its store is posted. */
		.lane = lane == HB_S && !a->write ? HB_ISSUE : lane,
		.pos = it->pos, .seq = it->seq,
		.name = a->name ? strdup(a->name) : NULL,
		.what = strdup(it->what),
	};
	if ((a->name && !r->name) || !r->what) {
		hb_rec_free(&r->range);
		return -1;
	}
	asc_ranges_insert(&hb->hist, &r->range);
	return 0;
}

/* Races are reported oldest access first, whatever the addresses. */
static int hb_rec_order(const void *pa, const void *pb)
{
	const struct hb_rec *a = *(const struct hb_rec *const *)pa;
	const struct hb_rec *b = *(const struct hb_rec *const *)pb;

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->range.lo != b->range.lo)
		return a->range.lo < b->range.lo ? -1 : 1;
	return a->range.key < b->range.key ? -1 : a->range.key > b->range.key;
}

/* A work item runs at clock @c: check its accesses, then keep them. */
static int hb_run_work(struct asc_hb *hb, int lane, const struct hb_item *it,
		       const struct hb_clock *c)
{
	const struct asc_hb_span *a;
	const struct hb_rec *r;
	size_t i, n;
	unsigned int k;

	for (k = 0; k < it->nacc; k++) {
		a = &it->acc[k];
		if (asc_ranges_overlap(&hb->hist, a->lo, a->hi, &hb->found))
			return -1;
		for (i = n = 0; i < hb->found.len; i++) {
			r = (const struct hb_rec *)hb->found.v[i];
			if ((r->write || a->write) && r->lane != lane &&
			    !hb_happens_before(r->lane, r->pos, c))
				hb->found.v[n++] = hb->found.v[i];
		}
		qsort(hb->found.v, n, sizeof(hb->found.v[0]), hb_rec_order);
		for (i = 0; i < n; i++)
			hb_report_race(hb, (const struct hb_rec *)hb->found.v[i],
				       lane, it, a);
	}
	for (k = 0; k < it->nacc; k++)
		if (hb_keep(hb, it, &it->acc[k], lane, c))
			return -1;
	return 0;
}

/* A set runs at clock @c: was the previous one waited for, before it? */
static int hb_run_set(struct asc_hb *hb, int lane, const struct hb_item *it,
		      struct hb_flag *f, const struct hb_clock *c)
{
	struct hb_set_run *q;
	int dst = hb_dst(it->event);
	/* A wait on S is over before the scalar issues anything after it. */
	int dst_clock = dst == HB_S ? HB_ISSUE : dst;

	if (f->sets_run && f->waits_run < f->sets_run)
		hb_find(hb, EBUSY,
			"possible double set: %s sets %s id %d (#%lu) before its previous set (#%lu) was waited for: no wait for it is ordered before it",
			hb_lane_name(lane), hb_event_name(it->event), it->id,
			it->seq, f->set_seq);
	else if (f->sets_run && !hb_happens_before(dst_clock, f->wait_pos, c))
		hb_find(hb, EBUSY,
			"possible double set: %s sets %s id %d (#%lu) before its previous set (#%lu) was waited for: nothing orders %s's wait (#%lu) before it",
			hb_lane_name(lane), hb_event_name(it->event), it->id,
			it->seq, f->set_seq, hb_lane_name(dst), f->wait_seq);

	if (f->qlen == f->qcap) {
		uint32_t cap = f->qcap ? 2 * f->qcap : 2, i;

		q = malloc(cap * sizeof(*q));
		if (!q)
			return -1;
		for (i = 0; i < f->qlen; i++)
			q[i] = f->q[(f->qhead + i) % f->qcap];
		free(f->q);
		f->q = q;
		f->qhead = 0;
		f->qcap = cap;
	}
	f->q[(f->qhead + f->qlen++) % f->qcap] = (struct hb_set_run){
		.clock = *c, .seq = it->seq,
	};
	f->sets_run++;
	f->set_seq = it->seq;
	return 0;
}

/*
 * Run the first instruction of @lane if it can run.  Return: 1 when it
 * ran, 0 when it cannot, -1 with errno ENOMEM.
 */
static int hb_step(struct asc_hb *hb, int lane)
{
	struct hb_lane *l = &hb->lane[lane];
	struct hb_item *it = l->head;
	struct hb_flag *f = NULL;
	struct hb_clock c = l->clock;
	int ret = 0;

	if (!it)
		return 0;
	hb_clock_join(&c, &it->issue);
	if (it->kind == HB_SET || it->kind == HB_WAIT) {
		f = hb_flag_get(hb, it->event, it->id);
		if (!f)
			return -1;
	}
	if (it->kind == HB_WAIT) {
		if (!f->qlen)
			return 0;
		hb_clock_join(&c, &f->q[f->qhead].clock);
		/* What a flag brings back to S publishes its stores. */
		if (lane == HB_S && f->q[f->qhead].clock.t[HB_S] > hb->s_pub)
			hb->s_pub = f->q[f->qhead].clock.t[HB_S];
		f->qhead = (f->qhead + 1) % f->qcap;
		f->qlen--;
	}
	c.t[lane] = it->pos;
	if (lane == HB_S)
		c.t[HB_ISSUE] = it->pos;
	switch (it->kind) {
	case HB_WORK:
		ret = hb_run_work(hb, lane, it, &c);
		if (!ret && hb->tap && (it->nacc || it->mark))
			hb->tap(hb->tap_ctx, &(struct asc_hb_ran){
				.lane = lane, .pos = it->pos, .seq = it->seq,
				.what = it->what, .clock = c.t,
				.mark = it->mark, .acc = it->acc,
				.nacc = it->nacc });
		break;
	case HB_SET:
		ret = hb_run_set(hb, lane, it, f, &c);
		break;
	case HB_WAIT:
		f->waits_run++;
		f->wait_seq = it->seq;
		f->wait_pos = it->pos;
		break;
	case HB_NOP:
		break;
	}
	if (ret)
		return -1;
	l->clock = c;
	l->done = it->pos;
	l->head = it->next;
	if (!l->head)
		l->tail = &l->head;
	hb_item_free(it);
	return 1;
}

/* The first pending set of (@event, @id) on its source lane, or NULL. */
static const struct hb_item *hb_pending_set(struct asc_hb *hb, int event,
					    int id)
{
	const struct hb_item *it;

	for (it = hb->lane[hb_src(event)].head; it; it = it->next)
		if (it->kind == HB_SET && it->event == event && it->id == id)
			return it;
	return NULL;
}

/*
 * One line of a deadlock report: @lane waits forever at its first
 * instruction.  Return: the lane it waits behind, or -1.
 */
static int hb_stuck_line(struct asc_hb *hb, int lane, const char *when)
{
	const struct hb_item *w = hb->lane[lane].head;
	const struct hb_item *s = hb_pending_set(hb, w->event, w->id);
	int src = hb_src(w->event);
	char why[160];

	if (s)
		snprintf(why, sizeof(why),
			 "its set (#%lu) is queued on %s behind %s's wait (#%lu)",
			 s->seq, hb_lane_name(src), hb_lane_name(src),
			 hb->lane[src].head->seq);
	else
		snprintf(why, sizeof(why), "no set of it was issued");
	hb_find(hb, EDEADLK, "deadlock: %s%s%s waits forever for %s id %d (#%lu): %s",
		when ? when : "", when ? ", " : "", hb_lane_name(lane),
		hb_event_name(w->event), w->id, w->seq, why);
	return s ? src : -1;
}

/* Deadlock lines from @lane along the lanes it waits behind. */
static void hb_stuck_chain(struct asc_hb *hb, int lane, const char *when)
{
	unsigned int seen = 0;

	while (lane >= 0 && !(seen & (1u << lane))) {
		seen |= 1u << lane;
		lane = hb_stuck_line(hb, lane, when);
	}
}

/*
 * Lanes whose first instructions wait for one another in a cycle: each
 * waits for a set only the next one can run, and any set issued later
 * queues behind them.  A lane waiting for S, or for a lane that has run
 * everything, may still be freed.
 */
static void hb_find_cycle(struct asc_hb *hb)
{
	const struct hb_item *w;
	unsigned int seen;
	int start, lane, src;
	char text[384];
	size_t len = 0;

	for (start = 0; start < HB_LANES; start++) {
		seen = 0;
		for (lane = start; hb->lane[lane].head; lane = src) {
			seen |= 1u << lane;
			src = hb_src(hb->lane[lane].head->event);
			if (src == HB_S || !hb->lane[src].head)
				break;
			if (seen & (1u << src))
				goto cycle;
		}
	}
	return;

cycle:
	/* src is on the cycle: report it from there. */
	start = src;
	lane = start;
	do {
		w = hb->lane[lane].head;
		src = hb_src(w->event);
		len += snprintf(text + len, sizeof(text) - len,
				"%s waits forever for %s id %d (#%lu), set by %s",
				len ? ", which" : hb_lane_name(lane),
				hb_event_name(w->event), w->id, w->seq,
				hb_lane_name(src));
		if (len >= sizeof(text))
			len = sizeof(text) - 1;
		lane = src;
	} while (lane != start);
	hb_find(hb, EDEADLK, "deadlock: %s", text);
}

/*
 * Run every lane as far as it goes, then look for what can never run:
 * a wait on S (the scalar must have its flag now) and cycles.
 */
static int hb_settle(struct asc_hb *hb)
{
	bool progress = true;
	int lane, ret;

	while (progress) {
		progress = false;
		for (lane = 0; lane < HB_LANES; lane++) {
			while ((ret = hb_step(hb, lane)) > 0)
				progress = true;
			if (ret < 0)
				return -1;
		}
	}
	if (hb->lane[HB_S].head)
		hb_stuck_chain(hb, HB_S, NULL);
	else if (!hb->err)
		hb_find_cycle(hb);
	return 0;
}

/*
 * Append @it to @lane and run what can run.  It comes after what the
 * scalar has done: S's clock, but for its stores not yet published.
 */
static int hb_issue(struct asc_hb *hb, int lane, struct hb_item *it)
{
	struct hb_lane *l = &hb->lane[lane];

	if (lane != HB_S) {
		it->issue = hb->lane[HB_S].clock;
		it->issue.t[HB_S] = hb->s_pub;
	}
	it->pos = ++l->issued;
	*l->tail = it;
	l->tail = &it->next;
	if (hb_settle(hb))
		hb_find(hb, ENOMEM, "out of memory: the detector stops here");
	return hb->err ? hb_fail(hb->err) : (int)it->pos;
}

static struct hb_item *hb_item_new(enum hb_kind kind, unsigned long seq,
				   unsigned int nacc)
{
	struct hb_item *it = calloc(1, sizeof(*it) + nacc * sizeof(it->acc[0]));

	if (!it)
		return NULL;
	it->kind = kind;
	it->seq = seq;
	return it;
}

int asc_hb_work(struct asc_hb *hb, int pipe_id, unsigned long seq,
		const char *what, const struct asc_access *acc,
		unsigned int nacc)
{
	int lane = hb_lane_of(pipe_id);
	struct hb_item *it;
	unsigned int i;

	if (hb->err)
		return hb_fail(hb->err);
	if (lane < 0 || (nacc && !acc))
		return hb_fail(EINVAL);
	for (i = 0; i < nacc; i++)
		if (!acc[i].size || (uintptr_t)acc[i].addr + acc[i].size <
		    (uintptr_t)acc[i].addr)
			return hb_fail(EINVAL);

	it = hb_item_new(HB_WORK, seq, nacc);
	if (!it)
		return -1;
	it->what = strdup(what ? what : "work");
	if (!it->what)
		goto err_free;
	for (i = 0; i < nacc; i++) {
		it->acc[i].lo = (uintptr_t)acc[i].addr;
		it->acc[i].hi = (uintptr_t)acc[i].addr + acc[i].size;
		it->acc[i].write = acc[i].write;
		if (acc[i].name) {
			it->acc[i].name = strdup(acc[i].name);
			if (!it->acc[i].name)
				goto err_free;
		}
		it->nacc = i + 1;
	}
	return hb_issue(hb, lane, it);

err_free:
	hb_item_free(it);
	return hb_fail(ENOMEM);
}

int asc_hb_mark(struct asc_hb *hb, int pipe_id, unsigned long seq,
		const char *what, unsigned long mark)
{
	int lane = hb_lane_of(pipe_id);
	struct hb_item *it;

	if (hb->err)
		return hb_fail(hb->err);
	if (lane < 0 || !mark)
		return hb_fail(EINVAL);
	it = hb_item_new(HB_WORK, seq, 0);
	if (!it)
		return -1;
	it->mark = mark;
	it->what = strdup(what ? what : "work");
	if (!it->what) {
		hb_item_free(it);
		return hb_fail(ENOMEM);
	}
	return hb_issue(hb, lane, it);
}

void asc_hb_tap(struct asc_hb *hb,
		void (*fn)(void *ctx, const struct asc_hb_ran *ran), void *ctx)
{
	hb->tap = fn;
	hb->tap_ctx = ctx;
}

void asc_hb_clock(const struct asc_hb *hb, int pipe_id,
		  uint32_t out[ASC_HB_CLOCKS])
{
	int lane = hb_lane_of(pipe_id);

	memset(out, 0, ASC_HB_CLOCKS * sizeof(out[0]));
	if (lane >= 0)
		memcpy(out, hb->lane[lane].clock.t, sizeof(hb->lane[lane].clock.t));
}

int asc_hb_lane(int pipe_id)
{
	return hb_lane_of(pipe_id);
}

int asc_hb_flag(struct asc_hb *hb, bool set, unsigned long seq, int event,
		int id)
{
	struct hb_item *it;
	int src, dst;

	if (hb->err)
		return hb_fail(hb->err);
	if (event < 0 || event >= ASC_HARD_EVENT_COUNT || id < 0 ||
	    id >= ASC_EVENT_IDS_MAX)
		return hb_fail(EINVAL);

	src = hb_src(event);
	dst = hb_dst(event);
	it = hb_item_new(src == dst ? HB_NOP : set ? HB_SET : HB_WAIT, seq, 0);
	if (!it)
		return -1;
	it->event = event;
	it->id = id;
	return hb_issue(hb, set ? src : dst, it);
}

/* Deadlock lines for every lane that cannot run all it holds. */
static void hb_stuck_all(struct asc_hb *hb, const char *when)
{
	int lane;

	for (lane = 0; lane < HB_LANES; lane++)
		if (hb->lane[lane].head)
			hb_stuck_line(hb, lane, when);
}

int asc_hb_drain(struct asc_hb *hb, const char *when)
{
	int lane;

	if (hb->err)
		return hb_fail(hb->err);
	for (lane = 0; lane < HB_LANES; lane++)
		if (hb->lane[lane].head)
			break;
	if (lane == HB_LANES)
		return 0;
	hb_stuck_all(hb, when);
	return hb_fail(hb->err);
}

int asc_hb_reach(struct asc_hb *hb, int pipe_id, uint32_t pos,
		 const char *when)
{
	int lane = hb_lane_of(pipe_id);

	if (hb->err)
		return hb_fail(hb->err);
	if (lane < 0 || pos > hb->lane[lane].issued)
		return hb_fail(EINVAL);
	if (hb->lane[lane].done >= pos)
		return 0;
	hb_stuck_chain(hb, lane, when);
	return hb_fail(hb->err);
}

uint32_t asc_hb_done(const struct asc_hb *hb, int pipe_id)
{
	int lane = hb_lane_of(pipe_id);

	return lane < 0 ? 0 : hb->lane[lane].done;
}

uint32_t asc_hb_issued(const struct asc_hb *hb, int pipe_id)
{
	int lane = hb_lane_of(pipe_id);

	return lane < 0 ? 0 : hb->lane[lane].issued;
}

int asc_hb_barrier(struct asc_hb *hb, int pipe_id, unsigned long seq)
{
	struct hb_clock all = { { 0 } };
	struct hb_item *it;
	char when[64];
	int lane;

	if (hb->err)
		return hb_fail(hb->err);
	if (pipe_id != ASC_PIPE_ALL) {
		lane = hb_lane_of(pipe_id);
		if (lane <= HB_S)
			return hb_fail(EINVAL);
		it = hb_item_new(HB_NOP, seq, 0);
		if (!it)
			return -1;
		return hb_issue(hb, lane, it);
	}

	snprintf(when, sizeof(when), "at pipe_barrier(ALL) (#%lu)", seq);
	if (asc_hb_drain(hb, when))
		return -1;
	for (lane = 0; lane < HB_LANES; lane++)
		hb_clock_join(&all, &hb->lane[lane].clock);
	hb->lane[HB_S].done = ++hb->lane[HB_S].issued;
	all.t[HB_S] = hb->lane[HB_S].done;
	all.t[HB_ISSUE] = hb->lane[HB_S].done;
	hb->s_pub = hb->lane[HB_S].done;
	for (lane = 0; lane < HB_LANES; lane++)
		hb->lane[lane].clock = all;
	return hb->lane[HB_S].done;
}

int asc_hb_leftovers(struct asc_hb *hb, const char *when)
{
	const struct hb_flag *f;
	int event, id;
	uint32_t i;

	if (hb->err)
		return hb_fail(hb->err);
	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		for (id = 0; hb->flags[event] && id < ASC_EVENT_IDS_MAX; id++) {
			f = &hb->flags[event][id];
			for (i = 0; i < f->qlen; i++)
				hb_find(hb, ENOLCK,
					"missing wait: %s sets %s id %d (#%lu) and no wait takes it %s",
					hb_lane_name(hb_src(event)),
					hb_event_name(event), id,
					f->q[(f->qhead + i) % f->qcap].seq,
					when);
		}
	}
	return hb->err ? hb_fail(hb->err) : 0;
}

void asc_hb_uses(struct asc_hb *hb, int event, struct asc_report *out)
{
	const struct hb_flag *f;
	const struct hb_item *it;
	int id, lane;
	uint32_t i;

	if (event < 0 || event >= ASC_HARD_EVENT_COUNT)
		return;
	for (id = 0; hb->flags[event] && id < ASC_EVENT_IDS_MAX; id++) {
		f = &hb->flags[event][id];
		for (i = 0; i < f->qlen; i++)
			asc_report_add(out, "in use: %s id %d: its flag, set by %s (#%lu), not waited for yet",
				       hb_event_name(event), id,
				       hb_lane_name(hb_src(event)),
				       f->q[(f->qhead + i) % f->qcap].seq);
	}
	for (lane = 0; lane < HB_LANES; lane++) {
		for (it = hb->lane[lane].head; it; it = it->next) {
			if ((it->kind != HB_SET && it->kind != HB_WAIT) ||
			    it->event != event)
				continue;
			asc_report_add(out, "in use: %s id %d: a %s issued (#%lu), queued on %s",
				       hb_event_name(event), it->id,
				       it->kind == HB_SET ? "set" : "wait",
				       it->seq, hb_lane_name(lane));
		}
	}
}
