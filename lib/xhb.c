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
 *   and joins the clocks of every core's SyncAll of the same round; the
 *   AIVs' SyncAll of a mix launch those of every AIV's, its rounds
 *   counted apart.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xhb_model.h"

/* Make room for one more in a growing array; NULL when out of memory. */
void *asc_xhb_grow(void *pv, size_t *n, size_t *cap, size_t size)
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
	int k;

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
	for (k = 0; k < 2; k++) {
		for (i = 0; i < x->nrounds[k]; i++)
			free(x->rounds[k][i]);
		free(x->rounds[k]);
	}
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

int asc_xhb_sync_all(struct asc_xhb *x, unsigned int core, int aiv,
		     const struct asc_hb *hb, unsigned long seq)
{
	struct xhb_core *c = &x->cores[core];
	struct xhb_sync *s = XHB_PUSH(c, syncs);

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xhb_sync){ .aiv = !!aiv, .pos = asc_hb_done(hb, ASC_PIPE_S),
				.seq = seq };
	asc_hb_clock(hb, ASC_PIPE_S, s->clock);
	c->n_syncs++;
	return 0;
}
