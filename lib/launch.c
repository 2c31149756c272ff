// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_launch: one kernel on block_dim emulated cores, joined to one
 * launch of the driver (ASC_EVENT_IOC_LAUNCH), and what the cores of a
 * launch do together: cross-core flags, SyncAll, and who they are.
 *
 * Each core is a struct asc_core of the core runtime (core.c) with a
 * scalar thread of its own; the cores of a launch share one lock, the
 * launch's, so that one look at every core's state is consistent.
 *
 * Deadlock detection.  The driver finds cycles of threads blocked in the
 * driver, but an idle pipe thread of the runtime waits for its scalar, not
 * in the driver, so the driver must count it as able to act.  The runtime
 * knows better: every thread of a launch is, under the lock, either
 * running, or idle (a pipe with nothing queued), or blocked in a wait
 * whose end the runtime can tell from what has run, because the runtime
 * counts, as it happens and under the lock, the sets and waits of each
 * flag of each core (struct asc_core @flag_sets, @flag_waits), a mirror of
 * the driver's cross-core counters and pending issues (@cross_count,
 * @cross_issued), and the cores that reached each SyncAll (of every core,
 * or in a mix launch of the AIVs only, asc_core_sync_all_aiv(): the two
 * are counted apart, as the driver counts them).  Whoever ends
 * a wait updates the mirror before it goes on, so a woken thread that has
 * not yet run is never taken for a blocked one.  When a thread blocks or a
 * pipe goes idle or a core leaves, asc_launch_check() looks: when no
 * thread of any core can act, nothing ever will, and the launch fails
 * with EDEADLK and a report of what each blocked thread waits for.
 *
 * Errors.  The error of the lowest-numbered core that fails is the
 * launch's: when a core fails, the cores numbered above it get ECANCELED
 * and those below run on until each has left or can no longer act (a
 * lower one failing takes its place), so that which core a report names
 * does not depend on which thread got there first.  The mirror can be
 * wrong about a wait a reset raced with; so when every thread of the cores
 * below has been blocked or idle for LAUNCH_QUIET_TICKS ticks and no wait
 * of the launch ended meanwhile, they can no longer act either.  Then
 * every other core gets ECANCELED, and the launching thread resets the
 * TPipes of the cancelled cores still there every LAUNCH_TICK_NS until
 * they have ended, which ends any wait they are in or enter later,
 * cross-core and SyncAll included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "memcheck.h"
#include "race.h"
#include "race_launch.h"

#define LAUNCH_MODES		3
#define LAUNCH_TICK_NS		(100 * 1000 * 1000L)
#define LAUNCH_QUIET_TICKS	10

/*
 * struct asc_launch - one launch.
 * @lock: the lock of every core of the launch.
 * @cond: the cores wait here for @go; the launching thread for them.
 * @kind: ASC_LAUNCH_*.
 * @block_dim: AI cores.
 * @ncores: cores: @block_dim, or 3 * @block_dim for a mix launch.
 * @fd: the driver's launch.
 * @kernel: what each core runs, with @arg.
 * @arg: see @kernel.
 * @attr: the attributes of each core.
 * @cores: the cores, numbered as the driver numbers them.
 * @joined: cores whose setup is over.
 * @running: core threads not yet ended.
 * @go: every core has joined: run the kernel.
 * @err: the launch's error (an errno), 0 while there is none.
 * @report: its report.
 * @pending: a core failed after @go, and the cores numbered below it still
 *	run: @first_core is the lowest-numbered core that failed so far,
 *	@first_err its error and @first_report its report; the cores from
 *	@first_core up are cancelled.  Once every core below it has left or
 *	can no longer act, its error is the launch's (launch_settle_locked()),
 *	so that the report names the lowest-numbered core with a finding,
 *	whichever thread got there first.
 * @sync_arrived: cores in the current round of SyncAll: of every core
 *	([0]), of the AIVs only ([1], mix launches).
 * @sync_round: SyncAll rounds completed, as @sync_arrived.
 * @sync_arrived_aivs: the AIVs among @sync_arrived[0] (mix launches).
 * @waits_ended: waits in the driver of any core that have ended.
 * @quiet: ticks for which every thread of the cores below @first_core
 *	has been blocked or idle with @waits_ended at @quiet_mark.
 * @quiet_mark: see @quiet.
 * @cross_sets: cross-core sets between their call to the driver and their
 *	count in the mirror; no TPipe is reset meanwhile (the next tick does
 *	it), so that a reset never falls between the two.
 * @xrace: the cross-core missing-sync detector; NULL unchecked.
 */
struct asc_launch {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int kind;
	unsigned int block_dim;
	unsigned int ncores;
	int fd;
	asc_kernel_fn kernel;
	void *arg;
	const struct asc_core_attr *attr;
	struct asc_core **cores;
	unsigned int joined;
	unsigned int running;
	bool go;
	int err;
	char *report;
	bool pending;
	unsigned int first_core;
	int first_err;
	char *first_report;
	unsigned int sync_arrived[2];
	unsigned long sync_round[2];
	unsigned int sync_arrived_aivs;
	unsigned long waits_ended;
	unsigned int quiet;
	unsigned long quiet_mark;
	unsigned int cross_sets;
	struct asc_xrace *xrace;
};

/* Cores @first..@last of a launch that issue a set, or get one. */
struct launch_range {
	unsigned int first;
	unsigned int last;
	int mode;
};

static const char *launch_type_name(const struct asc_core *c)
{
	return c->type == ASC_CORE_AIC ? "AIC" : "AIV";
}

/* The AI core of @c: its number among the AICs, or its AIVs' pair. */
static unsigned int launch_ai_core(const struct asc_launch *l,
				   const struct asc_core *c)
{
	if (l->kind != ASC_LAUNCH_MIX || c->type == ASC_CORE_AIC)
		return c->index;
	return (c->index - l->block_dim) / 2;
}

static struct launch_range launch_pair(const struct asc_launch *l,
				       unsigned int ai, int mode)
{
	struct launch_range r = { l->block_dim + 2 * ai,
				  l->block_dim + 2 * ai + 1, mode };

	return r;
}

static struct launch_range launch_same_type(const struct asc_launch *l,
					    const struct asc_core *c)
{
	struct launch_range r = { 0, l->ncores - 1, 0 };

	if (l->kind == ASC_LAUNCH_MIX && c->type == ASC_CORE_AIC)
		r.last = l->block_dim - 1;
	else if (l->kind == ASC_LAUNCH_MIX)
		r.first = l->block_dim;
	return r;
}

/*
 * The group that must issue a set @c issues in @mode, and its targets
 * (the mode is one @c has: launch_set_refused() said so).
 */
static void launch_set_group(const struct asc_launch *l,
			     const struct asc_core *c, int mode,
			     struct launch_range *group,
			     struct launch_range *targets)
{
	struct asc_xrace_range g = { 0, 0 }, t = { 0, 0 };

	asc_xrace_set_group(l->kind, l->block_dim, c->index, mode, &g, &t);
	*group = (struct launch_range){ g.first, g.last, mode };
	*targets = (struct launch_range){ t.first, t.last, mode };
}

/* The groups whose sets count on @c; returns how many (at most 3). */
static unsigned int launch_wait_groups(const struct asc_launch *l,
				       const struct asc_core *c,
				       struct launch_range *g)
{
	unsigned int ai = launch_ai_core(l, c), n = 0;
	struct launch_range aic = { ai, ai, 2 };

	g[n++] = launch_same_type(l, c);
	if (l->kind != ASC_LAUNCH_MIX)
		return n;
	if (c->type == ASC_CORE_AIC) {
		g[n++] = launch_pair(l, ai, 2);
	} else {
		g[n++] = launch_pair(l, ai, 1);
		g[n++] = aic;
	}
	return n;
}

/* @c issued a set that the driver took: count it as the driver does. */
static void launch_cross_issued(struct asc_launch *l, struct asc_core *c,
				int mode, int flag)
{
	struct launch_range group, targets;
	unsigned int i;

	launch_set_group(l, c, mode, &group, &targets);
	c->cross_issued[mode][flag]++;
	for (i = group.first; i <= group.last; i++)
		if (l->cores[i]->cross_issued[mode][flag] < 1)
			return;
	for (i = group.first; i <= group.last; i++)
		l->cores[i]->cross_issued[mode][flag]--;
	for (i = targets.first; i <= targets.last; i++)
		l->cores[i]->cross_count[flag]++;
}

static bool launch_flag_stuck(const struct asc_core *c, int event, int id)
{
	unsigned int i = event * ASC_EVENT_IDS_MAX + id;

	if (asc_hard_event_src_pipe(event) == asc_hard_event_dst_pipe(event))
		return false;
	return c->flag_sets[i] <= c->flag_waits[i];
}

/*
 * A cross-core wait of @c for @flag stays blocked while no set counted,
 * unless every group that could count on @c lacks a member that left
 * without issuing it: then the driver ends it with EPIPE.
 */
static bool launch_cross_stuck(const struct asc_launch *l,
			       const struct asc_core *c, int flag)
{
	struct launch_range g[LAUNCH_MODES];
	unsigned int n, i, m;
	bool possible;

	if (c->cross_count[flag] > 0)
		return false;
	n = launch_wait_groups(l, c, g);
	for (i = 0; i < n; i++) {
		possible = true;
		for (m = g[i].first; m <= g[i].last; m++)
			if (l->cores[m]->gone &&
			    !l->cores[m]->cross_issued[g[i].mode][flag])
				possible = false;
		if (possible)
			return true;
	}
	return false;
}

/* The cores SyncAll waits for: every core, or (@aiv) the AIVs of a mix launch. */
static struct launch_range launch_sync_group(const struct asc_launch *l, int aiv)
{
	struct launch_range r = { aiv ? l->block_dim : 0, l->ncores - 1, 0 };

	return r;
}

static bool launch_sync_group_gone(const struct asc_launch *l, int aiv)
{
	struct launch_range g = launch_sync_group(l, aiv);
	unsigned int i;

	for (i = g.first; i <= g.last; i++)
		if (l->cores[i]->gone)
			return true;
	return false;
}

static bool launch_wait_stuck(const struct asc_launch *l,
			      const struct asc_core *c, enum core_block block,
			      int event, unsigned long id)
{
	switch (block) {
	case CORE_BLOCK_FLAG:
		return launch_flag_stuck(c, event, id);
	case CORE_BLOCK_CROSS:
		return launch_cross_stuck(l, c, event);
	case CORE_BLOCK_SYNC:
		return !launch_sync_group_gone(l, event) &&
		       l->sync_round[event] == id;
	case CORE_BLOCK_QSET:
		return c->flag_waits[event * ASC_EVENT_IDS_MAX + id] <
		       c->flag_sets[event * ASC_EVENT_IDS_MAX + id];
	default:
		return false;
	}
}

static bool launch_lane_idle(const struct core_lane *ln)
{
	return !ln->busy && !ln->qlen;
}

static bool launch_lane_stuck(const struct asc_launch *l,
			      const struct asc_core *c,
			      const struct core_lane *ln)
{
	if (ln->block == CORE_BLOCK_GM)
		return ln->busy && asc_wsync_stuck(ln);
	return ln->busy && launch_wait_stuck(l, c, ln->block, ln->block_event,
					     ln->block_id);
}

static bool launch_scalar_stuck(const struct asc_launch *l,
				const struct asc_core *c)
{
	const struct core_lane *ln;
	bool any = false;
	int i;

	if (!c->waiting)
		return launch_wait_stuck(l, c, c->block, c->block_event,
					 c->block_id);
	if (c->wait_lane >= 0) {
		ln = &c->lane[c->wait_lane];
		if (ln->qlen + ln->busy <= c->wait_items &&
		    ln->tk_count <= c->wait_tickets)
			return false;
		return launch_lane_stuck(l, c, ln);
	}
	for (i = 1; i < CORE_LANES; i++) {
		if (launch_lane_idle(&c->lane[i]))
			continue;
		if (!launch_lane_stuck(l, c, &c->lane[i]))
			return false;
		any = true;
	}
	return any;
}

/* "core 3 (AIV 1)": @c's number in the launch, type and block index. */
static void launch_core_name(const struct asc_core *c, char *buf, size_t size)
{
	if (!c->type)
		snprintf(buf, size, "core %u", c->index);
	else
		snprintf(buf, size, "core %u (%s %d)", c->index,
			 launch_type_name(c), c->block_idx);
}

/* Two last sets of a flag that make one wrong-mode line: the same call. */
static bool launch_same_set(const struct core_cross_set *a,
			    const struct core_cross_set *b)
{
	return a->seq == b->seq && a->mode == b->mode &&
	       a->site.line == b->site.line &&
	       (a->site.file == b->site.file ||
		(a->site.file && b->site.file && !strcmp(a->site.file, b->site.file)));
}

/*
 * Whether core @i's last set of @flag was in a mode that counts on other
 * cores than @c; its group's targets in @targets.
 */
static bool launch_wrong_mode(const struct asc_launch *l,
			      const struct asc_core *c, unsigned int i,
			      int flag, struct asc_xrace_range *targets)
{
	const struct core_cross_set *s = &l->cores[i]->cross_last[flag];
	struct asc_xrace_range group;

	return s->seq &&
	       !asc_xrace_set_group(l->kind, l->block_dim, i, s->mode, &group,
				    targets) &&
	       (c->index < targets->first || c->index > targets->last);
}

/*
 * Whether core @j's last set of @flag makes the same wrong-mode line as
 * core @i's, whose group's targets are @targets: the same call, counting
 * on the same cores.
 */
static bool launch_same_wrong_mode(const struct asc_launch *l,
				   const struct asc_core *c, int flag,
				   unsigned int i, const struct asc_xrace_range *targets,
				   unsigned int j)
{
	struct asc_xrace_range other;

	return launch_wrong_mode(l, c, j, flag, &other) &&
	       other.first == targets->first && other.last == targets->last &&
	       launch_same_set(&l->cores[i]->cross_last[flag],
			       &l->cores[j]->cross_last[flag]);
}

/*
 * Under a cross-core wait of @c for @flag that never ends: a line for
 * each call whose last set of @flag, on one core or several, was in a
 * mode that counts on other cores than @c (an AIV's mode 0 counts on the
 * AIVs, never on the AIC).  The cores of one call are one line.
 */
static void launch_report_wrong_modes(const struct asc_launch *l,
				      const struct asc_core *c, int flag,
				      struct asc_report *r)
{
	struct asc_xrace_range targets;
	const struct core_cross_set *s;
	char name[48], setter[48], setters[400], at[160];
	unsigned int i, j, n, k;
	size_t len;

	launch_core_name(c, name, sizeof(name));
	for (i = 0; i < l->ncores; i++) {
		if (!launch_wrong_mode(l, c, i, flag, &targets))
			continue;
		/* Named already with an earlier core of the same call. */
		for (j = 0; j < i; j++)
			if (launch_same_wrong_mode(l, c, flag, i, &targets, j))
				break;
		if (j < i)
			continue;
		for (n = 0, j = i; j < l->ncores; j++)
			n += launch_same_wrong_mode(l, c, flag, i, &targets, j);
		len = 0;
		for (k = 0, j = i; j < l->ncores; j++) {
			if (!launch_same_wrong_mode(l, c, flag, i, &targets, j))
				continue;
			launch_core_name(l->cores[j], setter, sizeof(setter));
			/* "core 1 (AIV 0)"; "cores 1 (AIV 0) and 2 (AIV 1)". */
			len += snprintf(setters + len, sizeof(setters) - len, "%s%s%s",
					!k ? "" : k + 1 < n ? ", " : " and ",
					n > 1 && !k ? "cores " : "",
					setter + (n > 1 ? strlen("core ") : 0));
			if (len >= sizeof(setters))
				len = sizeof(setters) - 1;
			k++;
		}
		s = &l->cores[i]->cross_last[flag];
		at[0] = '\0';
		if (s->site.file)
			snprintf(at, sizeof(at), " at %s:%d", s->site.file,
				 s->site.line);
		asc_report_add(r, "  wrong mode: %s %s cross-core flag %d in mode %d (#%lu%s), which counts on cores %u-%u, not on %s, which waits for it",
			       setters, n > 1 ? "set" : "sets", flag, s->mode,
			       s->seq, at, targets.first, targets.last, name);
	}
}

/*
 * One line of the deadlock report: what @pipe of @c waits for, in the
 * call numbered @seq, at @site.
 */
static void launch_report_wait(const struct asc_launch *l,
			       const struct asc_core *c, const char *pipe,
			       enum core_block block, int event,
			       unsigned long id, unsigned long seq,
			       const struct core_site *site,
			       struct asc_report *r)
{
	struct launch_range g[LAUNCH_MODES];
	char name[48], who[160] = "", at[144], call[176];
	size_t len = 0;
	unsigned int n, i, m;

	launch_core_name(c, name, sizeof(name));
	asc_core_site_text(site, at, sizeof(at));
	snprintf(call, sizeof(call), " (#%lu%s)", seq, at);
	switch (block) {
	case CORE_BLOCK_FLAG:
		asc_report_add(r, "  %s %s waits for %s id %lu%s, set by %s",
			       name, pipe, asc_hard_event_name(event), id, call,
			       asc_pipe_id_name(asc_hard_event_src_pipe(event)));
		return;
	case CORE_BLOCK_CROSS:
		n = launch_wait_groups(l, c, g);
		for (i = 0; i < n; i++)
			for (m = g[i].first; m <= g[i].last; m++)
				if (!l->cores[m]->cross_issued[g[i].mode][event] &&
				    len < sizeof(who) - 16)
					len += snprintf(who + len, sizeof(who) - len,
							"%s%u (mode %d)",
							len ? ", " : "", m, g[i].mode);
		asc_report_add(r, "  %s %s waits for cross-core flag %d%s, which cores %s have not set",
			       name, pipe, event, call, who);
		launch_report_wrong_modes(l, c, event, r);
		return;
	case CORE_BLOCK_QSET:
		asc_report_add(r, "  %s %s waits to set %s id %lu%s until %s has taken its previous set",
			       name, pipe, asc_hard_event_name(event), id, call,
			       asc_pipe_id_name(asc_hard_event_dst_pipe(event)));
		return;
	case CORE_BLOCK_SYNC:
		g[0] = launch_sync_group(l, event);
		for (m = g[0].first; m <= g[0].last; m++)
			if (!(l->cores[m]->block == CORE_BLOCK_SYNC &&
			      l->cores[m]->block_event == event &&
			      l->cores[m]->block_id == id && !l->cores[m]->waiting) &&
			    len < sizeof(who) - 8)
				len += snprintf(who + len, sizeof(who) - len,
						"%s%u", len ? ", " : "", m);
		asc_report_add(r, "  %s %s waits in SyncAll%s%s, which cores %s have not reached",
			       name, pipe, event ? " of the AIVs" : "", call,
			       who);
		return;
	default:
		return;
	}
}

static char *launch_deadlock_report(const struct asc_launch *l)
{
	struct asc_report r = { 0 };
	const struct asc_core *c;
	char name[48], at[144];
	unsigned int i;
	int k;

	asc_report_add(&r, "error: deadlock across the cores of the launch: these cores and pipes wait forever for one another");
	for (i = 0; i < l->ncores; i++) {
		c = l->cores[i];
		if (c->gone)
			continue;
		launch_core_name(c, name, sizeof(name));
		if (c->waiting) {
			asc_core_site_text(&c->site, at, sizeof(at));
			asc_report_add(&r, "  %s S waits for its pipes to run what it issued (#%lu%s)",
				       name, c->seq,
				       c->ended ? ", the end of the kernel" : at);
		} else {
			launch_report_wait(l, c, "S", c->block, c->block_event,
					   c->block_id, c->block_seq,
					   &c->block_site, &r);
		}
		for (k = 1; k < CORE_LANES; k++)
			if (c->lane[k].block == CORE_BLOCK_GM)
				asc_wsync_report(&c->lane[k], name, &r);
			else if (!launch_lane_idle(&c->lane[k]))
				launch_report_wait(l, c,
						   asc_pipe_id_name(c->lane[k].pipe_id),
						   c->lane[k].block,
						   c->lane[k].block_event,
						   c->lane[k].block_id,
						   c->lane[k].block_seq,
						   &c->lane[k].block_site, &r);
	}
	return asc_report_take(&r);
}

/*
 * Cancel the cores numbered from @from: their calls fail with ECANCELED
 * from then on, and their TPipes are reset (their waits end).  A reset
 * clears the core's cross-core counters and the sets it issued that no
 * group completed yet, in the driver and so in the mirror: else a set of
 * its partner completes a group here that the driver never counts, and a
 * core that waits for it looks as if it could go on.  While a cross-core
 * set is between the driver and the mirror, the resets wait for the next
 * tick.
 */
static void launch_cancel_from_locked(struct asc_launch *l, unsigned int from)
{
	struct asc_core *c;
	unsigned int i;

	for (i = from; i < l->ncores; i++) {
		c = l->cores[i];
		if (!c->err)
			__atomic_store_n(&c->err, ECANCELED, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&c->progress);
		pthread_cond_broadcast(&c->flag_cond);
		if (l->go && !c->gone && c->pipe && !l->cross_sets) {
			asc_pipe_reset(c->pipe);
			memset(c->cross_count, 0, sizeof(c->cross_count));
			memset(c->cross_issued, 0, sizeof(c->cross_issued));
		}
	}
}

/* The launch fails with @err and @text (taken), under the lock. */
static void launch_fail_locked(struct asc_launch *l, int err, char *text)
{
	if (l->err) {
		free(text);
		return;
	}
	l->err = err;
	l->report = text;
	l->pending = false;
	free(l->first_report);
	l->first_report = NULL;
	pthread_cond_broadcast(&l->cond);
	launch_cancel_from_locked(l, 0);
}

/* The failure of the lowest-numbered core that failed is the launch's. */
static void launch_fail_first_locked(struct asc_launch *l)
{
	char *text = l->first_report;

	l->first_report = NULL;
	launch_fail_locked(l, l->first_err, text);
}

/*
 * With a failure pending: once no core below the one that failed can
 * still act (each has left, or its scalar and pipes wait for what will
 * never come), that failure is the launch's.
 */
static void launch_settle_locked(struct asc_launch *l)
{
	const struct asc_core *c;
	unsigned int i;
	int k;

	if (!l->pending)
		return;
	for (i = 0; i < l->first_core; i++) {
		c = l->cores[i];
		if (c->gone)
			continue;
		if (!launch_scalar_stuck(l, c))
			return;
		for (k = 1; k < CORE_LANES; k++)
			if (!launch_lane_idle(&c->lane[k]) &&
			    !launch_lane_stuck(l, c, &c->lane[k]))
				return;
	}
	launch_fail_first_locked(l);
}

/* Whether every thread of @c is in a blocking call or has nothing to do. */
static bool launch_core_blocked(const struct asc_core *c)
{
	int k;

	if (c->block == CORE_RUNS && !c->waiting)
		return false;
	for (k = 1; k < CORE_LANES; k++)
		if (!launch_lane_idle(&c->lane[k]) && c->lane[k].block == CORE_RUNS)
			return false;
	return true;
}

/*
 * A tick with a failure pending: after LAUNCH_QUIET_TICKS ticks in which
 * every core below the one that failed stayed blocked and no wait ended,
 * that failure is the launch's.
 */
static void launch_quiet_tick_locked(struct asc_launch *l)
{
	unsigned int i;

	for (i = 0; i < l->first_core; i++)
		if (!l->cores[i]->gone && !launch_core_blocked(l->cores[i]))
			break;
	if (i < l->first_core || l->waits_ended != l->quiet_mark) {
		l->quiet = 0;
		l->quiet_mark = l->waits_ended;
		return;
	}
	if (++l->quiet >= LAUNCH_QUIET_TICKS)
		launch_fail_first_locked(l);
}

/*
 * Called under the lock when a core records its first error (core.c).
 * Before the cores run, and a cancel (EINTR, asc_core_cancel()), it is
 * the launch's at once.  After, the cores
 * numbered above it are cancelled and those below run on: the failure of
 * the lowest-numbered core that fails is the launch's, whatever the
 * threads' timing.  A core below that fails with ECANCELED or EPIPE waited
 * for a core that was cancelled or left: the failure pending is the
 * launch's then.
 */
void asc_launch_core_failed(struct asc_core *c)
{
	struct asc_launch *l = c->launch;
	struct asc_report r = { 0 };
	char name[48];
	size_t len;

	if (l->err || (l->pending && c->index > l->first_core))
		return;
	if (l->pending && (c->err == ECANCELED || c->err == EPIPE)) {
		launch_fail_first_locked(l);
		return;
	}
	launch_core_name(c, name, sizeof(name));
	len = c->report ? strlen(c->report) : 0;
	if (len && c->report[len - 1] == '\n')
		len--;
	if (c->report)
		asc_report_add(&r, "%s:\n%.*s", name, (int)len, c->report);
	else
		asc_report_add(&r, "%s: %s", name, strerror(c->err));
	if (!l->go || c->err == EINTR) {
		launch_fail_locked(l, c->err, asc_report_take(&r));
		return;
	}
	free(l->first_report);
	l->first_report = asc_report_take(&r);
	l->first_err = c->err;
	l->first_core = c->index;
	l->quiet = 0;
	l->pending = true;
	launch_cancel_from_locked(l, c->index + 1);
	launch_settle_locked(l);
}

/*
 * Under the lock, when a thread of @l blocks, a pipe goes idle or a core
 * leaves: when no thread of a core still there can act, it is a deadlock.
 */
void asc_launch_check(struct asc_launch *l)
{
	const struct asc_core *c;
	unsigned int i, live = 0;
	int k;

	if (l->err || !l->go)
		return;
	if (l->pending) {
		launch_settle_locked(l);
		return;
	}
	for (i = 0; i < l->ncores; i++) {
		c = l->cores[i];
		if (c->gone)
			continue;
		live++;
		if (!launch_scalar_stuck(l, c))
			return;
		for (k = 1; k < CORE_LANES; k++)
			if (!launch_lane_idle(&c->lane[k]) &&
			    !launch_lane_stuck(l, c, &c->lane[k]))
				return;
	}
	if (live)
		launch_fail_locked(l, EDEADLK, launch_deadlock_report(l));
}

/*
 * A blocking call of the scalar of @c (@ln NULL) or of its pipe @ln running
 * @it, known to the deadlock detector while it blocks.  Return: 0 or an
 * errno.
 */
static int launch_block(struct asc_core *c, struct core_lane *ln,
			const struct core_item *it, enum core_block block,
			int event, unsigned long id,
			int (*call)(struct asc_pipe *, int), int flag)
{
	int ret, err;

	pthread_mutex_lock(c->lock);
	if (ln) {
		ln->block = block;
		ln->block_event = event;
		ln->block_id = id;
		ln->block_seq = it->seq;
		ln->block_site = it->site;
	} else {
		c->block = block;
		c->block_event = event;
		c->block_id = id;
		c->block_seq = c->seq;
		c->block_site = c->site;
	}
	asc_launch_check(c->launch);
	pthread_mutex_unlock(c->lock);
	do
		ret = call(c->pipe, flag);
	while (ret < 0 && errno == EINTR);
	err = ret < 0 ? errno : 0;
	pthread_mutex_lock(c->lock);
	c->launch->waits_ended++;
	if (ln)
		ln->block = CORE_RUNS;
	else
		c->block = CORE_RUNS;
	if (!err && block == CORE_BLOCK_CROSS)
		c->cross_count[flag]--;
	pthread_mutex_unlock(c->lock);
	return err;
}

static int launch_sync_call(struct asc_pipe *pipe, int flags)
{
	return asc_pipe_sync_all(pipe, flags);
}

/* Run a ticket: a set, or a wait the detector knows of while it blocks. */
static int launch_ticket(struct asc_core *c, struct core_lane *ln,
			 const struct core_item *it)
{
	int ret, err;

	pthread_mutex_lock(c->lock);
	if (!it->set) {
		ln->block = CORE_BLOCK_FLAG;
		ln->block_event = it->event;
		ln->block_id = it->id;
		ln->block_seq = it->seq;
		ln->block_site = it->site;
		asc_launch_check(c->launch);
	}
	pthread_mutex_unlock(c->lock);
	do
		ret = asc_pipe_execute(c->pipe, it->ticket);
	while (ret < 0 && errno == EINTR);
	err = ret < 0 ? errno : 0;
	pthread_mutex_lock(c->lock);
	if (!it->set)
		c->launch->waits_ended++;
	ln->block = CORE_RUNS;
	if (!err)
		asc_core_count_flag(c, it);
	pthread_mutex_unlock(c->lock);
	return err;
}

/* A pipe of a core of a launch runs a set or wait (core.c). */
void asc_launch_lane_run(struct asc_core *c, struct core_lane *ln,
			 const struct core_item *it)
{
	const char *pipe = asc_pipe_id_name(ln->pipe_id);
	int err;

	switch (it->kind) {
	case CORE_TICKET:
		err = launch_ticket(c, ln, it);
		if (err)
			asc_core_site_fail(c, &it->site, "error", err, NULL,
					   "#%lu %s_flag(%s, %d) on %s",
					   it->seq, it->set ? "set" : "wait",
					   asc_hard_event_name(it->event),
					   it->id, pipe);
		return;
	case CORE_CROSS_SET:
		pthread_mutex_lock(c->lock);
		c->launch->cross_sets++;
		pthread_mutex_unlock(c->lock);
		err = asc_pipe_cross_set(c->pipe, it->id, it->event,
					 ln->pipe_id) ? errno : 0;
		pthread_mutex_lock(c->lock);
		c->launch->cross_sets--;
		if (!err)
			launch_cross_issued(c->launch, c, it->event, it->id);
		pthread_mutex_unlock(c->lock);
		if (err)
			asc_core_site_fail(c, &it->site, "error", err, NULL,
					   "#%lu cross_set_flag(%d, mode %d) on %s",
					   it->seq, it->id, it->event, pipe);
		return;
	case CORE_CROSS_WAIT:
		err = launch_block(c, ln, it, CORE_BLOCK_CROSS, it->id, 0,
				   asc_pipe_cross_wait, it->id);
		if (err)
			asc_core_site_fail(c, &it->site, "error", err, NULL,
					   "#%lu cross_wait_flag(%d) on %s",
					   it->seq, it->id, pipe);
		return;
	case CORE_GM_SET:
	case CORE_GM_WAIT:
		asc_wsync_lane_run(c, ln, it);
		return;
	default:
		return;
	}
}

struct asc_xrace *asc_launch_xrace(struct asc_launch *l)
{
	return l->xrace;
}

/* Why a cross-core set of @c is refused, or NULL. */
static const char *launch_set_refused(const struct asc_core *c, int flag_id,
				      int mode, int lane)
{
	if (flag_id < 0 || flag_id >= ASC_EVENT_CROSS_FLAGS)
		return "flag IDs are 0..10";
	if (mode < 0 || mode >= LAUNCH_MODES)
		return "modes are 0, 1 and 2";
	if (mode && c->launch->kind != ASC_LAUNCH_MIX)
		return "modes 1 and 2 are for mix launches";
	if (mode == 1 && c->type == ASC_CORE_AIC)
		return "mode 1 is for AIVs";
	if (lane < 0)
		return "not a pipe";
	if (lane == CORE_S)
		return "not on S: a hardware error on the chip";
	return NULL;
}

ASC_API int asc_core_cross_set_flag(struct asc_core *c, int flag_id, int mode,
				    int pipe_id)
{
	struct core_item it = { .kind = CORE_CROSS_SET, .event = mode,
				.id = flag_id, .set = true };
	const char *why;
	char what[48];
	int lane, pos;
	long mark;

	if (asc_core_enter(c))
		return -1;
	it.seq = c->seq;
	if (!c->launch)
		return asc_core_call_fail(c, ENOTCONN,
					  "#%lu cross_set_flag(%d, mode %d): not a core of a launch",
					  it.seq, flag_id, mode);
	lane = asc_core_lane_of(pipe_id);
	why = launch_set_refused(c, flag_id, mode, lane);
	if (why)
		return asc_core_call_fail(c, EINVAL,
					  "#%lu cross_set_flag(%d, mode %d) on pipe %d: %s",
					  it.seq, flag_id, mode, pipe_id, why);
	if (asc_core_room(c, lane, false))
		return -1;
	pthread_mutex_lock(c->lock);
	c->cross_last[flag_id] = (struct core_cross_set){ it.seq, mode, c->site };
	pthread_mutex_unlock(c->lock);
	snprintf(what, sizeof(what), "cross_set_flag(%d, mode %d)", flag_id, mode);
	if (c->launch->xrace) {
		mark = asc_xrace_cross_set(c->launch->xrace, c->index, flag_id,
					 mode, it.seq);
		if (mark < 0)
			return asc_core_call_fail(c, errno, "#%lu the cross-core detector",
						  it.seq);
		pos = asc_race_mark(c->race, pipe_id, it.seq, what, mark);
	} else {
		pos = asc_race_work(c->race, pipe_id, it.seq, what, NULL, 0);
	}
	if (pos < 0)
		return asc_core_race_fail(c, "the detector");
	return asc_core_enqueue(c, lane, &it, pos);
}

ASC_API int asc_core_cross_wait_flag(struct asc_core *c, int flag_id,
				     int pipe_id)
{
	struct core_item it = { .kind = CORE_CROSS_WAIT, .id = flag_id };
	char what[48];
	int lane, pos, err;

	if (asc_core_enter(c))
		return -1;
	it.seq = c->seq;
	if (!c->launch)
		return asc_core_call_fail(c, ENOTCONN,
					  "#%lu cross_wait_flag(%d): not a core of a launch",
					  it.seq, flag_id);
	lane = asc_core_lane_of(pipe_id);
	if (flag_id < 0 || flag_id >= ASC_EVENT_CROSS_FLAGS || lane < 0)
		return asc_core_call_fail(c, EINVAL,
					  "#%lu cross_wait_flag(%d) on pipe %d: %s",
					  it.seq, flag_id, pipe_id,
					  lane < 0 ? "not a pipe" : "flag IDs are 0..10");
	snprintf(what, sizeof(what), "cross_wait_flag(%d)", flag_id);
	if (lane != CORE_S && asc_core_room(c, lane, false))
		return -1;
	/* On S too: what the scalar issues after it comes after it. */
	pos = asc_race_work(c->race, pipe_id, it.seq, what, NULL, 0);
	if (pos < 0)
		return asc_core_race_fail(c, "the detector");
	if (c->launch->xrace && asc_xrace_cross_wait(c->launch->xrace, c->index,
						 flag_id, pipe_id, pos, it.seq))
		return asc_core_call_fail(c, errno, "#%lu the cross-core detector",
					  it.seq);
	if (lane == CORE_S) {
		err = launch_block(c, NULL, NULL, CORE_BLOCK_CROSS, flag_id, 0,
				   asc_pipe_cross_wait, flag_id);
		if (err)
			return asc_core_call_fail(c, err,
						  "#%lu cross_wait_flag(%d) on S",
						  it.seq, flag_id);
		return 0;
	}
	return asc_core_enqueue(c, lane, &it, pos);
}

/*
 * SyncAll of every core, or (@aiv_only) of the AIVs: in a mix launch
 * without the AICs, elsewhere every core, as the driver takes it.
 */
static int launch_sync_all(struct asc_core *c, bool aiv_only)
{
	const char *what = aiv_only ? "sync_all_aiv" : "sync_all";
	struct asc_launch *l;
	unsigned long round;
	struct launch_range g;
	int err, aiv;

	if (asc_core_pipe_barrier(c, ASC_PIPE_ALL) || asc_core_enter(c))
		return -1;
	l = c->launch;
	if (!l)
		return asc_core_call_fail(c, ENOTCONN,
					  "#%lu %s: not a core of a launch",
					  c->seq, what);
	if (aiv_only && c->type == ASC_CORE_AIC)
		return asc_core_call_fail(c, EINVAL,
					  "#%lu %s: an AIC takes no part in the AIVs' SyncAll",
					  c->seq, what);
	aiv = aiv_only && l->kind == ASC_LAUNCH_MIX;
	if (l->xrace && asc_xrace_sync_all(l->xrace, c->index, aiv, c->race, c->seq))
		return asc_core_call_fail(c, errno, "#%lu the cross-core detector",
					  c->seq);
	g = launch_sync_group(l, aiv);
	pthread_mutex_lock(c->lock);
	if (l->kind == ASC_LAUNCH_MIX && c->type == ASC_CORE_AIV &&
	    (aiv ? l->sync_arrived_aivs : l->sync_arrived[1])) {
		pthread_mutex_unlock(c->lock);
		return asc_core_call_fail(c, EDEADLK,
					  "#%lu %s: deadlock: another AIV waits in the SyncAll of %s, which waits for this one",
					  c->seq, what, aiv ? "every core" : "the AIVs");
	}
	round = l->sync_round[aiv];
	if (!aiv && l->kind == ASC_LAUNCH_MIX && c->type == ASC_CORE_AIV)
		l->sync_arrived_aivs++;
	if (++l->sync_arrived[aiv] == g.last - g.first + 1) {
		l->sync_arrived[aiv] = 0;
		l->sync_round[aiv]++;
		if (!aiv)
			l->sync_arrived_aivs = 0;
	}
	pthread_mutex_unlock(c->lock);
	err = launch_block(c, NULL, NULL, CORE_BLOCK_SYNC, aiv, round,
			   launch_sync_call,
			   aiv_only ? ASC_EVENT_SYNC_ALL_AIV_ONLY : 0);
	if (err)
		return asc_core_call_fail(c, err, "#%lu %s on S", c->seq, what);
	return 0;
}

ASC_API int asc_core_sync_all(struct asc_core *c)
{
	return launch_sync_all(c, false);
}

ASC_API int asc_core_sync_all_aiv(struct asc_core *c)
{
	return launch_sync_all(c, true);
}

ASC_API int asc_core_cross_set_flag_at(struct asc_core *c, int flag_id,
				       int mode, int pipe_id, const char *file,
				       int line)
{
	CORE_AT(int, asc_core_cross_set_flag(c, flag_id, mode, pipe_id));
}

ASC_API int asc_core_cross_wait_flag_at(struct asc_core *c, int flag_id,
					int pipe_id, const char *file, int line)
{
	CORE_AT(int, asc_core_cross_wait_flag(c, flag_id, pipe_id));
}

ASC_API int asc_core_sync_all_at(struct asc_core *c, const char *file, int line)
{
	CORE_AT(int, asc_core_sync_all(c));
}

ASC_API int asc_core_sync_all_aiv_at(struct asc_core *c, const char *file,
				     int line)
{
	CORE_AT(int, asc_core_sync_all_aiv(c));
}

ASC_API int asc_core_block_idx(struct asc_core *c)
{
	return c ? c->block_idx : asc_einval();
}

ASC_API int asc_core_block_num(struct asc_core *c)
{
	return c ? c->block_num : asc_einval();
}

ASC_API int asc_core_sub_block_idx(struct asc_core *c)
{
	return c ? c->sub_block_idx : asc_einval();
}

ASC_API int asc_core_sub_block_num(struct asc_core *c)
{
	return c ? c->sub_block_num : asc_einval();
}

ASC_API int asc_core_type(struct asc_core *c)
{
	return c ? c->type : asc_einval();
}

/* Join core @c to the launch, and learn who it is. */
static int launch_join(struct asc_core *c)
{
	struct asc_event_core_info info;

	if (asc_pipe_join(c->pipe, c->launch->fd, c->index, &info) < 0)
		return asc_core_call_fail(c, errno, "join core %u of the launch",
					  c->index);
	c->type = info.type;
	c->block_idx = info.block_idx;
	c->block_num = info.block_num;
	c->sub_block_idx = info.sub_block_idx;
	c->sub_block_num = info.sub_block_num;
	return 0;
}

/* The cross-core detector follows what @c's detector runs. */
static void launch_attach(struct asc_core *c)
{
	char name[48];

	if (!c->launch->xrace)
		return;
	launch_core_name(c, name, sizeof(name));
	asc_xrace_attach(c->launch->xrace, c->index, c->race, name);
}

/* The scalar of a core: set up, wait for the others, run, leave. */
static void *launch_core_main(void *arg)
{
	struct asc_core *c = arg;
	struct asc_launch *l = c->launch;
	bool run;

	if (!asc_core_setup(c, l->attr) && !launch_join(c) && !asc_que_setup(c))
		launch_attach(c);
	pthread_mutex_lock(&l->lock);
	l->joined++;
	pthread_cond_broadcast(&l->cond);
	while (!l->go && !l->err)
		pthread_cond_wait(&l->cond, &l->lock);
	run = !c->err;
	pthread_mutex_unlock(&l->lock);
	if (run) {
		l->kernel(c, l->arg);
		asc_core_finish(c);
	}
	asc_core_stop(c);
	pthread_mutex_lock(&l->lock);
	l->running--;
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

/* The driver's launch, made on a TPipe of its own. */
static int launch_open(struct asc_launch *l)
{
	struct asc_pipe *pipe;
	int fd, err;

	pipe = asc_pipe_open(l->attr ? l->attr->device : NULL);
	if (!pipe)
		return -1;
	if (!asc_pipe_has_launch(pipe)) {
		asc_pipe_close(pipe);
		errno = ENOTTY;
		return -1;
	}
	fd = asc_pipe_launch(pipe, l->kind, l->block_dim);
	err = errno;
	asc_pipe_close(pipe);
	errno = err;
	if (fd < 0)
		return -1;
	l->fd = fd;
	return 0;
}

static int launch_add_cores(struct asc_launch *l)
{
	struct asc_core *c;
	unsigned int i;

	l->cores = calloc(l->ncores, sizeof(*l->cores));
	if (!l->cores)
		return -1;
	for (i = 0; i < l->ncores; i++) {
		c = asc_core_new();
		if (!c)
			return -1;
		l->cores[i] = c;
		c->launch = l;
		c->lock = &l->lock;
		c->index = i;
	}
	return 0;
}

/*
 * Start the cores' threads, with every signal blocked: signals are the
 * program's.  Return: how many started.
 */
static unsigned int launch_start(struct asc_launch *l, pthread_t *threads)
{
	struct asc_report r = { 0 };
	sigset_t all, old;
	unsigned int i;
	int err = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < l->ncores && !err; i++) {
		pthread_mutex_lock(&l->lock);
		l->running++;
		pthread_mutex_unlock(&l->lock);
		err = pthread_create(&threads[i], NULL, launch_core_main,
				     l->cores[i]);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		return i;
	pthread_mutex_lock(&l->lock);
	l->running--;
	asc_report_add(&r, "error: the thread of core %u: %s", i - 1,
		       strerror(err));
	launch_fail_locked(l, err, asc_report_take(&r));
	pthread_mutex_unlock(&l->lock);
	return i - 1;
}

/*
 * Let the cores run once all have joined, then wait for them, ending the
 * waits of those still there every tick once the launch has failed.
 */
static void launch_wait(struct asc_launch *l, unsigned int started)
{
	struct timespec t;

	pthread_mutex_lock(&l->lock);
	while (l->joined < started && !l->err)
		pthread_cond_wait(&l->cond, &l->lock);
	if (!l->err)
		l->go = true;
	pthread_cond_broadcast(&l->cond);
	while (l->running) {
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += LAUNCH_TICK_NS;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&l->cond, &l->lock, &t);
		if (l->err && l->go) {
			launch_cancel_from_locked(l, 0);
		} else if (l->pending) {
			launch_cancel_from_locked(l, l->first_core);
			launch_quiet_tick_locked(l);
		}
	}
	if (l->pending)
		launch_fail_first_locked(l);
	pthread_mutex_unlock(&l->lock);
}

static void launch_free(struct asc_launch *l)
{
	unsigned int i;

	for (i = 0; l->cores && i < l->ncores; i++)
		if (l->cores[i])
			asc_core_destroy(l->cores[i]);
	free(l->cores);
	if (l->fd >= 0)
		close(l->fd);
	pthread_cond_destroy(&l->cond);
	pthread_mutex_destroy(&l->lock);
	free(l->report);
	free(l->first_report);
	asc_xrace_free(l->xrace);
	free(l);
}

/*
 * After a launch that ran to its end: what the cross-core detector finds
 * fails it, ENOLCK (or ENOMEM) with the findings as its report.
 */
static void launch_check_cross(struct asc_launch *l)
{
	struct asc_report r = { 0 };

	if (l->err || !l->xrace || !asc_xrace_check(l->xrace, &r)) {
		asc_report_free(&r);
		return;
	}
	l->err = errno;
	free(l->report);
	l->report = asc_report_take(&r);
}

/*
 * After a launch without an error: the report is the cores' warnings
 * (memcheck.c), under the line naming each core that has some.
 */
static void launch_warnings(struct asc_launch *l)
{
	struct asc_report r = { 0 };
	unsigned int i;
	char name[48], *text;

	for (i = 0; l->cores && i < l->ncores; i++) {
		if (!l->cores[i])
			continue;
		text = asc_memcheck_warnings(l->cores[i]);
		if (!text)
			continue;
		launch_core_name(l->cores[i], name, sizeof(name));
		asc_report_add(&r, "%s:\n%.*s", name, (int)strlen(text) - 1, text);
		free(text);
	}
	free(l->report);
	l->report = asc_report_take(&r);
}

ASC_API int asc_launch_run(asc_kernel_fn kernel, void *arg, int kind,
			   unsigned int block_dim,
			   const struct asc_core_attr *attr, char **report)
{
	struct asc_launch *l;
	pthread_t *threads;
	unsigned int started, i;
	int err;

	if (report)
		*report = NULL;
	if (!kernel || kind < ASC_LAUNCH_AIV || kind > ASC_LAUNCH_MIX ||
	    block_dim < 1 || block_dim > ASC_EVENT_BLOCK_DIM_MAX ||
	    (attr && attr->unchecked && attr->strict_ids))
		return asc_einval();
	l = calloc(1, sizeof(*l));
	if (!l)
		return -1;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->cond, NULL);
	l->fd = -1;
	l->kind = kind;
	l->block_dim = block_dim;
	l->ncores = kind == ASC_LAUNCH_MIX ? 3 * block_dim : block_dim;
	l->kernel = kernel;
	l->arg = arg;
	l->attr = attr;
	threads = calloc(l->ncores, sizeof(*threads));
	if (!(attr && attr->unchecked))
		l->xrace = asc_xrace_new(kind, block_dim);
	if (!threads || (!(attr && attr->unchecked) && !l->xrace) ||
	    launch_open(l) || launch_add_cores(l)) {
		err = errno;
		free(threads);
		launch_free(l);
		errno = err;
		return -1;
	}
	started = launch_start(l, threads);
	launch_wait(l, started);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	launch_check_cross(l);
	if (!l->err)
		launch_warnings(l);
	err = l->err;
	if (report) {
		*report = l->report;
		l->report = NULL;
	}
	launch_free(l);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
