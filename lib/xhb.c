// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cross-core missing-sync detector: happens-before between the cores
 * of a launch, from the issue order alone, so that it finds the same
 * things on every run whatever the threads do.
 *
 * Each core's detector (hb.c) gives every instruction a vector clock over
 * the core's lanes (and ASC_HB_ISSUE, what its scalar had done), from the
 * core's issue order alone.  This file extends those clocks to vector
 * clocks over (core, lane) of the whole launch: what an instruction knows
 * of another core comes only through cross-core waits and SyncAll, and
 * an instruction is after a cross-core wait of its core when its local
 * clock has the wait's position on the wait's lane (ASC_HB_ISSUE for a
 * wait of the scalar, which blocks it).
 *
 * - A cross-core set publishes its global clock: its local clock, and
 *   what the waits and SyncAlls before it brought in.
 * - A set counts, as the chip counts it, once every core of its group has
 *   issued it: the j-th count of a group is the j-th set of (mode, flag)
 *   of each member (mode 0: all cores of the type; 1: the two AIVs of an
 *   AI core; 2: the AIC alone, counting on both AIVs, or both AIVs,
 *   counting on the AIC), and its clock the join of theirs.
 * - The k-th wait of (core, flag), in the core's issue order, takes the
 *   k-th count of (core, flag) and joins its clock.  When counts of
 *   several groups (modes) land on one (core, flag), the order on the
 *   chip is a matter of timing; here they are taken by round, then mode.
 * - SyncAll (after its pipe_barrier(PIPE_ALL)) publishes the core's clock
 *   and joins the clocks of every core's SyncAll of the same round.
 * - The software sync over a workspace (gmsync.c: IBSet, IBWait, SyncAll
 *   over global memory) is counters in memory: a set of a counter
 *   publishes its clock as the counter's n-th, and a wait until the
 *   counter reached n joins the clock of its n-th set.
 *
 * Clocks depend on one another across cores only forward in time (a wait
 * joins sets issued before it ran), so the check computes them by
 * repeating the joins until nothing changes.  Then two accesses of
 * different cores to overlapping bytes, at least one a write, are a
 * missing sync when neither's global clock has the other's position.
 * A count no wait takes is a missing wait.
 *
 * Cost: every access of every core is kept until the launch ends (the
 * per-core detector forgets redundant ones; here the order of what other
 * cores do decides redundancy).  Only writes to bytes that another core
 * also touches are checked against the accesses there.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "xhb.h"

#define XHB_MODES	3
#define XHB_FLAGS	16
#define XHB_C		ASC_HB_CLOCKS

/* A work item with accesses or a cross-core set, as its hb ran it. */
struct xhb_item {
	int lane;
	uint32_t pos;
	unsigned long seq;
	uint32_t clock[XHB_C];
	char *what;
};

/* An access: bytes, of item @item of core @core. */
struct xhb_acc {
	struct asc_range range;		/* first: in the check's index */
	unsigned int core;
	size_t item;
	int lane;			/* ASC_HB_ISSUE for a load of S */
	bool write;
	char *name;
};

/*
 * A cross-core set, or (@gm not NULL) a software sync's set of the
 * counter at @gm; @g is its global clock, @round its j.
 */
struct xhb_set {
	const void *gm;
	int flag;
	int mode;
	struct asc_xhb_range group;
	struct asc_xhb_range targets;
	unsigned long seq;
	bool ran;
	size_t item;
	unsigned int round;
	uint32_t *g;
};

/* The j-th count of a group: @members[i] the set of core group.first + i. */
struct xhb_count {
	unsigned int round;
	int mode;
	unsigned int nmembers;
	struct xhb_set **members;
	uint32_t *g;
};

/* A cross-core wait, or one until the counter at @gm reached @count. */
struct xhb_wait {
	const void *gm;
	uint32_t count;
	int flag;
	int lane;
	uint32_t pos;
	unsigned long seq;
};

struct xhb_sync {
	uint32_t pos;
	uint32_t clock[XHB_C];
	unsigned long seq;
	uint32_t *g;
};

/* What a wait or SyncAll brings in at (@lane, @pos); @cum the join so far. */
struct xhb_import {
	int lane;
	uint32_t pos;
	const uint32_t *src;
	uint32_t *cum;
};

/* A growing array. */
#define XHB_VEC(type, name) type *name; size_t n_##name, cap_##name

/*
 * struct xhb_core - what one core did.
 * @name: for the report.
 * @err: ENOMEM while recording: the check says so.
 * @counts: per flag, the counts that land on the core (struct xhb_count
 *	pointers), @ncounts of each, in the order waits take them.
 * @imports: the waits and SyncAlls with something to bring in, by lane
 *	then position; @lane_first[k] is lane k's first, @lane_first[k + 1]
 *	its end.
 */
struct xhb_core {
	char name[48];
	int err;
	XHB_VEC(struct xhb_item, items);
	XHB_VEC(struct xhb_acc, accs);
	XHB_VEC(struct xhb_set, sets);
	XHB_VEC(struct xhb_wait, waits);
	XHB_VEC(struct xhb_sync, syncs);
	struct xhb_count **counts[XHB_FLAGS];
	size_t ncounts[XHB_FLAGS];
	struct xhb_import *imports;
	size_t nimports;
	size_t lane_first[XHB_C + 1];
};

/*
 * struct asc_xhb - the detector of a launch.
 * @ncores: cores; @width: components of a global clock, XHB_C each.
 * @cores: what each did, by the driver's numbering.
 * @counts: every count, @ncounts of them.
 * @rounds: per SyncAll round completed by every core, its clock.
 */
struct asc_xhb {
	int kind;
	unsigned int block_dim;
	unsigned int ncores;
	size_t width;
	struct xhb_core *cores;
	struct xhb_count *counts;
	size_t ncounts;
	uint32_t **rounds;
	size_t nrounds;
};

/* Make room for one more in a growing array; NULL when out of memory. */
static void *xhb_grow(void *pv, size_t *n, size_t *cap, size_t size)
{
	void **p = pv, *v;
	size_t c;

	if (*n < *cap)
		return (char *)*p + *n * size;
	c = *cap ? 2 * *cap : 16;
	v = realloc(*p, c * size);
	if (!v)
		return NULL;
	*p = v;
	*cap = c;
	return (char *)v + *n * size;
}

#define XHB_PUSH(core, name) \
	((typeof((core)->name))xhb_grow(&(core)->name, &(core)->n_##name, \
					&(core)->cap_##name, \
					sizeof(*(core)->name)))

int asc_xhb_set_group(int kind, unsigned int block_dim, unsigned int core,
		      int mode, struct asc_xhb_range *group,
		      struct asc_xhb_range *targets)
{
	bool mix = kind == ASC_LAUNCH_MIX;
	bool aic = mix && core < block_dim;
	unsigned int ncores = mix ? 3 * block_dim : block_dim;
	unsigned int ai = aic || !mix ? core : (core - block_dim) / 2;
	struct asc_xhb_range pair = { block_dim + 2 * ai, block_dim + 2 * ai + 1 };

	if (core >= ncores || mode < 0 || mode >= XHB_MODES ||
	    (mode && !mix) || (mode == 1 && aic))
		return asc_einval();
	if (mode == 0) {
		group->first = mix && !aic ? block_dim : 0;
		group->last = mix && aic ? block_dim - 1 : ncores - 1;
		*targets = *group;
	} else if (mode == 1) {
		*group = pair;
		*targets = pair;
	} else if (aic) {
		*group = (struct asc_xhb_range){ ai, ai };
		*targets = pair;
	} else {
		*group = pair;
		*targets = (struct asc_xhb_range){ ai, ai };
	}
	return 0;
}

struct asc_xhb *asc_xhb_new(int kind, unsigned int block_dim)
{
	struct asc_xhb *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->kind = kind;
	x->block_dim = block_dim;
	x->ncores = kind == ASC_LAUNCH_MIX ? 3 * block_dim : block_dim;
	x->width = (size_t)x->ncores * XHB_C;
	x->cores = calloc(x->ncores, sizeof(*x->cores));
	if (!x->cores) {
		free(x);
		return NULL;
	}
	return x;
}

void asc_xhb_free(struct asc_xhb *x)
{
	struct xhb_core *c;
	size_t i, f;

	if (!x)
		return;
	for (c = x->cores; c && c < x->cores + x->ncores; c++) {
		for (i = 0; i < c->n_items; i++)
			free(c->items[i].what);
		for (i = 0; i < c->n_accs; i++)
			free(c->accs[i].name);
		for (i = 0; i < c->n_sets; i++)
			free(c->sets[i].g);
		for (i = 0; i < c->n_syncs; i++)
			free(c->syncs[i].g);
		for (i = 0; i < c->nimports; i++)
			free(c->imports[i].cum);
		for (f = 0; f < XHB_FLAGS; f++)
			free(c->counts[f]);
		free(c->items);
		free(c->accs);
		free(c->sets);
		free(c->waits);
		free(c->syncs);
		free(c->imports);
	}
	for (i = 0; i < x->ncounts; i++) {
		free(x->counts[i].members);
		free(x->counts[i].g);
	}
	for (i = 0; i < x->nrounds; i++)
		free(x->rounds[i]);
	free(x->rounds);
	free(x->counts);
	free(x->cores);
	free(x);
}

/* Record a run item of core @c; its index, or -1 (ENOMEM noted). */
static long xhb_item(struct xhb_core *c, const struct asc_hb_ran *r)
{
	struct xhb_item *it = XHB_PUSH(c, items);

	if (!it)
		goto nomem;
	*it = (struct xhb_item){ .lane = r->lane, .pos = r->pos, .seq = r->seq,
				 .what = strdup(r->what ? r->what : "work") };
	if (!it->what)
		goto nomem;
	memcpy(it->clock, r->clock, sizeof(it->clock));
	return c->n_items++;
nomem:
	c->err = ENOMEM;
	return -1;
}

/* The tap of a core's hb: keep its accesses and its sets' clocks. */
static void xhb_ran(void *ctx, const struct asc_hb_ran *r)
{
	struct xhb_core *c = ctx;
	struct xhb_acc *a;
	long item = xhb_item(c, r);
	unsigned int i;

	if (item < 0)
		return;
	if (r->mark && r->mark <= c->n_sets) {
		c->sets[r->mark - 1].ran = true;
		c->sets[r->mark - 1].item = item;
	}
	for (i = 0; i < r->nacc; i++) {
		a = XHB_PUSH(c, accs);
		if (!a) {
			c->err = ENOMEM;
			return;
		}
		*a = (struct xhb_acc){
			.range = { .lo = r->acc[i].lo, .hi = r->acc[i].hi },
			.item = item, .write = r->acc[i].write,
			/* A load of the scalar is done; its store is posted. */
			.lane = r->lane == ASC_HB_S && !r->acc[i].write ?
				ASC_HB_ISSUE : r->lane,
		};
		if (r->acc[i].name) {
			a->name = strdup(r->acc[i].name);
			if (!a->name) {
				c->err = ENOMEM;
				return;
			}
		}
		c->n_accs++;
	}
}

void asc_xhb_attach(struct asc_xhb *x, unsigned int core, struct asc_hb *hb,
		    const char *name)
{
	struct xhb_core *c = &x->cores[core];

	snprintf(c->name, sizeof(c->name), "%s", name);
	asc_hb_tap(hb, xhb_ran, c);
}

long asc_xhb_cross_set(struct asc_xhb *x, unsigned int core, int flag_id,
		       int mode, unsigned long seq)
{
	struct xhb_core *c = &x->cores[core];
	struct asc_xhb_range group, targets;
	struct xhb_set *s;

	if (flag_id < 0 || flag_id >= XHB_FLAGS ||
	    asc_xhb_set_group(x->kind, x->block_dim, core, mode, &group,
			      &targets))
		return asc_einval();
	s = XHB_PUSH(c, sets);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xhb_set){ .flag = flag_id, .mode = mode, .group = group,
			       .targets = targets, .seq = seq };
	return ++c->n_sets;
}

int asc_xhb_cross_wait(struct asc_xhb *x, unsigned int core, int flag_id,
		       int pipe_id, uint32_t pos, unsigned long seq)
{
	struct xhb_core *c = &x->cores[core];
	int lane = asc_hb_lane(pipe_id);
	struct xhb_wait *w;

	if (flag_id < 0 || flag_id >= XHB_FLAGS || lane < 0)
		return asc_einval();
	w = XHB_PUSH(c, waits);
	if (!w) {
		errno = ENOMEM;
		return -1;
	}
	*w = (struct xhb_wait){ .flag = flag_id,
				.lane = lane == ASC_HB_S ? ASC_HB_ISSUE : lane,
				.pos = pos, .seq = seq };
	c->n_waits++;
	return 0;
}

long asc_xhb_gm_set(struct asc_xhb *x, unsigned int core, const void *gm,
		    unsigned long seq)
{
	struct xhb_core *c = &x->cores[core];
	struct xhb_set *s = XHB_PUSH(c, sets);

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xhb_set){ .gm = gm, .flag = -1, .seq = seq };
	return ++c->n_sets;
}

int asc_xhb_gm_wait(struct asc_xhb *x, unsigned int core, const void *gm,
		    uint32_t count, int pipe_id, uint32_t pos,
		    unsigned long seq)
{
	struct xhb_core *c = &x->cores[core];
	int lane = asc_hb_lane(pipe_id);
	struct xhb_wait *w;

	if (!gm || !count || lane < 0)
		return asc_einval();
	w = XHB_PUSH(c, waits);
	if (!w) {
		errno = ENOMEM;
		return -1;
	}
	*w = (struct xhb_wait){ .gm = gm, .count = count, .flag = -1,
				.lane = lane == ASC_HB_S ? ASC_HB_ISSUE : lane,
				.pos = pos, .seq = seq };
	c->n_waits++;
	return 0;
}

int asc_xhb_sync_all(struct asc_xhb *x, unsigned int core,
		     const struct asc_hb *hb, unsigned long seq)
{
	struct xhb_core *c = &x->cores[core];
	struct xhb_sync *s = XHB_PUSH(c, syncs);

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xhb_sync){ .pos = asc_hb_done(hb, ASC_PIPE_S), .seq = seq };
	asc_hb_clock(hb, ASC_PIPE_S, s->clock);
	c->n_syncs++;
	return 0;
}

/* ---- the check ---- */

static bool xhb_join(uint32_t *dst, const uint32_t *src, size_t n)
{
	bool changed = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (src[i] > dst[i]) {
			dst[i] = src[i];
			changed = true;
		}
	}
	return changed;
}

/* The last import of @c on @lane at or before @pos, or NULL. */
static const struct xhb_import *xhb_last(const struct xhb_core *c, int lane,
					 uint32_t pos)
{
	size_t lo = c->lane_first[lane], hi = c->lane_first[lane + 1], mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->imports[mid].pos <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > c->lane_first[lane] ? &c->imports[lo - 1] : NULL;
}

/*
 * The global clock of what core @core knows at local clock @clock, joined
 * into @g.  Return: whether @g changed.
 */
static bool xhb_knows(const struct asc_xhb *x, unsigned int core,
		      const uint32_t *clock, uint32_t *g)
{
	const struct xhb_core *c = &x->cores[core];
	const struct xhb_import *im;
	bool changed;
	int k;

	changed = xhb_join(g + (size_t)core * XHB_C, clock, XHB_C);
	for (k = 0; k < XHB_C; k++) {
		im = xhb_last(c, k, clock[k]);
		if (im && xhb_join(g, im->cum, x->width))
			changed = true;
	}
	return changed;
}

/* What core @core at local clock @clock knows of component @comp. */
static uint32_t xhb_knows_of(const struct asc_xhb *x, unsigned int core,
			     const uint32_t *clock, size_t comp)
{
	const struct xhb_core *c = &x->cores[core];
	const struct xhb_import *im;
	uint32_t best = 0;
	int k;

	for (k = 0; k < XHB_C; k++) {
		im = xhb_last(c, k, clock[k]);
		if (im && im->cum[comp] > best)
			best = im->cum[comp];
	}
	return best;
}

static uint32_t *xhb_clock_new(const struct asc_xhb *x)
{
	return calloc(x->width, sizeof(uint32_t));
}

static int xhb_count_order(const void *pa, const void *pb)
{
	const struct xhb_count *a = *(const struct xhb_count *const *)pa;
	const struct xhb_count *b = *(const struct xhb_count *const *)pb;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->mode - b->mode;
}

/* The j-th set of (@mode, @flag) that core @c ran, or NULL. */
static struct xhb_set *xhb_nth_set(struct xhb_core *c, int mode, int flag,
				   unsigned int j)
{
	size_t i;

	for (i = 0; i < c->n_sets; i++)
		if (c->sets[i].ran && c->sets[i].mode == mode &&
		    c->sets[i].flag == flag && c->sets[i].round == j)
			return &c->sets[i];
	return NULL;
}

/* Number the sets, make the counts, hand them to their targets. */
static int xhb_make_counts(struct asc_xhb *x)
{
	unsigned int seen[XHB_MODES][XHB_FLAGS];
	struct xhb_count *cnt, **slot;
	struct xhb_core *c, *t;
	struct xhb_set *s;
	unsigned int core, m, tc;
	size_t i, n = 0, cap = 0;

	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < c->n_sets; i++) {
			s = &c->sets[i];
			if (!s->ran)
				continue;
			if (!s->gm)
				s->round = seen[s->mode][s->flag]++;
			s->g = xhb_clock_new(x);
			if (!s->g)
				return -1;
		}
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_sets; i++) {
			s = &c->sets[i];
			if (!s->ran || s->gm || s->group.first != core)
				continue;
			cnt = xhb_grow(&x->counts, &n, &cap, sizeof(*cnt));
			if (!cnt)
				return -1;
			*cnt = (struct xhb_count){
				.round = s->round, .mode = s->mode,
				.nmembers = s->group.last - s->group.first + 1,
			};
			cnt->members = calloc(cnt->nmembers, sizeof(*cnt->members));
			cnt->g = xhb_clock_new(x);
			x->ncounts = ++n;
			if (!cnt->members || !cnt->g)
				return -1;
			for (m = 0; m < cnt->nmembers; m++) {
				cnt->members[m] = xhb_nth_set(&x->cores[core + m],
							      s->mode, s->flag,
							      s->round);
				if (!cnt->members[m])
					break;
			}
			if (m < cnt->nmembers)
				cnt->nmembers = 0;	/* never counted */
		}
	}
	/* x->counts is final now: hand out pointers. */
	for (i = 0; i < x->ncounts; i++) {
		cnt = &x->counts[i];
		if (!cnt->nmembers)
			continue;
		s = cnt->members[0];
		for (tc = s->targets.first; tc <= s->targets.last; tc++) {
			t = &x->cores[tc];
			slot = realloc(t->counts[s->flag],
				       (t->ncounts[s->flag] + 1) * sizeof(*slot));
			if (!slot)
				return -1;
			t->counts[s->flag] = slot;
			slot[t->ncounts[s->flag]++] = cnt;
		}
	}
	for (core = 0; core < x->ncores; core++)
		for (m = 0; m < XHB_FLAGS; m++)
			if (x->cores[core].ncounts[m])
				qsort(x->cores[core].counts[m],
				      x->cores[core].ncounts[m],
				      sizeof(struct xhb_count *), xhb_count_order);
	return 0;
}

/*
 * The @n-th set (from 1) that ran of the counter at @gm: by core, then in
 * the core's order (a counter has one writer in a sound protocol).
 */
static const struct xhb_set *xhb_nth_gm_set(const struct asc_xhb *x,
					    const void *gm, uint32_t n)
{
	const struct xhb_core *c;
	size_t i;

	for (c = x->cores; c < x->cores + x->ncores; c++)
		for (i = 0; i < c->n_sets; i++)
			if (c->sets[i].ran && c->sets[i].gm == gm && !--n)
				return &c->sets[i];
	return NULL;
}

static int xhb_import_order(const void *pa, const void *pb)
{
	const struct xhb_import *a = pa, *b = pb;

	if (a->lane != b->lane)
		return a->lane - b->lane;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The SyncAll rounds every core reached, and their clocks. */
static int xhb_make_rounds(struct asc_xhb *x)
{
	size_t r, n = x->cores[0].n_syncs;
	unsigned int core;

	for (core = 0; core < x->ncores; core++) {
		if (x->cores[core].n_syncs < n)
			n = x->cores[core].n_syncs;
		for (r = 0; r < x->cores[core].n_syncs; r++) {
			x->cores[core].syncs[r].g = xhb_clock_new(x);
			if (!x->cores[core].syncs[r].g)
				return -1;
		}
	}
	x->rounds = calloc(n + 1, sizeof(*x->rounds));
	if (!x->rounds)
		return -1;
	for (r = 0; r < n; r++) {
		x->rounds[r] = xhb_clock_new(x);
		if (!x->rounds[r])
			return -1;
		x->nrounds = r + 1;
	}
	return 0;
}

/* The imports of core @c, by lane and position. */
static int xhb_make_imports(struct asc_xhb *x, struct xhb_core *c)
{
	unsigned int taken[XHB_FLAGS] = { 0 };
	struct xhb_import *im;
	const struct xhb_wait *w;
	const struct xhb_set *s;
	size_t i, k;

	c->imports = calloc(c->n_waits + c->n_syncs + 1, sizeof(*c->imports));
	if (!c->imports)
		return -1;
	for (i = 0; i < c->n_waits; i++) {
		w = &c->waits[i];
		if (w->gm) {
			s = xhb_nth_gm_set(x, w->gm, w->count);
			if (s)
				c->imports[c->nimports++] = (struct xhb_import){
					.lane = w->lane, .pos = w->pos, .src = s->g };
			continue;
		}
		k = taken[w->flag]++;
		if (k >= c->ncounts[w->flag])
			continue;	/* never ended: a deadlock of its own */
		c->imports[c->nimports++] = (struct xhb_import){
			.lane = w->lane, .pos = w->pos,
			.src = c->counts[w->flag][k]->g };
	}
	for (i = 0; i < c->n_syncs && i < x->nrounds; i++)
		c->imports[c->nimports++] = (struct xhb_import){
			.lane = ASC_HB_ISSUE, .pos = c->syncs[i].pos,
			.src = x->rounds[i] };
	qsort(c->imports, c->nimports, sizeof(*c->imports), xhb_import_order);
	for (i = 0, k = 0; k <= XHB_C; k++) {
		while (i < c->nimports && c->imports[i].lane < (int)k)
			i++;
		c->lane_first[k] = i;
	}
	for (i = 0; i < c->nimports; i++) {
		im = &c->imports[i];
		im->cum = xhb_clock_new(x);
		if (!im->cum)
			return -1;
	}
	return 0;
}

/* One round of joins.  Return: whether a clock changed. */
static bool xhb_propagate(struct asc_xhb *x)
{
	struct xhb_core *c;
	struct xhb_count *cnt;
	bool changed = false;
	unsigned int core, m;
	size_t i;

	for (i = 0; i < x->ncounts; i++) {
		cnt = &x->counts[i];
		for (m = 0; m < cnt->nmembers; m++)
			xhb_join(cnt->g, cnt->members[m]->g, x->width);
	}
	for (core = 0; core < x->ncores; core++)
		for (i = 0; i < x->nrounds; i++)
			xhb_join(x->rounds[i], x->cores[core].syncs[i].g, x->width);
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->nimports; i++) {
			if (i > 0 && c->imports[i - 1].lane == c->imports[i].lane)
				xhb_join(c->imports[i].cum, c->imports[i - 1].cum,
					 x->width);
			xhb_join(c->imports[i].cum, c->imports[i].src, x->width);
		}
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_sets; i++)
			if (c->sets[i].ran &&
			    xhb_knows(x, core, c->items[c->sets[i].item].clock,
				      c->sets[i].g))
				changed = true;
		for (i = 0; i < c->n_syncs; i++)
			if (xhb_knows(x, core, c->syncs[i].clock, c->syncs[i].g))
				changed = true;
	}
	return changed;
}

/* "name" [0x1000+64], or just the range for an access without a name. */
static void xhb_range(char *buf, size_t len, const struct xhb_acc *a)
{
	unsigned long lo = a->range.lo, size = a->range.hi - a->range.lo;

	if (a->name)
		snprintf(buf, len, "\"%s\" [%#lx+%lu]", a->name, lo, size);
	else
		snprintf(buf, len, "[%#lx+%lu]", lo, size);
}

static const char *xhb_lane_name(int lane)
{
	static const int pipe[XHB_C] = {
		ASC_PIPE_S, ASC_PIPE_V, ASC_PIPE_M, ASC_PIPE_MTE1,
		ASC_PIPE_MTE2, ASC_PIPE_MTE3, ASC_PIPE_FIX, ASC_PIPE_S,
	};

	return asc_pipe_id_name(pipe[lane]);
}

static void xhb_report_race(const struct asc_xhb *x, const struct xhb_acc *a,
			    const struct xhb_acc *b, struct asc_report *out)
{
	const struct xhb_item *ia = &x->cores[a->core].items[a->item];
	const struct xhb_item *ib = &x->cores[b->core].items[b->item];
	char first[160], second[160];

	xhb_range(first, sizeof(first), a);
	if (a->range.lo == b->range.lo && a->range.hi == b->range.hi &&
	    (a->name == b->name || (a->name && b->name &&
				    !strcmp(a->name, b->name))))
		snprintf(second, sizeof(second), "it");
	else
		xhb_range(second, sizeof(second), b);
	asc_report_add(out,
		       "missing sync: %s %s %s %s (#%lu %s) and %s %s %s %s (#%lu %s): no cross-core set/wait or SyncAll orders them",
		       x->cores[a->core].name, xhb_lane_name(a->lane),
		       a->write ? "writes" : "reads", first, ia->seq, ia->what,
		       x->cores[b->core].name, xhb_lane_name(b->lane),
		       b->write ? "writes" : "reads", second, ib->seq, ib->what);
}

/* Does access @a happen before access @b (of another core)? */
static bool xhb_before(const struct asc_xhb *x, const struct xhb_acc *a,
		       const struct xhb_acc *b)
{
	const struct xhb_item *ia = &x->cores[a->core].items[a->item];
	const struct xhb_item *ib = &x->cores[b->core].items[b->item];
	size_t comp = (size_t)a->core * XHB_C + a->lane;

	return ia->pos <= xhb_knows_of(x, b->core, ib->clock, comp);
}

/* Cores' bytes: the union of each core's accesses, in one index. */
struct xhb_owner {
	struct asc_range range;
	unsigned int core;
};

static int xhb_acc_by_lo(const void *pa, const void *pb)
{
	const struct xhb_acc *a = *(const struct xhb_acc *const *)pa;
	const struct xhb_acc *b = *(const struct xhb_acc *const *)pb;

	return a->range.lo < b->range.lo ? -1 : a->range.lo > b->range.lo;
}

static void xhb_owner_free(struct asc_range *r)
{
	free(r);
}

static int xhb_add_owners(struct asc_xhb *x, unsigned int core,
			  struct asc_ranges *owners)
{
	struct xhb_core *c = &x->cores[core];
	struct xhb_owner *o = NULL;
	struct xhb_acc **v;
	size_t i;

	if (!c->n_accs)
		return 0;
	v = malloc(c->n_accs * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < c->n_accs; i++)
		v[i] = &c->accs[i];
	qsort(v, c->n_accs, sizeof(*v), xhb_acc_by_lo);
	for (i = 0; i < c->n_accs; i++) {
		if (o && v[i]->range.lo <= o->range.hi) {
			if (v[i]->range.hi > o->range.hi)
				o->range.hi = v[i]->range.hi;
			continue;
		}
		if (o)
			asc_ranges_insert(owners, &o->range);
		o = calloc(1, sizeof(*o));
		if (!o) {
			free(v);
			return -1;
		}
		o->range.lo = v[i]->range.lo;
		o->range.hi = v[i]->range.hi;
		o->core = core;
	}
	asc_ranges_insert(owners, &o->range);
	free(v);
	return 0;
}

/* Is any of [@lo, @hi) touched by a core other than @core? */
static int xhb_shared(const struct asc_ranges *owners, unsigned int core,
		      const struct asc_range *r, struct asc_range_list *found)
{
	size_t i;

	if (asc_ranges_overlap(owners, r->lo, r->hi, found))
		return -1;
	for (i = 0; i < found->len; i++)
		if (((struct xhb_owner *)found->v[i])->core != core)
			return 1;
	return 0;
}

/* Every write to shared bytes against the accesses of other cores there. */
static int xhb_races(struct asc_xhb *x, struct asc_report *out)
{
	struct asc_ranges owners = { 0 }, all = { 0 };
	struct asc_range_list found = { 0 };
	const struct xhb_acc *a, *b;
	struct xhb_core *c;
	unsigned int core;
	size_t i, j;
	int ret = -1, shared, races = 0;

	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_accs; i++) {
			c->accs[i].core = core;
			asc_ranges_insert(&all, &c->accs[i].range);
		}
		if (xhb_add_owners(x, core, &owners))
			goto out;
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_accs; i++) {
			a = &c->accs[i];
			if (!a->write)
				continue;
			shared = xhb_shared(&owners, core, &a->range, &found);
			if (shared < 0)
				goto out;
			if (!shared)
				continue;
			if (asc_ranges_overlap(&all, a->range.lo, a->range.hi,
					       &found))
				goto out;
			for (j = 0; j < found.len; j++) {
				b = (const struct xhb_acc *)found.v[j];
				/* Two writes: reported from the first core's. */
				if (b->core == core || (b->write && b->core < core))
					continue;
				if (xhb_before(x, a, b) || xhb_before(x, b, a))
					continue;
				xhb_report_race(x, a, b, out);
				races++;
			}
		}
	}
	ret = races;
out:
	/* The accesses stay the cores'; only the index goes. */
	all.root = NULL;
	asc_ranges_clear(&owners, xhb_owner_free);
	free(found.v);
	return ret;
}

/* Counts no wait took: a line each.  Return: how many. */
static int xhb_leftovers(struct asc_xhb *x, struct asc_report *out)
{
	const struct xhb_count *cnt;
	const struct xhb_set *s;
	const struct xhb_core *c;
	unsigned int core, taken[XHB_FLAGS];
	size_t i, k;
	int f, n = 0;

	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		memset(taken, 0, sizeof(taken));
		for (i = 0; i < c->n_waits; i++)
			if (!c->waits[i].gm)
				taken[c->waits[i].flag]++;
		for (f = 0; f < XHB_FLAGS; f++) {
			for (k = taken[f]; k < c->ncounts[f]; k++) {
				cnt = c->counts[f][k];
				s = cnt->members[cnt->nmembers - 1];
				asc_report_add(out,
					       "missing wait: cross-core flag %d of %s counts a set of %s (#%lu %s, mode %d) that no wait takes by the end of the launch",
					       f, c->name,
					       x->cores[s->group.last].name,
					       s->seq,
					       xhb_lane_name(x->cores[s->group.last].items[s->item].lane),
					       s->mode);
				n++;
			}
		}
	}
	return n;
}

int asc_xhb_check(struct asc_xhb *x, struct asc_report *out)
{
	unsigned int core;
	int races, left;

	for (core = 0; core < x->ncores; core++) {
		if (x->cores[core].err) {
			asc_report_add(out, "out of memory: the cross-core detector of %s stopped",
				       x->cores[core].name);
			errno = ENOMEM;
			return -1;
		}
	}
	if (xhb_make_counts(x) || xhb_make_rounds(x))
		goto nomem;
	for (core = 0; core < x->ncores; core++)
		if (xhb_make_imports(x, &x->cores[core]))
			goto nomem;
	while (xhb_propagate(x))
		;
	races = xhb_races(x, out);
	if (races < 0)
		goto nomem;
	left = xhb_leftovers(x, out);
	if (races || left) {
		errno = ENOLCK;
		return -1;
	}
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}
