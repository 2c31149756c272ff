// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cross-core detector's check after a launch (the model: race_launch.c): the
 * counts and SyncAll rounds, the global clocks joined until they settle,
 * then races between cores and counts no wait took.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number_set.h"
#include "race_launch_model.h"


static bool xrace_join(uint32_t *dst, const uint32_t *src, size_t n)
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
static const struct xrace_import *xrace_last(const struct xrace_core *c, int lane,
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
static bool xrace_knows(const struct asc_xrace *x, unsigned int core,
		      const uint32_t *clock, uint32_t *g)
{
	const struct xrace_core *c = &x->cores[core];
	const struct xrace_import *im;
	bool changed;
	int k;

	changed = xrace_join(g + (size_t)core * XRACE_C, clock, XRACE_C);
	for (k = 0; k < XRACE_C; k++) {
		im = xrace_last(c, k, clock[k]);
		if (im && xrace_join(g, im->cum, x->width))
			changed = true;
	}
	return changed;
}

/* What core @core at local clock @clock knows of component @comp. */
static uint32_t xrace_knows_of(const struct asc_xrace *x, unsigned int core,
			     const uint32_t *clock, size_t comp)
{
	const struct xrace_core *c = &x->cores[core];
	const struct xrace_import *im;
	uint32_t best = 0;
	int k;

	for (k = 0; k < XRACE_C; k++) {
		im = xrace_last(c, k, clock[k]);
		if (im && im->cum[comp] > best)
			best = im->cum[comp];
	}
	return best;
}

static uint32_t *xrace_clock_new(const struct asc_xrace *x)
{
	return calloc(x->width, sizeof(uint32_t));
}

static int xrace_count_order(const void *pa, const void *pb)
{
	const struct xrace_count *a = *(const struct xrace_count *const *)pa;
	const struct xrace_count *b = *(const struct xrace_count *const *)pb;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->mode - b->mode;
}

/* The j-th set of (@mode, @flag) that core @c ran, or NULL. */
static struct xrace_set *xrace_nth_set(struct xrace_core *c, int mode, int flag,
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
static int xrace_make_counts(struct asc_xrace *x)
{
	unsigned int seen[XRACE_MODES][XRACE_FLAGS];
	struct xrace_count *cnt, **slot;
	struct xrace_core *c, *t;
	struct xrace_set *s;
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
			s->g = xrace_clock_new(x);
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
			cnt = asc_xrace_grow(&x->counts, &n, &cap, sizeof(*cnt));
			if (!cnt)
				return -1;
			*cnt = (struct xrace_count){
				.round = s->round, .mode = s->mode,
				.nmembers = s->group.last - s->group.first + 1,
			};
			cnt->members = calloc(cnt->nmembers, sizeof(*cnt->members));
			cnt->g = xrace_clock_new(x);
			x->ncounts = ++n;
			if (!cnt->members || !cnt->g)
				return -1;
			for (m = 0; m < cnt->nmembers; m++) {
				cnt->members[m] = xrace_nth_set(&x->cores[core + m],
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
		for (m = 0; m < XRACE_FLAGS; m++)
			if (x->cores[core].ncounts[m])
				qsort(x->cores[core].counts[m],
				      x->cores[core].ncounts[m],
				      sizeof(struct xrace_count *), xrace_count_order);
	return 0;
}

/*
 * The @n-th set (from 1) that ran of the counter at @gm: by core, then in
 * the core's order (a counter has one writer in a sound protocol).
 */
static const struct xrace_set *xrace_nth_gm_set(const struct asc_xrace *x,
					    const void *gm, uint32_t n)
{
	const struct xrace_core *c;
	size_t i;

	for (c = x->cores; c < x->cores + x->ncores; c++)
		for (i = 0; i < c->n_sets; i++)
			if (c->sets[i].ran && c->sets[i].gm == gm && !--n)
				return &c->sets[i];
	return NULL;
}

static int xrace_import_order(const void *pa, const void *pb)
{
	const struct xrace_import *a = pa, *b = pb;

	if (a->lane != b->lane)
		return a->lane - b->lane;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * The SyncAll rounds of each kind every core of its group reached (every
 * core; the AIVs of a mix launch), and their clocks.
 */
static int xrace_make_rounds(struct asc_xrace *x)
{
	size_t r, n[2] = { SIZE_MAX, SIZE_MAX }, seen[2];
	unsigned int core, aiv0 = x->kind == ASC_LAUNCH_MIX ? x->block_dim : x->ncores;
	struct xrace_sync *s;
	int k;

	for (core = 0; core < x->ncores; core++) {
		seen[0] = seen[1] = 0;
		for (r = 0; r < x->cores[core].n_syncs; r++) {
			s = &x->cores[core].syncs[r];
			s->round = seen[s->aiv]++;
			s->g = xrace_clock_new(x);
			if (!s->g)
				return -1;
		}
		for (k = 0; k < 2; k++)
			if ((k == 0 || core >= aiv0) && seen[k] < n[k])
				n[k] = seen[k];
	}
	for (k = 0; k < 2; k++) {
		if (n[k] == SIZE_MAX)
			n[k] = 0;
		x->rounds[k] = calloc(n[k] + 1, sizeof(*x->rounds[k]));
		if (!x->rounds[k])
			return -1;
		for (r = 0; r < n[k]; r++) {
			x->rounds[k][r] = xrace_clock_new(x);
			if (!x->rounds[k][r])
				return -1;
			x->nrounds[k] = r + 1;
		}
	}
	return 0;
}

/* The imports of core @c, by lane and position. */
static int xrace_make_imports(struct asc_xrace *x, struct xrace_core *c)
{
	unsigned int taken[XRACE_FLAGS] = { 0 };
	struct xrace_import *im;
	const struct xrace_wait *w;
	const struct xrace_set *s;
	size_t i, k;

	c->imports = calloc(c->n_waits + c->n_syncs + 1, sizeof(*c->imports));
	if (!c->imports)
		return -1;
	for (i = 0; i < c->n_waits; i++) {
		w = &c->waits[i];
		if (w->gm) {
			s = xrace_nth_gm_set(x, w->gm, w->count);
			if (s)
				c->imports[c->nimports++] = (struct xrace_import){
					.lane = w->lane, .pos = w->pos, .src = s->g };
			continue;
		}
		k = taken[w->flag]++;
		if (k >= c->ncounts[w->flag])
			continue;	/* never ended: a deadlock of its own */
		c->imports[c->nimports++] = (struct xrace_import){
			.lane = w->lane, .pos = w->pos,
			.src = c->counts[w->flag][k]->g };
	}
	for (i = 0; i < c->n_syncs; i++)
		if (c->syncs[i].round < x->nrounds[c->syncs[i].aiv])
			c->imports[c->nimports++] = (struct xrace_import){
				.lane = ASC_RACE_ISSUE, .pos = c->syncs[i].pos,
				.src = x->rounds[c->syncs[i].aiv][c->syncs[i].round] };
	qsort(c->imports, c->nimports, sizeof(*c->imports), xrace_import_order);
	for (i = 0, k = 0; k <= XRACE_C; k++) {
		while (i < c->nimports && c->imports[i].lane < (int)k)
			i++;
		c->lane_first[k] = i;
	}
	for (i = 0; i < c->nimports; i++) {
		im = &c->imports[i];
		im->cum = xrace_clock_new(x);
		if (!im->cum)
			return -1;
	}
	return 0;
}

/* One round of joins.  Return: whether a clock changed. */
static bool xrace_propagate(struct asc_xrace *x)
{
	struct xrace_core *c;
	struct xrace_count *cnt;
	bool changed = false;
	unsigned int core, m;
	size_t i;

	for (i = 0; i < x->ncounts; i++) {
		cnt = &x->counts[i];
		for (m = 0; m < cnt->nmembers; m++)
			xrace_join(cnt->g, cnt->members[m]->g, x->width);
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_syncs; i++)
			if (c->syncs[i].round < x->nrounds[c->syncs[i].aiv])
				xrace_join(x->rounds[c->syncs[i].aiv][c->syncs[i].round],
					 c->syncs[i].g, x->width);
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->nimports; i++) {
			if (i > 0 && c->imports[i - 1].lane == c->imports[i].lane)
				xrace_join(c->imports[i].cum, c->imports[i - 1].cum,
					 x->width);
			xrace_join(c->imports[i].cum, c->imports[i].src, x->width);
		}
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_sets; i++)
			if (c->sets[i].ran &&
			    xrace_knows(x, core, c->items[c->sets[i].item].clock,
				      c->sets[i].g))
				changed = true;
		for (i = 0; i < c->n_syncs; i++)
			if (xrace_knows(x, core, c->syncs[i].clock, c->syncs[i].g))
				changed = true;
	}
	return changed;
}

/* The lowest byte any core accessed under @name outside global buffers. */
static uintptr_t xrace_name_lo(const struct asc_xrace *x, const char *name)
{
	const struct xrace_acc *a;
	uintptr_t lo = UINTPTR_MAX;
	unsigned int core;
	size_t i;

	for (core = 0; core < x->ncores; core++) {
		for (i = 0; i < x->cores[core].n_accs; i++) {
			a = &x->cores[core].accs[i];
			if (!a->in_gm && a->name && !strcmp(a->name, name) &&
			    a->range.lo < lo)
				lo = a->range.lo;
		}
	}
	return lo;
}

/*
 * "name" at "buffer" [256+64] in a buffer of global memory the kernel
 * declared; "name" [128+64] by the offset from the lowest byte any core
 * accessed under its name; [0x1000+64] for an access with neither.
 */
static void xrace_range(const struct asc_xrace *x, char *buf, size_t len,
			const struct xrace_acc *a)
{
	unsigned long lo = a->range.lo, size = a->range.hi - a->range.lo;

	if (a->in_gm && a->name && strcmp(a->name, a->in))
		snprintf(buf, len, "\"%s\" at \"%s\" [%lu+%lu]", a->name, a->in,
			 (unsigned long)(lo - a->base), size);
	else if (a->in_gm)
		snprintf(buf, len, "\"%s\" [%lu+%lu]", a->in,
			 (unsigned long)(lo - a->base), size);
	else if (a->name)
		snprintf(buf, len, "\"%s\" [%lu+%lu]", a->name,
			 (unsigned long)(lo - xrace_name_lo(x, a->name)), size);
	else
		snprintf(buf, len, "[%#lx+%lu]", lo, size);
}

static const char *xrace_lane_name(int lane)
{
	static const int pipe[XRACE_C] = {
		ASC_PIPE_S, ASC_PIPE_V, ASC_PIPE_M, ASC_PIPE_MTE1,
		ASC_PIPE_MTE2, ASC_PIPE_MTE3, ASC_PIPE_FIX, ASC_PIPE_S,
	};

	return asc_pipe_id_name(pipe[lane]);
}

/* "#5 DataCopy(...) at k.c:40": an item, with its call site if any. */
static void xrace_ref(char *buf, size_t len, const struct xrace_item *it)
{
	if (it->site.file)
		snprintf(buf, len, "#%lu %s at %s:%d", it->seq, it->what,
			 it->site.file, it->site.line);
	else
		snprintf(buf, len, "#%lu %s", it->seq, it->what);
}

static const struct xrace_item *xrace_item_of(const struct asc_xrace *x,
					      const struct xrace_acc *a)
{
	return &x->cores[a->core].items[a->item];
}

/*
 * The races of one pair of source lines (and pipes): the first one found,
 * how many more, and the cores and iterations of them all.
 */
struct xrace_group {
	const struct xrace_acc *a;
	const struct xrace_acc *b;
	unsigned int more;
	struct asc_number_set cores;
	struct asc_number_set iters;
};

struct xrace_groups {
	struct xrace_group *v;
	size_t n_v;
	size_t cap_v;
};

/* Accesses @p and @q are of the same pipe and source line (or item). */
static bool xrace_same_line(const struct asc_xrace *x, const struct xrace_acc *p,
			    const struct xrace_acc *q)
{
	const struct xrace_item *ip = xrace_item_of(x, p), *iq = xrace_item_of(x, q);

	if (p->lane != q->lane)
		return false;
	if (!ip->site.file || !iq->site.file)
		return p->core == q->core && p->item == q->item;
	return ip->site.line == iq->site.line && !strcmp(ip->site.file, iq->site.file);
}

static int xrace_group_note(const struct asc_xrace *x, struct xrace_group *g,
			    const struct xrace_acc *a, const struct xrace_acc *b)
{
	unsigned int ia = xrace_item_of(x, a)->iter, ib = xrace_item_of(x, b)->iter;

	if (asc_number_set_add(&g->cores, a->core) ||
	    asc_number_set_add(&g->cores, b->core) ||
	    (ia && asc_number_set_add(&g->iters, ia)) ||
	    (ib && asc_number_set_add(&g->iters, ib)))
		return -1;
	return 0;
}

/* The race of @a and @b joins its group, or starts one.  Return: 0 or -1. */
static int xrace_group_add(const struct asc_xrace *x, struct xrace_groups *gs,
			   const struct xrace_acc *a, const struct xrace_acc *b)
{
	struct xrace_group *g;
	size_t i;

	for (i = 0; i < gs->n_v; i++) {
		g = &gs->v[i];
		if (xrace_same_line(x, g->a, a) && xrace_same_line(x, g->b, b)) {
			g->more++;
			return xrace_group_note(x, g, a, b);
		}
	}
	g = asc_xrace_grow(&gs->v, &gs->n_v, &gs->cap_v, sizeof(*gs->v));
	if (!g)
		return -1;
	*g = (struct xrace_group){ .a = a, .b = b };
	gs->n_v++;
	return xrace_group_note(x, g, a, b);
}

static void xrace_groups_free(struct xrace_groups *gs)
{
	size_t i;

	for (i = 0; i < gs->n_v; i++) {
		asc_number_set_free(&gs->v[i].cores);
		asc_number_set_free(&gs->v[i].iters);
	}
	free(gs->v);
}

static void xrace_report_race(const struct asc_xrace *x,
			      const struct xrace_group *g, struct asc_report *out)
{
	const struct xrace_acc *a = g->a, *b = g->b;
	char first[160], second[160], ra[160], rb[160], more[320];
	char cores[128], iters[128];

	xrace_range(x, first, sizeof(first), a);
	if (a->range.lo == b->range.lo && a->range.hi == b->range.hi &&
	    (a->name == b->name || (a->name && b->name &&
				    !strcmp(a->name, b->name))))
		snprintf(second, sizeof(second), "it");
	else
		xrace_range(x, second, sizeof(second), b);
	xrace_ref(ra, sizeof(ra), xrace_item_of(x, a));
	xrace_ref(rb, sizeof(rb), xrace_item_of(x, b));
	more[0] = '\0';
	if (g->more) {
		asc_number_set_print(&g->cores, cores, sizeof(cores));
		asc_number_set_print(&g->iters, iters, sizeof(iters));
		snprintf(more, sizeof(more), ", and %u more like it (cores %s%s%s)",
			 g->more, cores, g->iters.n ? ", iterations " : "",
			 g->iters.n ? iters : "");
	}
	asc_report_add(out,
		       "missing sync: %s %s %s %s (%s) and %s %s %s %s (%s): no cross-core set/wait or SyncAll orders them%s",
		       x->cores[a->core].name, xrace_lane_name(a->lane),
		       a->write ? "writes" : "reads", first, ra,
		       x->cores[b->core].name, xrace_lane_name(b->lane),
		       b->write ? "writes" : "reads", second, rb, more);
}

/* Does access @a happen before access @b (of another core)? */
static bool xrace_before(const struct asc_xrace *x, const struct xrace_acc *a,
		       const struct xrace_acc *b)
{
	const struct xrace_item *ia = &x->cores[a->core].items[a->item];
	const struct xrace_item *ib = &x->cores[b->core].items[b->item];
	size_t comp = (size_t)a->core * XRACE_C + a->lane;

	return ia->pos <= xrace_knows_of(x, b->core, ib->clock, comp);
}

/* Cores' bytes: the union of each core's accesses, in one index. */
struct xrace_owner {
	struct asc_range range;
	unsigned int core;
};

static int xrace_acc_by_lo(const void *pa, const void *pb)
{
	const struct xrace_acc *a = *(const struct xrace_acc *const *)pa;
	const struct xrace_acc *b = *(const struct xrace_acc *const *)pb;

	return a->range.lo < b->range.lo ? -1 : a->range.lo > b->range.lo;
}

static void xrace_owner_free(struct asc_range *r)
{
	free(r);
}

static int xrace_add_owners(struct asc_xrace *x, unsigned int core,
			  struct asc_ranges *owners)
{
	struct xrace_core *c = &x->cores[core];
	struct xrace_owner *o = NULL;
	struct xrace_acc **v;
	size_t i;

	if (!c->n_accs)
		return 0;
	v = malloc(c->n_accs * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < c->n_accs; i++)
		v[i] = &c->accs[i];
	qsort(v, c->n_accs, sizeof(*v), xrace_acc_by_lo);
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
static int xrace_shared(const struct asc_ranges *owners, unsigned int core,
		      const struct asc_range *r, struct asc_range_list *found)
{
	size_t i;

	if (asc_ranges_overlap(owners, r->lo, r->hi, found))
		return -1;
	for (i = 0; i < found->len; i++)
		if (((struct xrace_owner *)found->v[i])->core != core)
			return 1;
	return 0;
}

/* Every write to shared bytes against the accesses of other cores there. */
static int xrace_races(struct asc_xrace *x, struct asc_report *out)
{
	struct asc_ranges owners = { 0 }, all = { 0 };
	struct asc_range_list found = { 0 };
	struct xrace_groups groups = { 0 };
	const struct xrace_acc *a, *b;
	struct xrace_core *c;
	unsigned int core;
	size_t i, j;
	int ret = -1, shared, races = 0;

	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_accs; i++) {
			c->accs[i].core = core;
			asc_ranges_insert(&all, &c->accs[i].range);
		}
		if (xrace_add_owners(x, core, &owners))
			goto out;
	}
	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		for (i = 0; i < c->n_accs; i++) {
			a = &c->accs[i];
			if (!a->write)
				continue;
			shared = xrace_shared(&owners, core, &a->range, &found);
			if (shared < 0)
				goto out;
			if (!shared)
				continue;
			if (asc_ranges_overlap(&all, a->range.lo, a->range.hi,
					       &found))
				goto out;
			for (j = 0; j < found.len; j++) {
				b = (const struct xrace_acc *)found.v[j];
				/* Two writes: reported from the first core's. */
				if (b->core == core || (b->write && b->core < core))
					continue;
				if (xrace_before(x, a, b) || xrace_before(x, b, a))
					continue;
				if (xrace_group_add(x, &groups, a, b))
					goto out;
				races++;
			}
		}
	}
	for (i = 0; i < groups.n_v; i++)
		xrace_report_race(x, &groups.v[i], out);
	ret = races;
out:
	xrace_groups_free(&groups);
	/* The accesses stay the cores'; only the index goes. */
	all.root = NULL;
	asc_ranges_clear(&owners, xrace_owner_free);
	free(found.v);
	return ret;
}

/* Counts no wait took: a line each.  Return: how many. */
static int xrace_leftovers(struct asc_xrace *x, struct asc_report *out)
{
	const struct xrace_count *cnt;
	const struct xrace_item *it;
	const struct xrace_set *s;
	const struct xrace_core *c;
	unsigned int core, taken[XRACE_FLAGS];
	char at[160];
	size_t i, k;
	int f, n = 0;

	for (core = 0; core < x->ncores; core++) {
		c = &x->cores[core];
		memset(taken, 0, sizeof(taken));
		for (i = 0; i < c->n_waits; i++)
			if (!c->waits[i].gm)
				taken[c->waits[i].flag]++;
		for (f = 0; f < XRACE_FLAGS; f++) {
			for (k = taken[f]; k < c->ncounts[f]; k++) {
				cnt = c->counts[f][k];
				s = cnt->members[cnt->nmembers - 1];
				it = &x->cores[s->group.last].items[s->item];
				at[0] = '\0';
				if (it->site.file)
					snprintf(at, sizeof(at), " at %s:%d",
						 it->site.file, it->site.line);
				asc_report_add(out,
					       "missing wait: cross-core flag %d of %s counts a set of %s (#%lu %s%s, mode %d) that no wait takes by the end of the launch",
					       f, c->name,
					       x->cores[s->group.last].name,
					       s->seq, xrace_lane_name(it->lane), at,
					       s->mode);
				n++;
			}
		}
	}
	return n;
}

int asc_xrace_check(struct asc_xrace *x, struct asc_report *out)
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
	if (xrace_make_counts(x) || xrace_make_rounds(x))
		goto nomem;
	for (core = 0; core < x->ncores; core++)
		if (xrace_make_imports(x, &x->cores[core]))
			goto nomem;
	while (xrace_propagate(x))
		;
	races = xrace_races(x, out);
	if (races < 0)
		goto nomem;
	left = xrace_leftovers(x, out);
	if (races || left) {
		errno = ENOLCK;
		return -1;
	}
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}
