// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: multi-core launches on the timeline.
 *
 * Which TPipe runs which core of which launch: the launch record gives a
 * launch's kind and block_dim, and every record of a core (join, leave,
 * cross_set, cross_wait, sync_all, cross_deadlock) names its TPipe, launch
 * and core.  The cores of a launch are shown together, by core number, as
 * the driver numbers them: on a mix launch of block_dim B cores 0..B-1 are
 * the AICs and B..3B-1 the AIVs, AIV B + v having block index v (Ascend
 * C's GetBlockIdx(), 2 * AI core + sub-block) and sub-block v % 2; on a
 * vector-only or cube-only launch core n is block n.  A core is named as
 * the driver's reports name it, "core 4 (AIV 1)", the number in brackets
 * its block index.
 *
 * Cross-core hand-offs: the chip's rule is replayed per launch, from the
 * records in time order (the driver records a set and the waits it ends
 * under the launch's lock, so in that order).  A successful set of
 * (mode, flag) by a core belongs to a group of cores and counts on a set
 * of targets (mode 0: every core of its type, counting on each; mode 1:
 * the two AIVs of one AI core, counting on both; mode 2: from an AIC the
 * AIC alone, counting on its two AIVs, from an AIV the two AIVs, counting
 * on their AIC).  Until every member of the group has issued it, an issue
 * waits in its core's queue; the issue that completes the group takes the
 * oldest issue of every other member, and the count it makes goes to each
 * target's queue of (flag).  A successful wait of a core takes the oldest
 * count of its queue: one arrow from each set of that count to the wait.
 * A wait whose count the trace does not show (its set came before the
 * trace, or the launch record is missing) is drawn without an arrow and
 * counted.  A reset of a core's TPipe clears its counters and issues, as
 * the driver does.
 *
 * SyncAll: the successful sync_all records of a launch come in rounds of
 * one per core (no core can come back before all have left); in a mix
 * launch those with aiv_only (the AIVs' SyncAll) in rounds of their own,
 * one per AIV.  The core that arrived last released the others, and it
 * records first: the driver records its SyncAll under the launch's lock,
 * before the cores it wakes can take the lock again to record theirs.
 * Its start (ts - waited_ns) need not be the latest, as it is taken
 * before the lock.  One arrow from the round's first record to each
 * other one.  A failed round (-EPIPE, a core left) is forgotten.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/asc_event.h>

#include "ascctl.h"

#define CROSS_MODES	3

/**
 * struct cross_group - who takes part in a cross-core set, whom it counts on.
 * @first: first member core.
 * @last: last member core.
 * @target_first: first target core.
 * @target_last: last target core.
 */
struct cross_group {
	unsigned int first;
	unsigned int last;
	unsigned int target_first;
	unsigned int target_last;
};

/**
 * struct fifo_node - an entry of one of the replay's queues.
 * @val: an item index (issues) or a count index (counts).
 * @next: next node of the queue, or -1.
 */
struct fifo_node {
	size_t val;
	long next;
};

/**
 * struct fifo - a queue of nodes in &struct replay.nodes.
 * @head: oldest node, or -1.
 * @tail: newest node, or -1.
 */
struct fifo {
	long head;
	long tail;
};

/**
 * struct cross_count - one count a completed set made: its sets.
 * @first: index of its first set in &struct replay.sets.
 * @nr: how many sets (the group's members).
 */
struct cross_count {
	size_t first;
	size_t nr;
};

/**
 * struct launch_state - replay state of one launch.
 * @issues: per (core, mode, flag) the issues waiting for their group.
 * @counts: per (core, flag) the counts not yet taken.
 * @round: the successful sync_all items of the current round: of every
 *	core from [0], of the AIVs only (mix launches) from [ncores].
 * @nr_round: how many, of each.
 */
struct launch_state {
	struct fifo *issues;
	struct fifo *counts;
	size_t *round;
	unsigned int nr_round[2];
};

/**
 * struct replay - state of asc_tl_launch_flows() while it runs.
 * @tl: the timeline.
 * @ls: per launch; NULL arrays for a launch whose shape is unknown.
 * @nodes: the queues' nodes.
 * @nr_nodes: used.
 * @cap_nodes: room.
 * @cnt: the counts.
 * @nr_cnt: used.
 * @cap_cnt: room.
 * @sets: the sets of the counts.
 * @nr_sets: used.
 * @cap_sets: room.
 */
struct replay {
	struct asc_timeline *tl;
	struct launch_state *ls;
	struct fifo_node *nodes;
	size_t nr_nodes;
	size_t cap_nodes;
	struct cross_count *cnt;
	size_t nr_cnt;
	size_t cap_cnt;
	size_t *sets;
	size_t nr_sets;
	size_t cap_sets;
};

/**
 * asc_launch_kind_name() - a launch kind as the tracepoint prints it.
 * @kind: ASC_EVENT_LAUNCH_*, or 0.
 *
 * Return: "aiv", "aic", "mix", or "?" for an unknown kind.
 */
const char *asc_launch_kind_name(unsigned int kind)
{
	switch (kind) {
	case ASC_EVENT_LAUNCH_AIV:
		return "aiv";
	case ASC_EVENT_LAUNCH_AIC:
		return "aic";
	case ASC_EVENT_LAUNCH_MIX:
		return "mix";
	default:
		return "?";
	}
}

static bool rec_of_core(const struct asc_rec *r)
{
	switch (r->kind) {
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
	case ASC_REC_CROSS_SET:
	case ASC_REC_CROSS_WAIT:
	case ASC_REC_SYNC_ALL:
	case ASC_REC_CROSS_DEADLOCK:
		return true;
	default:
		return false;
	}
}

static int find_launch(const struct asc_timeline *tl, uint32_t serial)
{
	int lo = 0, hi = tl->nr_launches;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (tl->launches[mid].serial < serial)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tl->nr_launches && tl->launches[lo].serial == serial ? lo : -1;
}

static int cmp_serial(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Display order: a launch's cores where its lowest TPipe serial is, by core. */
static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct asc_timeline *tl = arg;
	const struct asc_tl_tpipe *x = &tl->tpipes[*(const int *)a];
	const struct asc_tl_tpipe *y = &tl->tpipes[*(const int *)b];
	uint32_t kx = x->launch >= 0 ? tl->launches[x->launch].first_serial : x->serial;
	uint32_t ky = y->launch >= 0 ? tl->launches[y->launch].first_serial : y->serial;

	if (kx != ky)
		return kx < ky ? -1 : 1;
	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

/* The launches of the records, sorted and unique; kind and shape from launch records. */
static int collect_serials(struct asc_timeline *tl)
{
	const struct asc_trace *tr = tl->trace;
	uint32_t *serials;
	size_t r, n = 0, i;

	serials = malloc((tr->nr_recs + 1) * sizeof(*serials));
	if (!serials)
		return -1;
	for (r = 0; r < tr->nr_recs; r++)
		if (tr->recs[r].kind == ASC_REC_LAUNCH || rec_of_core(&tr->recs[r]))
			serials[n++] = tr->recs[r].launch;
	qsort(serials, n, sizeof(*serials), cmp_serial);
	tl->launches = calloc(n + 1, sizeof(*tl->launches));
	if (!tl->launches) {
		free(serials);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!i || serials[i] != serials[i - 1])
			tl->launches[tl->nr_launches++] = (struct asc_tl_launch){
				.serial = serials[i], .first_serial = UINT32_MAX,
			};
	free(serials);
	return 0;
}

/**
 * asc_tl_launches_collect() - the launches of a timeline and their cores.
 * @tl: the timeline, its TPipes collected; fills @tl->launches, the
 *	launch and core of each TPipe and @tl->order.
 *
 * A launch with block_dim above %ASC_EVENT_BLOCK_DIM_MAX or of an unknown
 * kind is kept with an unknown shape (no core types, no arrows).
 *
 * Return: 0, or -1 when out of memory.
 */
int asc_tl_launches_collect(struct asc_timeline *tl)
{
	const struct asc_trace *tr = tl->trace;
	size_t r;
	int i, tp, l;

	for (i = 0; i < tl->nr_tpipes; i++) {
		tl->tpipes[i].launch = -1;
		tl->tpipes[i].core = -1;
	}
	if (collect_serials(tl))
		return -1;
	for (r = 0; r < tr->nr_recs; r++) {
		const struct asc_rec *rec = &tr->recs[r];
		struct asc_tl_launch *la;

		if (rec->kind == ASC_REC_LAUNCH) {
			la = &tl->launches[find_launch(tl, rec->launch)];
			la->kind = asc_launch_kind_name(rec->launch_kind)[0] != '?' ?
				   rec->launch_kind : 0;
			la->block_dim = rec->block_dim;
			la->ncores = 0;
			if (la->kind && rec->block_dim <= ASC_EVENT_BLOCK_DIM_MAX)
				la->ncores = la->kind == ASC_EVENT_LAUNCH_MIX ?
					     3 * rec->block_dim : rec->block_dim;
			continue;
		}
		if (!rec_of_core(rec))
			continue;
		tp = asc_tl_find_tpipe(tl, rec->tpipe);
		l = find_launch(tl, rec->launch);
		if (tp < 0 || l < 0 || tl->tpipes[tp].launch >= 0)
			continue;
		tl->tpipes[tp].launch = l;
		tl->tpipes[tp].core = rec->core;
		if (rec->tpipe < tl->launches[l].first_serial)
			tl->launches[l].first_serial = rec->tpipe;
	}
	tl->order = malloc((tl->nr_tpipes + 1) * sizeof(*tl->order));
	if (!tl->order)
		return -1;
	for (i = 0; i < tl->nr_tpipes; i++)
		tl->order[i] = i;
	qsort_r(tl->order, tl->nr_tpipes, sizeof(*tl->order), cmp_order, tl);
	return 0;
}

/* Whether @core of launch @la is an AIC. */
static bool core_is_aic(const struct asc_tl_launch *la, unsigned int core)
{
	return la->kind == ASC_EVENT_LAUNCH_AIC ||
	       (la->kind == ASC_EVENT_LAUNCH_MIX && core < la->block_dim);
}

/**
 * asc_tl_core_name() - what the outputs call a TPipe that runs a core.
 * @tl: the timeline.
 * @tpipe: index of the TPipe.
 * @buf: where the name goes.
 * @size: size of @buf.
 *
 * "launch 1 core 4 (AIV 1)": the number in brackets is the core's block
 * index, as the driver's reports write it; "launch 1 core 4" when the
 * launch's shape is unknown or the core is not one of it.
 *
 * Return: what snprintf() returns; 0 and "" for a TPipe in no launch.
 */
int asc_tl_core_name(const struct asc_timeline *tl, int tpipe, char *buf, size_t size)
{
	const struct asc_tl_tpipe *tp = &tl->tpipes[tpipe];
	const struct asc_tl_launch *la;
	unsigned int block;

	if (tp->launch < 0) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	la = &tl->launches[tp->launch];
	if (tp->core < 0 || (unsigned int)tp->core >= la->ncores)
		return snprintf(buf, size, "launch %u core %d", la->serial, tp->core);
	block = tp->core;
	if (la->kind == ASC_EVENT_LAUNCH_MIX && !core_is_aic(la, tp->core))
		block -= la->block_dim;
	return snprintf(buf, size, "launch %u core %d (%s %u)", la->serial, tp->core,
			core_is_aic(la, tp->core) ? "AIC" : "AIV", block);
}

/**
 * asc_tl_launch_name() - a launch for the outputs' group headers.
 * @tl: the timeline.
 * @launch: index of the launch.
 * @buf: where the name goes.
 * @size: size of @buf.
 *
 * "launch 1: mix, block_dim 2, 6 cores"; "launch 1: no launch record in
 * the trace" when its shape is unknown.
 *
 * Return: what snprintf() returns.
 */
int asc_tl_launch_name(const struct asc_timeline *tl, int launch, char *buf, size_t size)
{
	const struct asc_tl_launch *la = &tl->launches[launch];

	if (!la->ncores)
		return snprintf(buf, size, "launch %u: %s", la->serial,
				la->kind ? "block_dim out of range" : "no launch record in the trace");
	return snprintf(buf, size, "launch %u: %s, block_dim %u, %u core%s", la->serial,
			asc_launch_kind_name(la->kind), la->block_dim, la->ncores,
			la->ncores == 1 ? "" : "s");
}

/*
 * The group of a cross-core set of @core in @mode; false when the launch
 * has no such mode for that core (the driver refuses the set).
 */
static bool cross_group(const struct asc_tl_launch *la, unsigned int core, int mode,
			struct cross_group *g)
{
	unsigned int aiv0 = la->kind == ASC_EVENT_LAUNCH_MIX ? la->block_dim : 0;
	bool aic = core_is_aic(la, core);
	unsigned int pair = aic ? 0 : aiv0 + (core - aiv0) / 2 * 2;

	if (mode < 0 || mode >= CROSS_MODES || (mode && la->kind != ASC_EVENT_LAUNCH_MIX) ||
	    (mode == 1 && aic))
		return false;
	if (mode == 0) {
		g->first = aic ? 0 : aiv0;
		g->last = aic && aiv0 ? aiv0 - 1 : la->ncores - 1;
		g->target_first = g->first;
		g->target_last = g->last;
	} else if (mode == 1) {
		g->first = g->target_first = pair;
		g->last = g->target_last = pair + 1;
	} else if (aic) {
		g->first = g->last = core;
		g->target_first = aiv0 + 2 * core;
		g->target_last = aiv0 + 2 * core + 1;
	} else {
		g->first = pair;
		g->last = pair + 1;
		g->target_first = g->target_last = (pair - aiv0) / 2;
	}
	return true;
}

static int fifo_push(struct replay *rp, struct fifo *q, size_t val)
{
	if (rp->nr_nodes == rp->cap_nodes) {
		size_t ncap = rp->cap_nodes ? 2 * rp->cap_nodes : 256;
		struct fifo_node *n = realloc(rp->nodes, ncap * sizeof(*n));

		if (!n)
			return -1;
		rp->nodes = n;
		rp->cap_nodes = ncap;
	}
	rp->nodes[rp->nr_nodes] = (struct fifo_node){ .val = val, .next = -1 };
	if (q->tail >= 0)
		rp->nodes[q->tail].next = rp->nr_nodes;
	else
		q->head = rp->nr_nodes;
	q->tail = rp->nr_nodes++;
	return 0;
}

/* The oldest value of @q, removed; false when it is empty. */
static bool fifo_pop(struct replay *rp, struct fifo *q, size_t *val)
{
	if (q->head < 0)
		return false;
	*val = rp->nodes[q->head].val;
	q->head = rp->nodes[q->head].next;
	if (q->head < 0)
		q->tail = -1;
	return true;
}

static void fifo_clear(struct fifo *q, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		q[i] = (struct fifo){ .head = -1, .tail = -1 };
}

static int reserve(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 256;
	void *n;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*arr, ncap * elem);
	if (!n)
		return -1;
	*arr = n;
	*cap = ncap;
	return 0;
}

/* The launch of a record of a core, if its shape is known and the core is one of it. */
static const struct asc_tl_launch *launch_of(struct replay *rp, const struct asc_rec *rec,
					     struct launch_state **ls)
{
	int l = find_launch(rp->tl, rec->launch);

	if (l < 0 || !rp->ls[l].issues || rec->core < 0 ||
	    (unsigned int)rec->core >= rp->tl->launches[l].ncores)
		return NULL;
	*ls = &rp->ls[l];
	return &rp->tl->launches[l];
}

static struct fifo *issues_of(struct launch_state *ls, unsigned int core, int mode, int flag)
{
	return &ls->issues[((size_t)core * CROSS_MODES + mode) * ASC_EVENT_CROSS_FLAGS + flag];
}

static int cross_set(struct replay *rp, size_t item)
{
	const struct asc_rec *rec = rp->tl->items[item].rec;
	const struct asc_tl_launch *la;
	struct launch_state *ls;
	struct cross_group g;
	unsigned int m, t;
	size_t first, set = item;

	la = launch_of(rp, rec, &ls);
	if (!la || rec->ret || rec->flag < 0 || rec->flag >= ASC_EVENT_CROSS_FLAGS ||
	    !cross_group(la, rec->core, rec->mode, &g))
		return 0;
	for (m = g.first; m <= g.last; m++)
		if (m != (unsigned int)rec->core &&
		    issues_of(ls, m, rec->mode, rec->flag)->head < 0)
			return fifo_push(rp, issues_of(ls, rec->core, rec->mode, rec->flag), item);
	if (reserve((void **)&rp->sets, &rp->cap_sets, rp->nr_sets + g.last - g.first + 1,
		    sizeof(*rp->sets)) ||
	    reserve((void **)&rp->cnt, &rp->cap_cnt, rp->nr_cnt + 1, sizeof(*rp->cnt)))
		return -1;
	first = rp->nr_sets;
	for (m = g.first; m <= g.last; m++) {
		if (m == (unsigned int)rec->core)
			set = item;
		else
			fifo_pop(rp, issues_of(ls, m, rec->mode, rec->flag), &set);
		rp->sets[rp->nr_sets++] = set;
	}
	rp->cnt[rp->nr_cnt] = (struct cross_count){ .first = first, .nr = rp->nr_sets - first };
	for (t = g.target_first; t <= g.target_last; t++)
		if (fifo_push(rp, &ls->counts[(size_t)t * ASC_EVENT_CROSS_FLAGS + rec->flag],
			      rp->nr_cnt))
			return -1;
	rp->nr_cnt++;
	return 0;
}

static int cross_wait(struct replay *rp, size_t item)
{
	const struct asc_rec *rec = rp->tl->items[item].rec;
	struct launch_state *ls;
	const struct cross_count *c;
	size_t k, i;

	if (rec->ret)
		return 0;
	if (!launch_of(rp, rec, &ls) || rec->flag < 0 || rec->flag >= ASC_EVENT_CROSS_FLAGS ||
	    !fifo_pop(rp, &ls->counts[(size_t)rec->core * ASC_EVENT_CROSS_FLAGS + rec->flag],
		      &k)) {
		rp->tl->nr_cross_unmatched++;
		return 0;
	}
	c = &rp->cnt[k];
	for (i = 0; i < c->nr; i++)
		if (asc_tl_add_flow(rp->tl, ASC_TL_FLOW_CROSS, rp->sets[c->first + i], item))
			return -1;
	return 0;
}

/* A reset of a core's TPipe: its counts and issues are gone. */
static void core_reset(struct replay *rp, const struct asc_tl_item *it)
{
	const struct asc_tl_tpipe *tp = &rp->tl->tpipes[it->tpipe];
	struct launch_state *ls;
	const struct asc_tl_launch *la;

	if (tp->launch < 0 || !rp->ls[tp->launch].issues || tp->core < 0)
		return;
	la = &rp->tl->launches[tp->launch];
	ls = &rp->ls[tp->launch];
	if ((unsigned int)tp->core >= la->ncores)
		return;
	fifo_clear(issues_of(ls, tp->core, 0, 0), CROSS_MODES * ASC_EVENT_CROSS_FLAGS);
	fifo_clear(&ls->counts[(size_t)tp->core * ASC_EVENT_CROSS_FLAGS], ASC_EVENT_CROSS_FLAGS);
}

static int sync_all(struct replay *rp, size_t item)
{
	const struct asc_rec *rec = rp->tl->items[item].rec;
	const struct asc_tl_launch *la;
	struct launch_state *ls;
	size_t i, n, *round;
	int aiv;

	la = launch_of(rp, rec, &ls);
	if (!la)
		return 0;
	aiv = rec->aiv_only && la->kind == ASC_EVENT_LAUNCH_MIX;
	if (rec->ret) {
		if (rec->ret == -EPIPE)
			ls->nr_round[aiv] = 0;
		return 0;
	}
	n = aiv ? la->ncores - la->block_dim : la->ncores;
	round = ls->round + (aiv ? la->ncores : 0);
	round[ls->nr_round[aiv]++] = item;
	if (ls->nr_round[aiv] < n)
		return 0;
	ls->nr_round[aiv] = 0;
	for (i = 1; i < n; i++)
		if (asc_tl_add_flow(rp->tl, ASC_TL_FLOW_SYNC, round[0], round[i]))
			return -1;
	return 0;
}

static int replay_item(struct replay *rp, size_t i)
{
	const struct asc_tl_item *it = &rp->tl->items[i];
	const struct asc_rec *rec = it->rec;
	const struct asc_tl_launch *la;
	struct launch_state *ls;

	switch (rec->kind) {
	case ASC_REC_CROSS_SET:
		return cross_set(rp, i);
	case ASC_REC_CROSS_WAIT:
		return it->kind == ASC_TL_WAIT ? cross_wait(rp, i) : 0;
	case ASC_REC_SYNC_ALL:
		return it->kind == ASC_TL_WAIT ? sync_all(rp, i) : 0;
	case ASC_REC_RESET:
		core_reset(rp, it);
		return 0;
	case ASC_REC_LEAVE:
		la = launch_of(rp, rec, &ls);
		if (la) {
			ls->nr_round[0] = 0;
			if (la->kind != ASC_EVENT_LAUNCH_MIX ||
			    (unsigned int)rec->core >= la->block_dim)
				ls->nr_round[1] = 0;
		}
		return 0;
	default:
		return 0;
	}
}

/**
 * asc_tl_launch_flows() - the cross-core and SyncAll hand-offs.
 * @tl: the timeline, its items built (in time order) and its launches
 *	collected; the hand-offs are added to @tl->flows.
 *
 * Return: 0, or -1 when out of memory.
 */
int asc_tl_launch_flows(struct asc_timeline *tl)
{
	struct replay rp = { .tl = tl };
	size_t i;
	int l, ret = -1;

	rp.ls = calloc(tl->nr_launches + 1, sizeof(*rp.ls));
	if (!rp.ls)
		return -1;
	for (l = 0; l < tl->nr_launches; l++) {
		size_t n = tl->launches[l].ncores;

		if (!n)
			continue;
		rp.ls[l].issues = malloc(n * CROSS_MODES * ASC_EVENT_CROSS_FLAGS *
					 sizeof(*rp.ls[l].issues));
		rp.ls[l].counts = malloc(n * ASC_EVENT_CROSS_FLAGS * sizeof(*rp.ls[l].counts));
		rp.ls[l].round = malloc(2 * n * sizeof(*rp.ls[l].round));
		if (!rp.ls[l].issues || !rp.ls[l].counts || !rp.ls[l].round) {
			free(rp.ls[l].issues);
			rp.ls[l].issues = NULL;
			goto out;
		}
		fifo_clear(rp.ls[l].issues, n * CROSS_MODES * ASC_EVENT_CROSS_FLAGS);
		fifo_clear(rp.ls[l].counts, n * ASC_EVENT_CROSS_FLAGS);
	}
	for (i = 0; i < tl->nr_items; i++)
		if (replay_item(&rp, i))
			goto out;
	ret = 0;
out:
	for (l = 0; l < tl->nr_launches; l++) {
		free(rp.ls[l].issues);
		free(rp.ls[l].counts);
		free(rp.ls[l].round);
	}
	free(rp.ls);
	free(rp.nodes);
	free(rp.cnt);
	free(rp.sets);
	return ret;
}
