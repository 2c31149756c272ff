// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core runtime's missing-sync detector: happens-before over the
 * instructions the scalar issues, computed from the issue order alone, so
 * that it finds the same things on every run whatever the threads do.
 *
 * The model is the chip's.  Each of the seven pipes (S, V, M, MTE1, MTE2,
 * MTE3, FIX) is a lane: an in-order queue of the instructions issued to
 * it.  A set of (E, id) goes to the lane of E's source pipe, a wait to
 * its destination's; V_V's set and both halves of FIX_FIX are barriers
 * of one pipe.  A lane is in order but pipelined: two of its own
 * accesses are ordered only when the first has finished before the
 * second starts, by a barrier of the lane between them or by a set of
 * the lane after the first whose flag came back before the second (a set
 * runs once everything before it on its lane has finished): the lane's
 * @fence.  S and M keep their own order.
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
 * clock, and a component of its own, RACE_ISSUE, with the scalar's
 * position.  A store of the scalar is posted, not done: it is ordered
 * before a pipe's loads only by an S_* flag, as on the chip (or a flag
 * that went out after it and came back to S, or PIPE_ALL).  So the S
 * component of what the scalar hands on is not its own position but the
 * highest one a flag brought back (@s_pub), and the S lane's accesses are
 * kept under RACE_S when they write and under RACE_ISSUE when they only read.
 * Issuing A before B orders nothing else: two pipes' instructions are
 * ordered only by sets and waits.
 *
 * What is reported, one line each, and the errno of the first:
 *
 * - ENOLCK, missing sync: two accesses of work items to overlapping
 *   bytes, at least one a write, neither happening before the other: on
 *   different lanes by the clocks, on one lane by its fence.  Each access is checked against the earlier ones that are
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

#include "number_set.h"
#include "race.h"
#include "ranges.h"

#define RACE_LANES	7
#define RACE_S		ASC_RACE_S
#define RACE_M		2		/* race_lane_pipe[RACE_M] is M */
/* The clock component of what the scalar has done when it issues. */
#define RACE_ISSUE	ASC_RACE_ISSUE
#define RACE_CLOCKS	ASC_RACE_CLOCKS

_Static_assert(RACE_ISSUE == RACE_LANES, "the issue component follows the lanes");

/* Lane i stands for pipe race_lane_pipe[i]; S is lane 0. */
static const int race_lane_pipe[RACE_LANES] = {
	ASC_PIPE_S, ASC_PIPE_V, ASC_PIPE_M, ASC_PIPE_MTE1, ASC_PIPE_MTE2,
	ASC_PIPE_MTE3, ASC_PIPE_FIX,
};

struct race_clock {
	uint32_t t[RACE_CLOCKS];
};

/* A named region of memory: bytes [lo, hi). */
#define RACE_REGIONS	8

/* Items that have run kept for reuse, at most (struct asc_race). */
#define RACE_SPARE	256

struct race_region {
	uintptr_t lo;
	uintptr_t hi;
	const char *name;
};


enum race_kind {
	RACE_WORK,
	RACE_SET,
	RACE_WAIT,
	RACE_NOP,		/* the wait of V_V: nothing */
	RACE_BARRIER,		/* PipeBarrier of one pipe, V_V's set, FIX_FIX */
};

/*
 * struct race_item - an issued instruction the abstract execution has not
 * run yet, on its lane's list; @issue is what the scalar knew when it
 * issued it.
 */
struct race_item {
	struct race_item *next;
	struct race_clock issue;
	enum race_kind kind;
	unsigned long seq;
	uint32_t pos;
	int event;
	int id;
	unsigned long mark;
	char *what;
	struct asc_race_site site;
	unsigned int iter;
	bool after_wait;
	unsigned int nacc;
	struct asc_race_span acc[];
};

/*
 * struct race_lane - one pipe.
 * @head: the instructions issued and not run yet, oldest first.
 * @tail: where the next one goes.
 * @issued: instructions issued: the position of the last one.
 * @done: instructions run; @clock is the clock of the last of them.
 * @fence: the instructions up to this position have finished before the
 *	next one to run starts (a barrier of the lane, or a flag from a set
 *	of it that came back): what orders two of the lane's own accesses.
 */
struct race_lane {
	struct race_item *head;
	struct race_item **tail;
	uint32_t issued;
	uint32_t done;
	struct race_clock clock;
	uint32_t fence;
};

/* A set that has run and whose flag no wait has taken yet. */
struct race_set_run {
	struct race_clock clock;
	unsigned long seq;
	struct asc_race_site site;
};

/*
 * struct race_flag - one (HardEvent, ID).
 * @q: sets that have run and that no wait has taken yet, oldest first
 *	(at most one unless a double set was reported).
 * @qhead, @qlen, @qcap: the ring @q.
 * @sets_run, @waits_run: how many have run.
 * @set_seq: the last set that ran, @set_site its call site.
 * @wait_seq, @wait_pos: the last wait that ran, and its position;
 *	@wait_site its call site, @wait_clock its clock.
 * @sets_issued, @waits_issued: how many were issued; @issued_set and
 *	@issued_set_site: the last set issued.
 * @early: the kernel released the ID while a set of it had no wait
 *	issued (asc_race_release()), at @rel_seq, @rel_site; @rel_set and
 *	@rel_set_site: that set.
 */
struct race_flag {
	struct race_set_run *q;
	uint32_t qhead;
	uint32_t qlen;
	uint32_t qcap;
	uint32_t sets_run;
	uint32_t waits_run;
	unsigned long set_seq;
	struct asc_race_site set_site;
	unsigned long wait_seq;
	uint32_t wait_pos;
	struct asc_race_site wait_site;
	struct race_clock wait_clock;
	uint32_t sets_issued;
	uint32_t waits_issued;
	unsigned long issued_set;
	struct asc_race_site issued_set_site;
	bool early;
	unsigned long rel_seq;
	struct asc_race_site rel_site;
	unsigned long rel_set;
	struct asc_race_site rel_set_site;
};

/*
 * An access of a work item that has run, kept to check later ones
 * against; @lane is RACE_ISSUE for a load of the scalar.
 */
struct race_rec {
	struct asc_range range;		/* first: the bytes, in race->hist */
	bool write;
	int lane;
	uint32_t pos;
	unsigned long seq;
	char *name;
	char *what;
	struct asc_race_site site;
	unsigned int iter;
	bool in_gm;
	uintptr_t base;
	const char *in;
};

/* The lowest byte the detector saw accessed under @name. */
struct race_name_base {
	char *name;
	uintptr_t lo;
};

/* How many work items a call site issued: the last one's iteration. */
struct race_site_count {
	const char *file;
	int line;
	unsigned int count;
};

/*
 * struct asc_race - the detector.
 * @lane: the pipes, S first.
 * @pending: bit i is set while @lane[i] holds an instruction not run yet.
 * @flags: per HardEvent, its IDs; allocated on first use.
 * @s_pub: the highest position of the scalar's that a flag brought back
 *	to it (or PIPE_ALL): its stores up to there are out.
 * @hist: the accesses kept (struct race_rec).
 * @found: scratch for the overlap queries of @hist.
 * @report: the findings.
 * @err: the errno of the first finding, 0 while there is none.
 * @tap: see asc_race_tap(), with @tap_ctx.
 * @site: the call site of the instructions issued now.
 * @sites: per call site, how many work items it issued (the iteration of
 *	each, from 1: the k-th time a line of a loop ran); an open hash of
 *	@capsites slots, @nsites used.
 * @region: named regions of memory (asc_race_region()), @nregion.
 * @buffer_at: the kernel's buffers of global memory (asc_race_buffers()),
 *	with @buffer_ctx.
 * @names: per name of an access in neither, its lowest byte; @nnames.
 * @spare: items of no access that have run, kept for the next ones
 *	(linked by @next, up to RACE_SPARE): a set or wait issued takes no
 *	allocation.
 * @nspare: how many @spare holds.
 */
struct asc_race {
	struct race_lane lane[RACE_LANES];
	unsigned int pending;
	uint32_t s_pub;
	struct race_flag *flags[ASC_HARD_EVENT_COUNT];
	struct asc_ranges hist;
	struct asc_range_list found;
	struct asc_report report;
	int err;
	void (*tap)(void *ctx, const struct asc_race_ran *ran);
	void *tap_ctx;
	struct asc_race_site site;
	struct race_site_count *sites;
	size_t nsites;
	size_t capsites;
	struct race_region region[RACE_REGIONS];
	unsigned int nregion;
	bool (*buffer_at)(void *ctx, uintptr_t addr, uintptr_t *base,
			  const char **name);
	void *buffer_ctx;
	struct race_name_base *names;
	size_t nnames;
	struct race_item *spare;
	unsigned int nspare;
};

/* The lane of each pipe ID up to ASC_PIPE_FIX, one more than it is. */
static const signed char race_pipe_lane[ASC_PIPE_FIX + 1] = {
	[ASC_PIPE_S] = 1, [ASC_PIPE_V] = 2, [ASC_PIPE_M] = 3,
	[ASC_PIPE_MTE1] = 4, [ASC_PIPE_MTE2] = 5, [ASC_PIPE_MTE3] = 6,
	[ASC_PIPE_FIX] = 7,
};

static int race_lane_of(int pipe_id)
{
	if (pipe_id < 0 || pipe_id > ASC_PIPE_FIX)
		return -1;
	return race_pipe_lane[pipe_id] - 1;
}

static const char *race_lane_name(int lane)
{
	return asc_pipe_id_name(race_lane_pipe[lane == RACE_ISSUE ? RACE_S : lane]);
}

static const char *race_event_name(int event)
{
	return asc_hard_event_name(event);
}

static int race_src(int event)
{
	return race_lane_of(asc_hard_event_src_pipe(event));
}

static int race_dst(int event)
{
	return race_lane_of(asc_hard_event_dst_pipe(event));
}

static int race_fail(int err)
{
	errno = err;
	return -1;
}

/* A finding: a line of the report; the first one's errno sticks. */
static void race_find(struct asc_race *race, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void race_find(struct asc_race *race, int err, const char *fmt, ...)
{
	char line[832];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	asc_report_add(&race->report, "%s", line);
	if (!race->err)
		race->err = err;
}

struct asc_race *asc_race_new(void)
{
	struct asc_race *race = calloc(1, sizeof(*race));
	int i;

	if (!race)
		return NULL;
	for (i = 0; i < RACE_LANES; i++)
		race->lane[i].tail = &race->lane[i].head;
	return race;
}

static void race_item_free(struct race_item *it)
{
	unsigned int i;

	for (i = 0; i < it->nacc; i++)
		free(it->acc[i].name);
	free(it->what);
	free(it);
}

/* @it has run: freed, or kept in @race->spare when it has no access. */
static void race_item_put(struct asc_race *race, struct race_item *it)
{
	if (it->nacc || race->nspare == RACE_SPARE) {
		race_item_free(it);
		return;
	}
	free(it->what);
	it->next = race->spare;
	race->spare = it;
	race->nspare++;
}

static void race_rec_free(struct asc_range *range)
{
	struct race_rec *r = (struct race_rec *)range;

	free(r->name);
	free(r->what);
	free(r);
}

void asc_race_free(struct asc_race *race)
{
	struct race_item *it, *next;
	size_t i;

	if (!race)
		return;
	for (i = 0; i < RACE_LANES; i++) {
		for (it = race->lane[i].head; it; it = next) {
			next = it->next;
			race_item_free(it);
		}
	}
	for (it = race->spare; it; it = next) {
		next = it->next;
		free(it);
	}
	for (i = 0; i < ASC_HARD_EVENT_COUNT; i++) {
		if (!race->flags[i])
			continue;
		for (int id = 0; id < ASC_EVENT_IDS_MAX; id++)
			free(race->flags[i][id].q);
		free(race->flags[i]);
	}
	asc_ranges_clear(&race->hist, race_rec_free);
	free(race->found.v);
	free(race->sites);
	for (i = 0; i < race->nnames; i++)
		free(race->names[i].name);
	free(race->names);
	asc_report_free(&race->report);
	free(race);
}

const char *asc_race_report(const struct asc_race *race)
{
	return race->report.buf;
}

char *asc_race_take_report(struct asc_race *race)
{
	return asc_report_take(&race->report);
}

/* The flag of (@event, @id), allocated with its HardEvent's on first use. */
static struct race_flag *race_flag_get(struct asc_race *race, int event, int id)
{
	if (!race->flags[event]) {
		race->flags[event] = calloc(ASC_EVENT_IDS_MAX, sizeof(struct race_flag));
		if (!race->flags[event])
			return NULL;
	}
	return &race->flags[event][id];
}

static bool race_happens_before(int lane, uint32_t pos, const struct race_clock *c)
{
	return pos <= c->t[lane];
}

static void race_clock_join(struct race_clock *c, const struct race_clock *o)
{
	int i;

	for (i = 0; i < RACE_CLOCKS; i++)
		if (o->t[i] > c->t[i])
			c->t[i] = o->t[i];
}

/* "#5 add at x.c:4": an instruction, with its name and site if any. */
static void race_ref(char *buf, size_t len, unsigned long seq, const char *what,
		     const struct asc_race_site *site)
{
	int n = snprintf(buf, len, "#%lu%s%s", seq, what ? " " : "",
			 what ? what : "");

	if (site->file && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " at %s:%d", site->file, site->line);
}

static const char *race_verb(bool write)
{
	return write ? "writes" : "reads";
}

static const struct race_name_base *race_name_of(const struct asc_race *race,
						const char *name)
{
	size_t i;

	for (i = 0; name && i < race->nnames; i++)
		if (!strcmp(race->names[i].name, name))
			return &race->names[i];
	return NULL;
}

/* Note the lowest byte accessed under @s's name.  Return: 0 or -1. */
static int race_note_name(struct asc_race *race, const struct asc_race_span *s)
{
	struct race_name_base *v;
	size_t i;

	for (i = 0; i < race->nnames; i++) {
		if (!strcmp(race->names[i].name, s->name)) {
			if (s->lo < race->names[i].lo)
				race->names[i].lo = s->lo;
			return 0;
		}
	}
	v = realloc(race->names, (race->nnames + 1) * sizeof(*v));
	if (!v)
		return -1;
	race->names = v;
	v[race->nnames].name = strdup(s->name);
	if (!v[race->nnames].name)
		return -1;
	v[race->nnames++].lo = s->lo;
	return 0;
}

static bool race_in_region(const struct asc_race *race, uintptr_t lo)
{
	unsigned int i;

	for (i = 0; i < race->nregion; i++)
		if (lo >= race->region[i].lo && lo < race->region[i].hi)
			return true;
	return false;
}

/*
 * Where access @s is, for the report: in a region of local memory, a
 * buffer of global memory, or by the offset under its name.  Return: 0
 * or -1 (ENOMEM).
 */
static int race_place(struct asc_race *race, struct asc_race_span *s)
{
	if (race_in_region(race, s->lo))
		return 0;
	if (race->buffer_at &&
	    race->buffer_at(race->buffer_ctx, s->lo, &s->base, &s->in)) {
		s->in_gm = true;
		return 0;
	}
	return s->name ? race_note_name(race, s) : 0;
}

/*
 * "name" [UB+0x400+64] in a named region, by its offset there; "name" at
 * "buffer" [256+64] in a buffer of global memory; "name" [128+64] by its
 * offset from the lowest byte seen under its name; the host address only
 * for an access without a name in none of them.
 */
static void race_range(const struct asc_race *race, char *buf, size_t len,
		       const char *name, uintptr_t lo, uintptr_t hi,
		       bool in_gm, uintptr_t base, const char *in)
{
	const struct race_name_base *nb = race_name_of(race, name);
	char where[64];
	unsigned int i;

	if (in_gm) {
		if (name && strcmp(name, in))
			snprintf(buf, len, "\"%s\" at \"%s\" [%lu+%lu]", name, in,
				 (unsigned long)(lo - base), (unsigned long)(hi - lo));
		else
			snprintf(buf, len, "\"%s\" [%lu+%lu]", in,
				 (unsigned long)(lo - base), (unsigned long)(hi - lo));
		return;
	}
	if (nb && !race_in_region(race, lo))
		snprintf(where, sizeof(where), "%lu", (unsigned long)(lo - nb->lo));
	else
		snprintf(where, sizeof(where), "%#lx", (unsigned long)lo);
	for (i = 0; i < race->nregion; i++)
		if (lo >= race->region[i].lo && lo < race->region[i].hi)
			snprintf(where, sizeof(where), "%s+0x%lx", race->region[i].name,
				 (unsigned long)(lo - race->region[i].lo));
	if (name)
		snprintf(buf, len, "\"%s\" [%s+%lu]", name, where,
			 (unsigned long)(hi - lo));
	else
		snprintf(buf, len, "[%s+%lu]", where, (unsigned long)(hi - lo));
}

static bool race_same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void race_race_text(const struct asc_race *race, const struct race_rec *r,
			   int lane, const struct race_item *it,
			   const struct asc_race_span *a, char *line, size_t len)
{
	char first[160], second[160], ra[128], rb[128];

	race_range(race, first, sizeof(first), r->name, r->range.lo, r->range.hi,
		   r->in_gm, r->base, r->in);
	if (race_same_name(r->name, a->name) && r->range.lo == a->lo &&
	    r->range.hi == a->hi)
		snprintf(second, sizeof(second), "it");
	else
		race_range(race, second, sizeof(second), a->name, a->lo, a->hi,
			   a->in_gm, a->base, a->in);
	race_ref(ra, sizeof(ra), r->seq, r->what, &r->site);
	race_ref(rb, sizeof(rb), it->seq, it->what, &it->site);
	if (r->lane == lane)
		snprintf(line, len,
			 "missing sync: %s %s %s (%s) and %s %s %s (%s): one pipe, but pipelined: no pipe_barrier(%s) between them",
			 race_lane_name(r->lane), race_verb(r->write), first, ra,
			 race_lane_name(lane), race_verb(a->write), second, rb,
			 race_lane_name(lane));
	else
		snprintf(line, len,
			 "missing sync: %s %s %s (%s) and %s %s %s (%s): no set/wait or barrier orders them",
			 race_lane_name(r->lane), race_verb(r->write), first, ra,
			 race_lane_name(lane), race_verb(a->write), second, rb);
}

/*
 * The races one work item finds, one line per pair of source lines: the
 * older access's call site (its instruction when it has none) and the
 * item's.  The first race of a pair is printed, "and N more like it"
 * counts the others (other bytes, the other direction, other iterations
 * of a loop).
 */
#define RACE_PAIRS	8

struct race_pair {
	const struct race_rec *r;
	unsigned int more;
	struct asc_number_set iters;
	char line[720];
};

struct race_pairs {
	struct race_pair v[RACE_PAIRS];
	unsigned int n;
};

static bool race_same_site(const struct race_rec *a, const struct race_rec *b)
{
	if (a->lane != b->lane)
		return false;
	if (!a->site.file || !b->site.file)
		return a->seq == b->seq;
	return a->site.line == b->site.line && !strcmp(a->site.file, b->site.file);
}

static void race_report_race(struct asc_race *race, struct race_pairs *p,
			     const struct race_rec *r, int lane,
			     const struct race_item *it,
			     const struct asc_race_span *a)
{
	char line[720];
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		if (race_same_site(p->v[i].r, r)) {
			p->v[i].more++;
			if (r->iter)
				asc_number_set_add(&p->v[i].iters, r->iter);
			return;
		}
	}
	race_race_text(race, r, lane, it, a, line, sizeof(line));
	if (p->n == RACE_PAIRS) {
		race_find(race, ENOLCK, "%s", line);
		return;
	}
	p->v[p->n].r = r;
	p->v[p->n].more = 0;
	p->v[p->n].iters = (struct asc_number_set){ 0 };
	if (r->iter)
		asc_number_set_add(&p->v[p->n].iters, r->iter);
	snprintf(p->v[p->n].line, sizeof(p->v[p->n].line), "%s", line);
	p->n++;
}

/*
 * Print and forget the pairs; the iterations are those of the older
 * accesses, when their lines are known.
 */
static void race_report_pairs(struct asc_race *race, struct race_pairs *p)
{
	char iters[128];
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		asc_number_set_print(&p->v[i].iters, iters, sizeof(iters));
		if (p->v[i].more && p->v[i].iters.n)
			race_find(race, ENOLCK, "%s, and %u more like it (iterations %s)",
				  p->v[i].line, p->v[i].more, iters);
		else if (p->v[i].more)
			race_find(race, ENOLCK, "%s, and %u more like it", p->v[i].line,
				  p->v[i].more);
		else
			race_find(race, ENOLCK, "%s", p->v[i].line);
		asc_number_set_free(&p->v[i].iters);
	}
	p->n = 0;
}

/* Old record @r is redundant after access @a of lane @lane at clock @c. */
static bool race_covers(const struct race_rec *r, const struct asc_race_span *a,
		      int lane, const struct race_clock *c)
{
	return a->lo <= r->range.lo && r->range.hi <= a->hi &&
	       (a->write || !r->write) &&
	       (r->lane == lane || race_happens_before(r->lane, r->pos, c));
}

/* Keep @a of work item @it: forget what it makes redundant. */
static int race_keep(struct asc_race *race, const struct race_item *it,
		   const struct asc_race_span *a, int lane, const struct race_clock *c)
{
	struct race_rec *r;
	size_t i;

	if (asc_ranges_overlap(&race->hist, a->lo, a->hi, &race->found))
		return -1;
	for (i = 0; i < race->found.len; i++) {
		r = (struct race_rec *)race->found.v[i];
		if (race_covers(r, a, lane, c)) {
			asc_ranges_remove(&race->hist, &r->range);
			race_rec_free(&r->range);
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -1;
	*r = (struct race_rec){
		.range = { .lo = a->lo, .hi = a->hi },
		.write = a->write,
		/* A load of the scalar is done; its store is posted. */
		.lane = lane == RACE_S && !a->write ? RACE_ISSUE : lane,
		.pos = it->pos, .seq = it->seq,
		.name = a->name ? strdup(a->name) : NULL,
		.what = strdup(it->what),
		.site = it->site,
		.iter = it->iter,
		.in_gm = a->in_gm, .base = a->base, .in = a->in,
	};
	if ((a->name && !r->name) || !r->what) {
		race_rec_free(&r->range);
		return -1;
	}
	asc_ranges_insert(&race->hist, &r->range);
	return 0;
}

/* Races are reported oldest access first, whatever the addresses. */
static int race_rec_order(const void *pa, const void *pb)
{
	const struct race_rec *a = *(const struct race_rec *const *)pa;
	const struct race_rec *b = *(const struct race_rec *const *)pb;

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->range.lo != b->range.lo)
		return a->range.lo < b->range.lo ? -1 : 1;
	return a->range.key < b->range.key ? -1 : a->range.key > b->range.key;
}

/*
 * Kept access @r happens before an access of @lane at clock @c: on
 * another lane by the clocks; on the same lane only when it finished
 * before (race_lane.fence), since a pipe is pipelined.  S and M keep
 * their own order: the scalar's by the hardware, the cube's matmuls
 * accumulate into L0C one after the other.
 */
static bool race_ordered(const struct asc_race *race, const struct race_rec *r,
			 int lane, const struct race_clock *c)
{
	if (r->lane != lane)
		return race_happens_before(r->lane, r->pos, c);
	return lane == RACE_S || lane == RACE_M ||
	       r->pos <= race->lane[lane].fence;
}

/* A work item runs at clock @c: check its accesses, then keep them. */
static int race_run_work(struct asc_race *race, int lane, const struct race_item *it,
		       const struct race_clock *c)
{
	const struct asc_race_span *a;
	const struct race_rec *r;
	struct race_pairs pairs;
	size_t i, n;
	unsigned int k;

	pairs.n = 0;
	for (k = 0; k < it->nacc; k++) {
		a = &it->acc[k];
		if (asc_ranges_overlap(&race->hist, a->lo, a->hi, &race->found))
			return -1;
		for (i = n = 0; i < race->found.len; i++) {
			r = (const struct race_rec *)race->found.v[i];
			if ((r->write || a->write) &&
			    !race_ordered(race, r, lane, c))
				race->found.v[n++] = race->found.v[i];
		}
		qsort(race->found.v, n, sizeof(race->found.v[0]), race_rec_order);
		for (i = 0; i < n; i++)
			race_report_race(race, &pairs,
					 (const struct race_rec *)race->found.v[i],
					 lane, it, a);
	}
	race_report_pairs(race, &pairs);
	for (k = 0; k < it->nacc; k++)
		if (race_keep(race, it, &it->acc[k], lane, c))
			return -1;
	return 0;
}

/* "released early (...), while ..." for a flag released early, or "". */
static void race_early_text(const struct race_flag *f, char *buf, size_t len)
{
	char rel[128], set[128];

	buf[0] = '\0';
	if (!f->early)
		return;
	race_ref(rel, sizeof(rel), f->rel_seq, NULL, &f->rel_site);
	race_ref(set, sizeof(set), f->rel_set, NULL, &f->rel_set_site);
	snprintf(buf, len, "released early (%s), while its set (%s) had no wait issued",
		 rel, set);
}

/* A set runs at clock @c: was the previous one waited for, before it? */
static int race_run_set(struct asc_race *race, int lane, const struct race_item *it,
		      struct race_flag *f, const struct race_clock *c)
{
	struct race_set_run *q;
	int dst = race_dst(it->event);
	/* A wait on S is over before the scalar issues anything after it. */
	int dst_clock = dst == RACE_S ? RACE_ISSUE : dst;
	bool unwaited = f->sets_run && f->waits_run < f->sets_run;
	bool unordered = f->sets_run && !race_happens_before(dst_clock, f->wait_pos, c);
	char now[128], prev[128], wait[128], early[360];

	/* The names of the instructions are made for a finding only. */
	if (unwaited || unordered) {
		race_ref(now, sizeof(now), it->seq, it->what, &it->site);
		race_ref(prev, sizeof(prev), f->set_seq, NULL, &f->set_site);
		race_ref(wait, sizeof(wait), f->wait_seq, NULL, &f->wait_site);
		race_early_text(f, early, sizeof(early));
	}
	if (unwaited)
		race_find(race, EBUSY,
			"possible double set: %s sets %s id %d (%s) before its previous set (%s) was waited for: no wait for it is ordered before it%s%s",
			race_lane_name(lane), race_event_name(it->event), it->id,
			now, prev, early[0] ? "; the ID was " : "", early);
	else if (unordered)
		race_find(race, EBUSY,
			"possible double set: %s sets %s id %d (%s) before its previous set (%s) was waited for: nothing orders %s's wait (%s) before it",
			race_lane_name(lane), race_event_name(it->event), it->id,
			now, prev, race_lane_name(dst), wait);

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
	f->q[(f->qhead + f->qlen++) % f->qcap] = (struct race_set_run){
		.clock = *c, .seq = it->seq, .site = it->site,
	};
	f->sets_run++;
	f->set_seq = it->seq;
	f->set_site = it->site;
	return 0;
}

/*
 * What another lane learnt of @lane (@o, the clock of a set's flag or of
 * the scalar) was finished there: a set runs once everything before it
 * on its lane has.  Only the lane's own clock counts in issue order.
 */
static void race_fence(struct race_lane *l, int lane, const struct race_clock *o)
{
	if (o->t[lane] > l->fence)
		l->fence = o->t[lane];
}

/*
 * Run the first instruction of @lane if it can run.  Return: 1 when it
 * ran, 0 when it cannot, -1 with errno ENOMEM.
 */
static int race_step(struct asc_race *race, int lane)
{
	struct race_lane *l = &race->lane[lane];
	struct race_item *it = l->head;
	struct race_flag *f = NULL;
	struct race_clock c;
	int ret = 0;

	if (!it)
		return 0;
	c = l->clock;
	race_clock_join(&c, &it->issue);
	race_fence(l, lane, &it->issue);
	if (it->kind == RACE_SET || it->kind == RACE_WAIT) {
		f = race_flag_get(race, it->event, it->id);
		if (!f)
			return -1;
	}
	/* A queue's set waits until its flag's previous set was taken. */
	if (it->kind == RACE_SET && it->after_wait) {
		if (f->qlen)
			return 0;
		race_clock_join(&c, &f->wait_clock);
		race_fence(l, lane, &f->wait_clock);
	}
	if (it->kind == RACE_WAIT) {
		if (!f->qlen)
			return 0;
		race_clock_join(&c, &f->q[f->qhead].clock);
		race_fence(l, lane, &f->q[f->qhead].clock);
		/* What a flag brings back to S publishes its stores. */
		if (lane == RACE_S && f->q[f->qhead].clock.t[RACE_S] > race->s_pub)
			race->s_pub = f->q[f->qhead].clock.t[RACE_S];
		f->qhead = (f->qhead + 1) % f->qcap;
		f->qlen--;
	}
	c.t[lane] = it->pos;
	if (lane == RACE_S)
		c.t[RACE_ISSUE] = it->pos;
	switch (it->kind) {
	case RACE_WORK:
		ret = race_run_work(race, lane, it, &c);
		if (!ret && race->tap && (it->nacc || it->mark))
			race->tap(race->tap_ctx, &(struct asc_race_ran){
				.lane = lane, .pos = it->pos, .seq = it->seq,
				.what = it->what, .clock = c.t,
				.mark = it->mark, .acc = it->acc,
				.nacc = it->nacc, .site = it->site,
				.iter = it->iter });
		break;
	case RACE_SET:
		ret = race_run_set(race, lane, it, f, &c);
		break;
	case RACE_WAIT:
		f->waits_run++;
		f->wait_seq = it->seq;
		f->wait_pos = it->pos;
		f->wait_site = it->site;
		f->wait_clock = c;
		break;
	case RACE_BARRIER:
		l->fence = it->pos;
		break;
	case RACE_NOP:
		break;
	}
	if (ret)
		return -1;
	l->clock = c;
	l->done = it->pos;
	l->head = it->next;
	if (!l->head) {
		l->tail = &l->head;
		race->pending &= ~(1u << lane);
	}
	race_item_put(race, it);
	return 1;
}

/* The first pending set of (@event, @id) on its source lane, or NULL. */
static const struct race_item *race_pending_set(struct asc_race *race, int event,
					    int id)
{
	const struct race_item *it;

	for (it = race->lane[race_src(event)].head; it; it = it->next)
		if (it->kind == RACE_SET && it->event == event && it->id == id)
			return it;
	return NULL;
}

/* The first pending wait of (@event, @id) on its destination lane, or NULL. */
static const struct race_item *race_pending_wait(struct asc_race *race, int event,
					     int id)
{
	const struct race_item *it;

	for (it = race->lane[race_dst(event)].head; it; it = it->next)
		if (it->kind == RACE_WAIT && it->event == event && it->id == id)
			return it;
	return NULL;
}

/*
 * For a wait of (@event, @id) no set uses: "; the nearest set of E is of
 * id N (#K at x.c:L)", the set of @event with another ID issued last, run
 * or not; "" when there is none.
 */
static void race_nearest_set(const struct asc_race *race, int event, int id,
			     char *buf, size_t len)
{
	const struct race_item *it;
	struct asc_race_site site = { 0 };
	unsigned long seq = 0;
	char ref[128];
	int i, near = -1;

	for (i = 0; race->flags[event] && i < ASC_EVENT_IDS_MAX; i++) {
		const struct race_flag *f = &race->flags[event][i];

		if (i != id && f->sets_run && f->set_seq > seq) {
			seq = f->set_seq;
			site = f->set_site;
			near = i;
		}
	}
	for (it = race->lane[race_src(event)].head; it; it = it->next) {
		if (it->kind == RACE_SET && it->event == event && it->id != id &&
		    it->seq > seq) {
			seq = it->seq;
			site = it->site;
			near = it->id;
		}
	}
	buf[0] = '\0';
	if (near < 0)
		return;
	race_ref(ref, sizeof(ref), seq, NULL, &site);
	snprintf(buf, len, "; the nearest set of %s is of id %d (%s)",
		 race_event_name(event), near, ref);
}

/* The lane @lane's first instruction waits for: a set's, or a wait's. */
static int race_blocker(const struct asc_race *race, int lane)
{
	const struct race_item *w = race->lane[lane].head;

	return w->kind == RACE_SET ? race_dst(w->event) : race_src(w->event);
}

/*
 * A deadlock line for a queue's set that waits forever for the wait of
 * its flag's previous set.  Return: the lane it waits behind, or -1.
 */
static int race_stuck_set(struct asc_race *race, int lane, const char *when)
{
	const struct race_item *w = race->lane[lane].head;
	const struct race_item *s = race_pending_wait(race, w->event, w->id);
	int dst = race_dst(w->event);
	char why[320], rw[128], rs[128], rh[128];

	race_ref(rw, sizeof(rw), w->seq, w->what, &w->site);
	if (s) {
		race_ref(rs, sizeof(rs), s->seq, s->what, &s->site);
		race_ref(rh, sizeof(rh), race->lane[dst].head->seq,
			 race->lane[dst].head->what, &race->lane[dst].head->site);
		snprintf(why, sizeof(why),
			 "the wait for its previous set (%s) is queued on %s behind %s's wait (%s)",
			 rs, race_lane_name(dst), race_lane_name(dst), rh);
	} else {
		snprintf(why, sizeof(why), "no wait takes its previous set");
	}
	race_find(race, EDEADLK, "deadlock: %s%s%s waits forever to set %s id %d (%s): %s",
		when ? when : "", when ? ", " : "", race_lane_name(lane),
		race_event_name(w->event), w->id, rw, why);
	return s ? dst : -1;
}

/*
 * One line of a deadlock report: @lane waits forever at its first
 * instruction.  Return: the lane it waits behind, or -1.
 */
static int race_stuck_line(struct asc_race *race, int lane, const char *when)
{
	const struct race_item *w = race->lane[lane].head;
	const struct race_item *s = race_pending_set(race, w->event, w->id);
	int src = race_src(w->event);
	char why[320], rw[128], rs[128], rh[128], near[200];

	if (w->kind == RACE_SET)
		return race_stuck_set(race, lane, when);
	race_ref(rw, sizeof(rw), w->seq, w->what, &w->site);
	if (s) {
		race_ref(rs, sizeof(rs), s->seq, s->what, &s->site);
		race_ref(rh, sizeof(rh), race->lane[src].head->seq,
			 race->lane[src].head->what, &race->lane[src].head->site);
		snprintf(why, sizeof(why),
			 "its set (%s) is queued on %s behind %s's wait (%s)",
			 rs, race_lane_name(src), race_lane_name(src), rh);
	} else {
		race_nearest_set(race, w->event, w->id, near, sizeof(near));
		snprintf(why, sizeof(why), "no set of it was issued%s", near);
	}
	race_find(race, EDEADLK, "deadlock: %s%s%s waits forever for %s id %d (%s): %s",
		when ? when : "", when ? ", " : "", race_lane_name(lane),
		race_event_name(w->event), w->id, rw, why);
	return s ? src : -1;
}

/* Deadlock lines from @lane along the lanes it waits behind. */
static void race_stuck_chain(struct asc_race *race, int lane, const char *when)
{
	unsigned int seen = 0;

	while (lane >= 0 && !(seen & (1u << lane))) {
		seen |= 1u << lane;
		lane = race_stuck_line(race, lane, when);
	}
}

/*
 * Lanes whose first instructions wait for one another in a cycle: each
 * waits for a set only the next one can run, and any set issued later
 * queues behind them.  A lane waiting for S, or for a lane that has run
 * everything, may still be freed.
 */
static void race_find_cycle(struct asc_race *race)
{
	const struct race_item *w;
	unsigned int seen;
	int start, lane, src;
	char text[640], rw[128], near[200];
	size_t len = 0;

	for (start = 0; start < RACE_LANES; start++) {
		seen = 0;
		for (lane = start; race->lane[lane].head; lane = src) {
			seen |= 1u << lane;
			src = race_blocker(race, lane);
			if (src == RACE_S || !race->lane[src].head)
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
		w = race->lane[lane].head;
		src = race_blocker(race, lane);
		race_ref(rw, sizeof(rw), w->seq, w->what, &w->site);
		near[0] = '\0';
		if (w->kind == RACE_WAIT && !race_pending_set(race, w->event, w->id))
			race_nearest_set(race, w->event, w->id, near, sizeof(near));
		len += snprintf(text + len, sizeof(text) - len,
				w->kind == RACE_SET ?
				"%s waits forever to set %s id %d (%s) until %s takes its previous set%s" :
				"%s waits forever for %s id %d (%s), set by %s%s",
				len ? ", which" : race_lane_name(lane),
				race_event_name(w->event), w->id, rw,
				race_lane_name(src),
				near[0] ? " (but no set of it was issued" : "");
		if (near[0] && len < sizeof(text))
			len += snprintf(text + len, sizeof(text) - len, "%s)", near);
		if (len >= sizeof(text))
			len = sizeof(text) - 1;
		lane = src;
	} while (lane != start);
	race_find(race, EDEADLK, "deadlock: %s", text);
}

/*
 * Run every lane as far as it goes, then look for what can never run:
 * a wait on S (the scalar must have its flag now) and cycles.
 */
static int race_settle(struct asc_race *race)
{
	bool progress = true;
	unsigned int lanes;
	int lane, ret;

	while (progress) {
		progress = false;
		for (lanes = race->pending; lanes; lanes &= lanes - 1) {
			lane = __builtin_ctz(lanes);
			while ((ret = race_step(race, lane)) > 0)
				progress = true;
			if (ret < 0)
				return -1;
		}
	}
	/* A lane waits for another one: a cycle takes two lanes at least. */
	if (race->lane[RACE_S].head)
		race_stuck_chain(race, RACE_S, NULL);
	else if (!race->err && (race->pending & (race->pending - 1)))
		race_find_cycle(race);
	return 0;
}

/*
 * Append @it to @lane and run what can run.  It comes after what the
 * scalar has done: S's clock, but for its stores not yet published.
 */
static int race_issue(struct asc_race *race, int lane, struct race_item *it)
{
	struct race_lane *l = &race->lane[lane];

	if (lane != RACE_S) {
		it->issue = race->lane[RACE_S].clock;
		it->issue.t[RACE_S] = race->s_pub;
	}
	it->pos = ++l->issued;
	it->site = race->site;
	*l->tail = it;
	l->tail = &it->next;
	race->pending |= 1u << lane;
	if (race_settle(race))
		race_find(race, ENOMEM, "out of memory: the detector stops here");
	return race->err ? race_fail(race->err) : (int)it->pos;
}

static size_t race_site_slot(const struct race_site_count *v, size_t cap,
			     const char *file, int line)
{
	size_t i = (((uintptr_t)file >> 3) * 31 + (unsigned int)line) *
		   0x9e3779b97f4a7c15ull;

	for (i &= cap - 1; v[i].file; i = (i + 1) & (cap - 1))
		if (v[i].file == file && v[i].line == line)
			break;
	return i;
}

/*
 * The iteration of a work item issued now from the current call site: 1
 * the first time the site issues one, then 2, 3...; 0 without a site (or
 * out of memory).  The files are interned by the caller: one pointer per
 * file.
 */
static unsigned int race_site_iter(struct asc_race *race)
{
	const char *file = race->site.file;
	int line = race->site.line;
	struct race_site_count *v;
	size_t cap, i, k;

	if (!file)
		return 0;
	if (2 * (race->nsites + 1) > race->capsites) {
		cap = race->capsites ? 2 * race->capsites : 64;
		v = calloc(cap, sizeof(*v));
		if (!v)
			return 0;
		for (i = 0; i < race->capsites; i++) {
			if (!race->sites[i].file)
				continue;
			k = race_site_slot(v, cap, race->sites[i].file,
					   race->sites[i].line);
			v[k] = race->sites[i];
		}
		free(race->sites);
		race->sites = v;
		race->capsites = cap;
	}
	i = race_site_slot(race->sites, race->capsites, file, line);
	if (!race->sites[i].file) {
		race->sites[i] = (struct race_site_count){ file, line, 0 };
		race->nsites++;
	}
	return ++race->sites[i].count;
}

static struct race_item *race_item_new(struct asc_race *race, enum race_kind kind,
				   unsigned long seq, unsigned int nacc)
{
	struct race_item *it = nacc ? NULL : race->spare;

	if (it) {
		race->spare = it->next;
		race->nspare--;
		*it = (struct race_item){ .kind = kind, .seq = seq };
		return it;
	}
	it = calloc(1, sizeof(*it) + nacc * sizeof(it->acc[0]));
	if (!it)
		return NULL;
	it->kind = kind;
	it->seq = seq;
	return it;
}

int asc_race_work(struct asc_race *race, int pipe_id, unsigned long seq,
		const char *what, const struct asc_access *acc,
		unsigned int nacc)
{
	int lane = race_lane_of(pipe_id);
	struct race_item *it;
	unsigned int i;

	if (race->err)
		return race_fail(race->err);
	if (lane < 0 || (nacc && !acc))
		return race_fail(EINVAL);
	for (i = 0; i < nacc; i++)
		if (!acc[i].size || (uintptr_t)acc[i].addr + acc[i].size <
		    (uintptr_t)acc[i].addr)
			return race_fail(EINVAL);

	it = race_item_new(race, RACE_WORK, seq, nacc);
	if (!it)
		return -1;
	it->iter = race_site_iter(race);
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
		if (race_place(race, &it->acc[i]))
			goto err_free;
	}
	return race_issue(race, lane, it);

err_free:
	race_item_free(it);
	return race_fail(ENOMEM);
}

int asc_race_mark(struct asc_race *race, int pipe_id, unsigned long seq,
		const char *what, unsigned long mark)
{
	int lane = race_lane_of(pipe_id);
	struct race_item *it;

	if (race->err)
		return race_fail(race->err);
	if (lane < 0 || !mark)
		return race_fail(EINVAL);
	it = race_item_new(race, RACE_WORK, seq, 0);
	if (!it)
		return -1;
	it->mark = mark;
	it->what = strdup(what ? what : "work");
	if (!it->what) {
		race_item_free(it);
		return race_fail(ENOMEM);
	}
	return race_issue(race, lane, it);
}

void asc_race_tap(struct asc_race *race,
		void (*fn)(void *ctx, const struct asc_race_ran *ran), void *ctx)
{
	race->tap = fn;
	race->tap_ctx = ctx;
}

void asc_race_clock(const struct asc_race *race, int pipe_id,
		  uint32_t out[ASC_RACE_CLOCKS])
{
	int lane = race_lane_of(pipe_id);

	memset(out, 0, ASC_RACE_CLOCKS * sizeof(out[0]));
	if (lane >= 0)
		memcpy(out, race->lane[lane].clock.t, sizeof(race->lane[lane].clock.t));
}

int asc_race_lane(int pipe_id)
{
	return race_lane_of(pipe_id);
}

int asc_race_flag(struct asc_race *race, bool set, unsigned long seq, int event,
		int id)
{
	return asc_race_flag_named(race, set, seq, event, id, NULL);
}

void asc_race_buffers(struct asc_race *race,
		      bool (*fn)(void *ctx, uintptr_t addr, uintptr_t *base,
				 const char **name),
		      void *ctx)
{
	race->buffer_at = fn;
	race->buffer_ctx = ctx;
}

void asc_race_site(struct asc_race *race, const char *file, int line)
{
	race->site.file = file;
	race->site.line = file ? line : 0;
}

int asc_race_region(struct asc_race *race, uintptr_t lo, uintptr_t hi,
		    const char *name)
{
	if (race->nregion == RACE_REGIONS)
		return race_fail(ENOSPC);
	race->region[race->nregion++] = (struct race_region){ lo, hi, name };
	return 0;
}

int asc_race_flag_named(struct asc_race *race, bool set, unsigned long seq,
			int event, int id, const char *what)
{
	return asc_race_flag_que(race, set, seq, event, id, what, false);
}

int asc_race_flag_que(struct asc_race *race, bool set, unsigned long seq,
		      int event, int id, const char *what, bool after_wait)
{
	enum race_kind kind;
	struct race_item *it;
	struct race_flag *f;
	int src, dst;

	if (race->err)
		return race_fail(race->err);
	if (event < 0 || event >= ASC_HARD_EVENT_COUNT || id < 0 ||
	    id >= ASC_EVENT_IDS_MAX)
		return race_fail(EINVAL);

	src = race_src(event);
	dst = race_dst(event);
	/* V_V's set is a barrier of V, its wait nothing; FIX_FIX's both are. */
	if (src != dst)
		kind = set ? RACE_SET : RACE_WAIT;
	else if (set || src == race_lane_of(ASC_PIPE_FIX))
		kind = RACE_BARRIER;
	else
		kind = RACE_NOP;
	it = race_item_new(race, kind, seq, 0);
	if (!it)
		return -1;
	if (src != dst) {
		f = race_flag_get(race, event, id);
		if (!f) {
			race_item_free(it);
			return race_fail(ENOMEM);
		}
		if (set) {
			f->sets_issued++;
			f->issued_set = seq;
			f->issued_set_site = race->site;
		} else if (++f->waits_issued >= f->sets_issued) {
			f->early = false;
		}
	}
	it->event = event;
	it->id = id;
	it->after_wait = after_wait && set;
	if (what) {
		it->what = strdup(what);
		if (!it->what) {
			race_item_free(it);
			return race_fail(ENOMEM);
		}
	}
	return race_issue(race, set ? src : dst, it);
}

/* Deadlock lines for every lane that cannot run all it holds. */
static void race_stuck_all(struct asc_race *race, const char *when)
{
	int lane;

	for (lane = 0; lane < RACE_LANES; lane++)
		if (race->lane[lane].head)
			race_stuck_line(race, lane, when);
}

/* Whether no lane holds an instruction the detector has not run. */
static bool race_idle(const struct asc_race *race)
{
	int lane;

	for (lane = 0; lane < RACE_LANES; lane++)
		if (race->lane[lane].head)
			return false;
	return true;
}

int asc_race_drain(struct asc_race *race, const char *when)
{
	if (race->err)
		return race_fail(race->err);
	if (race_idle(race))
		return 0;
	race_stuck_all(race, when);
	return race_fail(race->err);
}

int asc_race_reach(struct asc_race *race, int pipe_id, uint32_t pos,
		 const char *when)
{
	int lane = race_lane_of(pipe_id);

	if (race->err)
		return race_fail(race->err);
	if (lane < 0 || pos > race->lane[lane].issued)
		return race_fail(EINVAL);
	if (race->lane[lane].done >= pos)
		return 0;
	race_stuck_chain(race, lane, when);
	return race_fail(race->err);
}

uint32_t asc_race_done(const struct asc_race *race, int pipe_id)
{
	int lane = race_lane_of(pipe_id);

	return lane < 0 ? 0 : race->lane[lane].done;
}

uint32_t asc_race_issued(const struct asc_race *race, int pipe_id)
{
	int lane = race_lane_of(pipe_id);

	return lane < 0 ? 0 : race->lane[lane].issued;
}

int asc_race_barrier(struct asc_race *race, int pipe_id, unsigned long seq)
{
	struct race_clock all = { { 0 } };
	struct race_item *it;
	char when[64];
	int lane;

	if (race->err)
		return race_fail(race->err);
	if (pipe_id != ASC_PIPE_ALL) {
		lane = race_lane_of(pipe_id);
		if (lane <= RACE_S)
			return race_fail(EINVAL);
		it = race_item_new(race, RACE_BARRIER, seq, 0);
		if (!it)
			return -1;
		return race_issue(race, lane, it);
	}

	if (race->err || !race_idle(race)) {
		snprintf(when, sizeof(when), "at pipe_barrier(ALL) (#%lu)", seq);
		if (asc_race_drain(race, when))
			return -1;
	}
	for (lane = 0; lane < RACE_LANES; lane++)
		race_clock_join(&all, &race->lane[lane].clock);
	race->lane[RACE_S].done = ++race->lane[RACE_S].issued;
	all.t[RACE_S] = race->lane[RACE_S].done;
	all.t[RACE_ISSUE] = race->lane[RACE_S].done;
	race->s_pub = race->lane[RACE_S].done;
	for (lane = 0; lane < RACE_LANES; lane++) {
		race->lane[lane].clock = all;
		race->lane[lane].fence = race->lane[lane].done;
	}
	return race->lane[RACE_S].done;
}

int asc_race_leftovers(struct asc_race *race, const char *when)
{
	const struct race_flag *f;
	char ref[128];
	int event, id;
	uint32_t i;

	if (race->err)
		return race_fail(race->err);
	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		for (id = 0; race->flags[event] && id < ASC_EVENT_IDS_MAX; id++) {
			f = &race->flags[event][id];
			for (i = 0; i < f->qlen; i++) {
				const struct race_set_run *q = &f->q[(f->qhead + i) % f->qcap];

				race_ref(ref, sizeof(ref), q->seq, NULL, &q->site);
				race_find(race, ENOLCK,
					"missing wait: %s sets %s id %d (%s) and no wait takes it %s",
					race_lane_name(race_src(event)),
					race_event_name(event), id, ref, when);
			}
		}
	}
	return race->err ? race_fail(race->err) : 0;
}

void asc_race_release(struct asc_race *race, int event, int id, unsigned long seq)
{
	struct race_flag *f;

	if (event < 0 || event >= ASC_HARD_EVENT_COUNT || id < 0 ||
	    id >= ASC_EVENT_IDS_MAX || !race->flags[event])
		return;
	f = &race->flags[event][id];
	if (f->sets_issued <= f->waits_issued)
		return;
	f->early = true;
	f->rel_seq = seq;
	f->rel_site = race->site;
	f->rel_set = f->issued_set;
	f->rel_set_site = f->issued_set_site;
}

bool asc_race_event_used(const struct asc_race *race, int event)
{
	const struct race_item *it;
	int lane;

	if (event < 0 || event >= ASC_HARD_EVENT_COUNT)
		return false;
	if (race->flags[event])
		return true;
	for (lane = 0; lane < RACE_LANES; lane++)
		for (it = race->lane[lane].head; it; it = it->next)
			if ((it->kind == RACE_SET || it->kind == RACE_WAIT) &&
			    it->event == event)
				return true;
	return false;
}

/*
 * The last wait of (@event, @id) is not ordered before a set issued now
 * to @event's source: what that lane has run and what the scalar knows.
 */
static bool race_wait_unordered(const struct asc_race *race, int event,
				const struct race_flag *f)
{
	int src = race_src(event), dst = race_dst(event);
	int dst_clock = dst == RACE_S ? RACE_ISSUE : dst;
	struct race_clock next = race->lane[src].clock;
	struct race_clock issue = race->lane[RACE_S].clock;

	if (!f->waits_run)
		return false;
	if (src != RACE_S)
		issue.t[RACE_S] = race->s_pub;
	race_clock_join(&next, &issue);
	return !race_happens_before(dst_clock, f->wait_pos, &next);
}

bool asc_race_may_collide(const struct asc_race *race, int event, int id)
{
	const struct race_flag *f;
	const struct race_item *it;
	int lane;

	if (event < 0 || event >= ASC_HARD_EVENT_COUNT || id < 0 ||
	    id >= ASC_EVENT_IDS_MAX)
		return false;
	for (lane = 0; lane < RACE_LANES; lane++)
		for (it = race->lane[lane].head; it; it = it->next)
			if ((it->kind == RACE_SET || it->kind == RACE_WAIT) &&
			    it->event == event && it->id == id)
				return true;
	if (!race->flags[event])
		return false;
	f = &race->flags[event][id];
	return f->qlen || race_wait_unordered(race, event, f);
}

void asc_race_uses(struct asc_race *race, int event, struct asc_report *out)
{
	const struct race_flag *f;
	const struct race_item *it;
	char ref[128];
	int id, lane;
	uint32_t i;

	if (event < 0 || event >= ASC_HARD_EVENT_COUNT)
		return;
	for (id = 0; race->flags[event] && id < ASC_EVENT_IDS_MAX; id++) {
		f = &race->flags[event][id];
		for (i = 0; i < f->qlen; i++) {
			const struct race_set_run *q = &f->q[(f->qhead + i) % f->qcap];

			race_ref(ref, sizeof(ref), q->seq, NULL, &q->site);
			asc_report_add(out, "in use: %s id %d: its flag, set by %s (%s), not waited for yet",
				       race_event_name(event), id,
				       race_lane_name(race_src(event)), ref);
		}
		if (f->early) {
			char early[360];

			race_early_text(f, early, sizeof(early));
			asc_report_add(out, "in use: %s id %d: %s", race_event_name(event),
				       id, early);
		}
		if (!f->qlen && race_wait_unordered(race, event, f)) {
			race_ref(ref, sizeof(ref), f->wait_seq, NULL, &f->wait_site);
			asc_report_add(out, "in use: %s id %d: its last wait, on %s (%s), is ordered before nothing %s issues next: a set of it could come first",
				       race_event_name(event), id,
				       race_lane_name(race_dst(event)), ref,
				       race_lane_name(race_src(event)));
		}
	}
	for (lane = 0; lane < RACE_LANES; lane++) {
		for (it = race->lane[lane].head; it; it = it->next) {
			if ((it->kind != RACE_SET && it->kind != RACE_WAIT) ||
			    it->event != event)
				continue;
			race_ref(ref, sizeof(ref), it->seq, it->what, &it->site);
			asc_report_add(out, "in use: %s id %d: a %s issued (%s), queued on %s",
				       race_event_name(event), it->id,
				       it->kind == RACE_SET ? "set" : "wait",
				       ref, race_lane_name(lane));
		}
	}
}
