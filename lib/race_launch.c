// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cross-core missing-sync detector: happens-before between the cores
 * of a launch, from the issue order alone, so that it finds the same
 * things on every run whatever the threads do.
 *
 * Each core's detector (race.c) gives every instruction a vector clock over
 * the core's lanes (and ASC_RACE_ISSUE, what its scalar had done), from the
 * core's issue order alone.  This file extends those clocks to vector
 * clocks over (core, lane) of the whole launch: what an instruction knows
 * of another core comes only through cross-core waits and SyncAll, and
 * an instruction is after a cross-core wait of its core when its local
 * clock has the wait's position on the wait's lane (ASC_RACE_ISSUE for a
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
 * - The software sync over a workspace (workspace_sync.c: IBSet, IBWait, SyncAll
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

#include "race_launch_model.h"

/* Make room for one more in a growing array; NULL when out of memory. */
void *asc_xrace_grow(void *pv, size_t *n, size_t *cap, size_t size)
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

int asc_xrace_set_group(int kind, unsigned int block_dim, unsigned int core,
		      int mode, struct asc_xrace_range *group,
		      struct asc_xrace_range *targets)
{
	bool mix = kind == ASC_LAUNCH_MIX;
	bool aic = mix && core < block_dim;
	unsigned int ncores = mix ? 3 * block_dim : block_dim;
	unsigned int ai = aic || !mix ? core : (core - block_dim) / 2;
	struct asc_xrace_range pair = { block_dim + 2 * ai, block_dim + 2 * ai + 1 };

	if (core >= ncores || mode < 0 || mode >= XRACE_MODES ||
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
		*group = (struct asc_xrace_range){ ai, ai };
		*targets = pair;
	} else {
		*group = pair;
		*targets = (struct asc_xrace_range){ ai, ai };
	}
	return 0;
}

struct asc_xrace *asc_xrace_new(int kind, unsigned int block_dim)
{
	struct asc_xrace *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->kind = kind;
	x->block_dim = block_dim;
	x->ncores = kind == ASC_LAUNCH_MIX ? 3 * block_dim : block_dim;
	x->width = (size_t)x->ncores * XRACE_C;
	x->cores = calloc(x->ncores, sizeof(*x->cores));
	if (!x->cores) {
		free(x);
		return NULL;
	}
	return x;
}

void asc_xrace_free(struct asc_xrace *x)
{
	struct xrace_core *c;
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
		for (f = 0; f < XRACE_FLAGS; f++)
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
static long xrace_item(struct xrace_core *c, const struct asc_race_ran *r)
{
	struct xrace_item *it = XRACE_PUSH(c, items);

	if (!it)
		goto nomem;
	*it = (struct xrace_item){ .lane = r->lane, .pos = r->pos, .seq = r->seq,
				 .what = strdup(r->what ? r->what : "work"),
				 .site = r->site, .iter = r->iter };
	if (!it->what)
		goto nomem;
	memcpy(it->clock, r->clock, sizeof(it->clock));
	return c->n_items++;
nomem:
	c->err = ENOMEM;
	return -1;
}

/* The tap of a core's race: keep its accesses and its sets' clocks. */
static void xrace_ran(void *ctx, const struct asc_race_ran *r)
{
	struct xrace_core *c = ctx;
	struct xrace_acc *a;
	long item = xrace_item(c, r);
	unsigned int i;

	if (item < 0)
		return;
	if (r->mark && r->mark <= c->n_sets) {
		c->sets[r->mark - 1].ran = true;
		c->sets[r->mark - 1].item = item;
	}
	for (i = 0; i < r->nacc; i++) {
		a = XRACE_PUSH(c, accs);
		if (!a) {
			c->err = ENOMEM;
			return;
		}
		*a = (struct xrace_acc){
			.range = { .lo = r->acc[i].lo, .hi = r->acc[i].hi },
			.item = item, .write = r->acc[i].write,
			.in_gm = r->acc[i].in_gm, .base = r->acc[i].base,
			.in = r->acc[i].in,
			/* A load of the scalar is done; its store is posted. */
			.lane = r->lane == ASC_RACE_S && !r->acc[i].write ?
				ASC_RACE_ISSUE : r->lane,
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

void asc_xrace_attach(struct asc_xrace *x, unsigned int core, struct asc_race *race,
		    const char *name)
{
	struct xrace_core *c = &x->cores[core];

	snprintf(c->name, sizeof(c->name), "%s", name);
	asc_race_tap(race, xrace_ran, c);
}

long asc_xrace_cross_set(struct asc_xrace *x, unsigned int core, int flag_id,
		       int mode, unsigned long seq)
{
	struct xrace_core *c = &x->cores[core];
	struct asc_xrace_range group, targets;
	struct xrace_set *s;

	if (flag_id < 0 || flag_id >= XRACE_FLAGS ||
	    asc_xrace_set_group(x->kind, x->block_dim, core, mode, &group,
			      &targets))
		return asc_einval();
	s = XRACE_PUSH(c, sets);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xrace_set){ .flag = flag_id, .mode = mode, .group = group,
			       .targets = targets, .seq = seq };
	return ++c->n_sets;
}

int asc_xrace_cross_wait(struct asc_xrace *x, unsigned int core, int flag_id,
		       int pipe_id, uint32_t pos, unsigned long seq)
{
	struct xrace_core *c = &x->cores[core];
	int lane = asc_race_lane(pipe_id);
	struct xrace_wait *w;

	if (flag_id < 0 || flag_id >= XRACE_FLAGS || lane < 0)
		return asc_einval();
	w = XRACE_PUSH(c, waits);
	if (!w) {
		errno = ENOMEM;
		return -1;
	}
	*w = (struct xrace_wait){ .flag = flag_id,
				.lane = lane == ASC_RACE_S ? ASC_RACE_ISSUE : lane,
				.pos = pos, .seq = seq };
	c->n_waits++;
	return 0;
}

long asc_xrace_gm_set(struct asc_xrace *x, unsigned int core, const void *gm,
		    unsigned long seq)
{
	struct xrace_core *c = &x->cores[core];
	struct xrace_set *s = XRACE_PUSH(c, sets);

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xrace_set){ .gm = gm, .flag = -1, .seq = seq };
	return ++c->n_sets;
}

int asc_xrace_gm_wait(struct asc_xrace *x, unsigned int core, const void *gm,
		    uint32_t count, int pipe_id, uint32_t pos,
		    unsigned long seq)
{
	struct xrace_core *c = &x->cores[core];
	int lane = asc_race_lane(pipe_id);
	struct xrace_wait *w;

	if (!gm || !count || lane < 0)
		return asc_einval();
	w = XRACE_PUSH(c, waits);
	if (!w) {
		errno = ENOMEM;
		return -1;
	}
	*w = (struct xrace_wait){ .gm = gm, .count = count, .flag = -1,
				.lane = lane == ASC_RACE_S ? ASC_RACE_ISSUE : lane,
				.pos = pos, .seq = seq };
	c->n_waits++;
	return 0;
}

int asc_xrace_sync_all(struct asc_xrace *x, unsigned int core, int aiv,
		     const struct asc_race *race, unsigned long seq)
{
	struct xrace_core *c = &x->cores[core];
	struct xrace_sync *s = XRACE_PUSH(c, syncs);

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*s = (struct xrace_sync){ .aiv = !!aiv, .pos = asc_race_done(race, ASC_PIPE_S),
				.seq = seq };
	asc_race_clock(race, ASC_PIPE_S, s->clock);
	c->n_syncs++;
	return 0;
}
