// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_core: the core runtime.  A kernel is one instruction stream,
 * as on the chip; the thread that calls asc_core_run() is the scalar unit
 * S of one emulated AI core and runs it.
 *
 * The scalar issues each instruction into the in-order queue of its pipe.
 * Each pipe but S has a thread of its own, bound to the pipe on the
 * TPipe, started when the first instruction is issued to it, that runs its
 * queue in order: work (a callback), or a set or wait the scalar issued to
 * the driver (ASC_EVENT_IOC_ISSUE, checked there in program order), which
 * the pipe's thread runs with ASC_EVENT_IOC_EXECUTE.  What is issued to S
 * runs at once on the scalar; so do the TPipe calls (alloc, fetch,
 * release, reset), scalar bookkeeping as on the chip.  A pipe's queue is
 * bounded (CORE_QUEUE_MAX instructions, and the driver's queue of
 * ASC_EVENT_QUEUE_DEPTH tickets): the scalar waits for room when it is
 * full.
 *
 * Every instruction goes to the missing-sync detector (race.c) before its
 * pipe gets it, and wherever the scalar must wait for a pipe (a wait on
 * S, a full queue, a drain) the detector first says whether the pipe can
 * get there; when it cannot, the run fails with EDEADLK instead of
 * hanging.  Since the detector has seen every instruction before a pipe
 * can run it, a pipe never runs an instruction the detector has not
 * cleared, and what it reports does not depend on the threads' timing.
 *
 * The first error wins: it is recorded with its report, the TPipe is
 * reset (the waits the pipes are blocked in end with ECANCELED, their
 * tickets are dropped), the pipes skip what is left in their queues, and
 * every later call of the kernel fails with the same errno.  The scalar
 * waits on S with a deadline, in slices, so that it notices an error
 * recorded between its check and its wait.
 *
 * With a trace marker (ASC_TRACE_MARKER, marker.c), whoever runs a work
 * item, a pipe's thread or the scalar for S, writes a line to it just
 * before and just after: the item carries its name for that, copied when
 * it is issued, only then.
 *
 * Locking: @lock protects the lanes' queues and counters, @stopping and
 * the report; @err is written under it and read without it by the scalar
 * (atomically).  The detector, @seq and @pipe's bookkeeping are the
 * scalar's alone.  Pipe threads never call the detector.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "memcheck.h"
#include "race.h"

static const int core_lane_pipe[CORE_LANES] = {
	ASC_PIPE_S, ASC_PIPE_V, ASC_PIPE_M, ASC_PIPE_MTE1, ASC_PIPE_MTE2,
	ASC_PIPE_MTE3, ASC_PIPE_FIX,
};

int asc_core_lane_of(int pipe_id)
{
	int i;

	for (i = 0; i < CORE_LANES; i++)
		if (core_lane_pipe[i] == pipe_id)
			return i;
	return -1;
}

static const char *core_pipe_name(int pipe_id)
{
	return asc_pipe_id_name(pipe_id);
}

static int core_error(const struct asc_core *c)
{
	return __atomic_load_n(&c->err, __ATOMIC_ACQUIRE);
}

/*
 * Record @err with @text (taken) unless an error came first; the first
 * one resets the TPipe, which ends the pipes' waits.  In a launch, the
 * first error of any core ends every core (asc_launch_core_failed()).
 */
void asc_core_fail(struct asc_core *c, int err, char *text)
{
	bool first;

	pthread_mutex_lock(c->lock);
	first = !c->err;
	if (first) {
		c->report = text;
		text = NULL;
		__atomic_store_n(&c->err, err, __ATOMIC_RELEASE);
		if (c->launch)
			asc_launch_core_failed(c);
	}
	pthread_cond_broadcast(&c->progress);
	pthread_cond_broadcast(&c->flag_cond);
	pthread_mutex_unlock(c->lock);
	free(text);
	if (first)
		asc_pipe_reset(c->pipe);
}

/* " at FILE:LINE" for @site, or "" when it names none. */
void asc_core_site_text(const struct core_site *site, char *buf, size_t len)
{
	if (site && site->file)
		snprintf(buf, len, " at %s:%d", site->file, site->line);
	else if (len)
		buf[0] = '\0';
}

/*
 * An instruction fails: record @err with the line "PREFIX: TEXT at
 * SITE: STRERROR", then the lines of @more (taken; NULL for none), and
 * return -1.  @site is the instruction's (NULL: it names none).
 */
int asc_core_site_fail(struct asc_core *c, const struct core_site *site,
		       const char *prefix, int err, struct asc_report *more,
		       const char *fmt, ...)
{
	struct asc_report text = { 0 };
	char line[384], at[96];
	char *extra;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	asc_core_site_text(site, at, sizeof(at));
	asc_report_add(&text, "%s: %s%s: %s", prefix, line, at, strerror(err));
	extra = more ? asc_report_take(more) : NULL;
	/* Its lines, but for the newline of the last. */
	if (extra)
		asc_report_add(&text, "%.*s", (int)strlen(extra) - 1, extra);
	free(extra);
	asc_core_fail(c, err, asc_report_take(&text));
	errno = core_error(c);
	return -1;
}

/*
 * A call fails: record @err and a line, return -1.  On the scalar the
 * line names the call's site; on a pipe's thread it names none (a pipe
 * names its instruction's with asc_core_site_fail()).
 */
int asc_core_call_fail(struct asc_core *c, int err, const char *fmt, ...)
{
	bool scalar = pthread_equal(pthread_self(), c->scalar);
	char line[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return asc_core_site_fail(c, scalar ? &c->site : NULL, "error", err,
				  NULL, "%s", line);
}

/* The detector failed: its errno and report. */
int asc_core_race_fail(struct asc_core *c, const char *what)
{
	int err = errno;
	char *text = asc_race_take_report(c->race);

	if (!text)
		return asc_core_call_fail(c, err, "%s", what);
	asc_core_fail(c, err, text);
	errno = core_error(c);
	return -1;
}

/* The site an _at variant pushed for the calling thread's call. */
static __thread struct core_site_tls core_site_now;

struct core_site_tls asc_core_site_push(const char *file, int line)
{
	struct core_site_tls saved = core_site_now;

	core_site_now.file = file;
	core_site_now.line = line;
	return saved;
}

void asc_core_site_pop(struct core_site_tls saved)
{
	core_site_now = saved;
}

/*
 * The name of @file after its last '/', interned: the same pointer for
 * the same name as long as the core lives; NULL when out of memory.
 */
static const char *core_file(struct asc_core *c, const char *file)
{
	const char *base = strrchr(file, '/');
	char **files;
	size_t i;

	base = base ? base + 1 : file;
	for (i = 0; i < c->nfiles; i++)
		if (!strcmp(c->files[i], base))
			return c->files[i];
	files = realloc(c->files, (c->nfiles + 1) * sizeof(*files));
	if (!files)
		return NULL;
	c->files = files;
	files[c->nfiles] = strdup(base);
	if (!files[c->nfiles])
		return NULL;
	return files[c->nfiles++];
}

/*
 * The start of every call of the kernel.  Return: 0 when it may go on (it
 * got its instruction number and its call site), or -1 with errno: EINVAL
 * for a NULL @c, EPERM from another thread than the scalar, the kernel's
 * first error.
 */
int asc_core_enter(struct asc_core *c)
{
	int err;

	if (!c)
		return asc_einval();
	if (!pthread_equal(pthread_self(), c->scalar)) {
		errno = EPERM;
		return -1;
	}
	err = core_error(c);
	if (err) {
		errno = err;
		return -1;
	}
	c->seq++;
	c->site.file = core_site_now.file ? core_file(c, core_site_now.file) : NULL;
	c->site.line = c->site.file ? core_site_now.line : 0;
	asc_race_site(c->race, c->site.file, c->site.line);
	return 0;
}

/* Run work item @it on @pipe_id, between its two lines of the marker. */
static void core_work(struct asc_core *c, int pipe_id,
		      const struct core_item *it)
{
	if (it->name)
		asc_marker_work(&c->marker, true, pipe_id, it->seq, it->name);
	if (it->op.kind)
		asc_work_op_run(&it->op);
	else
		it->fn(it->arg);
	if (it->name)
		asc_marker_work(&c->marker, false, pipe_id, it->seq, it->name);
}

/*
 * A queue's set waits until every earlier set of its flag was taken (see
 * que.c).  Return: 0, or the core's error.
 */
static int core_qset_wait(struct asc_core *c, struct core_lane *l,
			  const struct core_item *it)
{
	unsigned int i = it->event * ASC_EVENT_IDS_MAX + it->id;
	int err;

	pthread_mutex_lock(c->lock);
	if (c->flag_waits[i] < c->flag_sets[i]) {
		c->qset_waiters++;
		l->block = CORE_BLOCK_QSET;
		l->block_event = it->event;
		l->block_id = it->id;
		l->block_seq = it->seq;
		l->block_site = it->site;
		if (c->launch)
			asc_launch_check(c->launch);
		while (!c->err && c->flag_waits[i] < c->flag_sets[i])
			pthread_cond_wait(&c->flag_cond, c->lock);
		l->block = CORE_RUNS;
		c->qset_waiters--;
	}
	err = c->err;
	pthread_mutex_unlock(c->lock);
	return err;
}

/* A set or wait of @it ran: count it, and wake the sets waiting for it. */
void asc_core_count_flag(struct asc_core *c, const struct core_item *it)
{
	unsigned int i = it->event * ASC_EVENT_IDS_MAX + it->id;

	(it->set ? c->flag_sets : c->flag_waits)[i]++;
	if (!it->set && c->qset_waiters)
		pthread_cond_broadcast(&c->flag_cond);
}

/*
 * Run one instruction a pipe took: work cannot fail; a set or wait the
 * driver refuses is the run's error.  Return: true for a set or wait of
 * a core of no launch that ran, for the caller to count under the lock
 * (a launch's are counted where they run).
 */
static bool core_lane_run(struct asc_core *c, struct core_lane *l,
			  const struct core_item *it)
{
	bool ran = false;

	if (it->kind == CORE_WORK) {
		core_work(c, l->pipe_id, it);
		return false;
	}
	/* A queue's set or wait is a span of its own, named after its call. */
	if (it->name)
		asc_marker_work(&c->marker, true, l->pipe_id, it->seq, it->name);
	if (it->after_wait && core_qset_wait(c, l, it)) {
		/* The run failed meanwhile: the set is skipped. */
	} else if (c->launch) {
		asc_launch_lane_run(c, l, it);
	} else {
		/* A signal leaves the ticket at the head of the queue: run it again. */
		while (asc_pipe_execute(c->pipe, it->ticket) < 0) {
			if (errno == EINTR)
				continue;
			asc_core_site_fail(c, &it->site, "error", errno,
					   NULL, "#%lu %s_flag(%s, %d) on %s", it->seq,
					   it->set ? "set" : "wait",
					   asc_hard_event_name(it->event), it->id,
					   core_pipe_name(l->pipe_id));
			goto out;
		}
		ran = true;
	}
out:
	if (it->name)
		asc_marker_work(&c->marker, false, l->pipe_id, it->seq, it->name);
	return ran;
}

/* Every pipe has run all it was given. */
static bool core_idle(const struct asc_core *c)
{
	int i;

	for (i = 1; i < CORE_LANES; i++)
		if (c->lane[i].qlen || c->lane[i].busy)
			return false;
	return true;
}

/*
 * A pipe's thread: bind to the pipe, then run the queue in order until
 * the kernel is over and the queue empty.  After an error it only empties
 * the queue.
 */
static void *core_lane_main(void *arg)
{
	struct core_lane *l = arg;
	struct asc_core *c = l->core;
	struct sched_param batch = { .sched_priority = 0 };
	struct core_item it;
	bool skip, ran;

	/*
	 * SCHED_BATCH, as a pipe of the chip runs what it was given without
	 * taking the scalar's place: waking it does not preempt the thread
	 * that wakes it (the scalar issuing ahead, or the pipe whose set it
	 * waits for), which runs on until it blocks.  On one CPU that is one
	 * switch between the threads per block instead of one per
	 * instruction issued.  Where the policy cannot be had, the thread
	 * keeps the scalar's.
	 */
	pthread_setschedparam(pthread_self(), SCHED_BATCH, &batch);
	if (asc_pipe_bind(c->pipe, l->pipe_id) < 0)
		asc_core_call_fail(c, errno, "the thread of %s: bind to %s",
			       core_pipe_name(l->pipe_id),
			       core_pipe_name(l->pipe_id));

	pthread_mutex_lock(c->lock);
	for (;;) {
		while (!l->qlen && !c->stopping) {
			l->idle = true;
			pthread_cond_wait(&l->wake, c->lock);
			l->idle = false;
		}
		if (!l->qlen)
			break;
		it = l->q[l->qhead];
		l->qhead = (l->qhead + 1) % CORE_QUEUE_MAX;
		l->qlen--;
		l->busy = true;
		skip = c->err;
		pthread_mutex_unlock(c->lock);

		ran = !skip && core_lane_run(c, l, &it);
		free(it.name);

		pthread_mutex_lock(c->lock);
		if (ran)
			asc_core_count_flag(c, &it);
		if (it.kind == CORE_TICKET) {
			l->tk_head = (l->tk_head + 1) % ASC_EVENT_QUEUE_DEPTH;
			l->tk_count--;
		}
		l->busy = false;
		if (c->launch && !l->qlen)
			asc_launch_check(c->launch);
		if (c->waiting && (c->wait_lane < 0 ? core_idle(c) :
				   &c->lane[c->wait_lane] == l &&
				   l->qlen <= c->wait_items &&
				   l->tk_count <= c->wait_tickets))
			pthread_cond_signal(&c->progress);
	}
	pthread_mutex_unlock(c->lock);
	return NULL;
}

/* Start @l's thread, with every signal blocked: signals are the program's. */
static int core_lane_start(struct core_lane *l)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&l->thread, NULL, core_lane_main, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		l->started = true;
	return err;
}

/*
 * Hand @it to its pipe; a ticket at detector position @pos.  Return: 0,
 * or -1 with errno.
 */
int asc_core_enqueue(struct asc_core *c, int lane,
			const struct core_item *it, uint32_t pos)
{
	struct core_lane *l = &c->lane[lane];
	const char *what = "the queue of";
	struct core_item *q;
	int err = 0;

	pthread_mutex_lock(c->lock);
	if (c->err) {
		pthread_mutex_unlock(c->lock);
		errno = c->err;
		return -1;
	}
	if (!l->started) {
		err = ENOMEM;
		l->q = malloc(CORE_QUEUE_MAX * sizeof(*l->q));
		if (!l->q)
			goto out;
		what = "the thread of";
		err = core_lane_start(l);
		if (err)
			goto out;
	}
	q = &l->q[(l->qhead + l->qlen++) % CORE_QUEUE_MAX];
	*q = *it;
	q->site = c->site;
	q->pos = pos;
	if (it->kind == CORE_TICKET)
		l->tk_pos[(l->tk_head + l->tk_count++) % ASC_EVENT_QUEUE_DEPTH] = pos;
	if (l->idle)
		pthread_cond_signal(&l->wake);
out:
	pthread_mutex_unlock(c->lock);
	if (!err)
		return 0;
	return asc_core_call_fail(c, err, "#%lu: %s %s", it->seq, what,
			      core_pipe_name(l->pipe_id));
}

/* The scalar waits until every pipe is idle. */
static int core_drain(struct asc_core *c)
{
	pthread_mutex_lock(c->lock);
	c->waiting = true;
	c->wait_lane = -1;
	if (c->launch)
		asc_launch_check(c->launch);
	while (!c->err && !core_idle(c))
		pthread_cond_wait(&c->progress, c->lock);
	c->waiting = false;
	pthread_mutex_unlock(c->lock);
	errno = core_error(c);
	return errno ? -1 : 0;
}

/*
 * Before an instruction (a ticket when @ticket) goes to @lane.  The queue
 * is full when it holds CORE_QUEUE_MAX instructions or, for a ticket,
 * ASC_EVENT_QUEUE_DEPTH tickets not yet run.  When the detector's queue
 * of the pipe (what it has not run) is full, the pipe never gets further:
 * EDEADLK, at the same instruction on every run.  When only the real one
 * is, the scalar waits until the pipe has run what the detector has, down
 * to half the queue at most.
 */
int asc_core_room(struct asc_core *c, int lane, bool ticket)
{
	struct core_lane *l = &c->lane[lane];
	unsigned int k, tickets = UINT_MAX;
	uint32_t done, issued;
	size_t items;
	char when[96];

	done = asc_race_done(c->race, l->pipe_id);
	issued = asc_race_issued(c->race, l->pipe_id);
	pthread_mutex_lock(c->lock);
	/* The tickets the detector has not run are the newest of the ring. */
	for (k = 0; k < l->tk_count &&
	     l->tk_pos[(l->tk_head + l->tk_count - 1 - k) % ASC_EVENT_QUEUE_DEPTH] > done;
	     k++)
		;
	if (issued - done >= CORE_QUEUE_MAX ||
	    (ticket && k >= ASC_EVENT_QUEUE_DEPTH)) {
		pthread_mutex_unlock(c->lock);
		snprintf(when, sizeof(when), "when the queue of %s is full (#%lu)",
			 core_pipe_name(l->pipe_id), c->seq);
		asc_race_reach(c->race, l->pipe_id, done + 1, when);
		return asc_core_race_fail(c, when);
	}
	if (l->qlen + l->busy < CORE_QUEUE_MAX &&
	    (!ticket || l->tk_count < ASC_EVENT_QUEUE_DEPTH)) {
		pthread_mutex_unlock(c->lock);
		return 0;
	}
	items = issued - done;
	if (items < CORE_QUEUE_MAX / 2)
		items = CORE_QUEUE_MAX / 2;
	if (ticket)
		tickets = k > ASC_EVENT_QUEUE_DEPTH / 2 ? k : ASC_EVENT_QUEUE_DEPTH / 2;
	c->waiting = true;
	c->wait_lane = lane;
	c->wait_items = items;
	c->wait_tickets = tickets;
	if (c->launch)
		asc_launch_check(c->launch);
	while (!c->err && (l->qlen + l->busy > items || l->tk_count > tickets))
		pthread_cond_wait(&c->progress, c->lock);
	c->waiting = false;
	pthread_mutex_unlock(c->lock);
	errno = core_error(c);
	return errno ? -1 : 0;
}

/*
 * A wait on S, which the detector found a set for: in slices, so that an
 * error of a pipe (whose set then never comes) is noticed.
 */
static int core_wait_s_slices(struct asc_core *c, int event, int id)
{
	for (;;) {
		if (!asc_wait_flag_timeout(c->pipe, event, id, CORE_WAIT_SLICE_NS))
			return 0;
		if (core_error(c))
			return core_error(c);
		if (errno != ETIMEDOUT && errno != EINTR)
			return errno;
	}
}

/*
 * In a launch, the deadlock detector knows the wait on S and counts the
 * sets and waits of each flag run (struct asc_core).
 */
static int core_wait_s(struct asc_core *c, int event, int id)
{
	int err;

	if (!c->launch)
		return core_wait_s_slices(c, event, id);
	pthread_mutex_lock(c->lock);
	c->block = CORE_BLOCK_FLAG;
	c->block_event = event;
	c->block_id = id;
	c->block_seq = c->seq;
	c->block_site = c->site;
	asc_launch_check(c->launch);
	pthread_mutex_unlock(c->lock);
	err = core_wait_s_slices(c, event, id);
	pthread_mutex_lock(c->lock);
	c->block = CORE_RUNS;
	if (!err)
		c->flag_waits[event * ASC_EVENT_IDS_MAX + id]++;
	pthread_mutex_unlock(c->lock);
	return err;
}

static int core_set_s(struct asc_core *c, int event, int id)
{
	if (asc_set_flag(c->pipe, event, id))
		return errno;
	if (c->launch) {
		pthread_mutex_lock(c->lock);
		c->flag_sets[event * ASC_EVENT_IDS_MAX + id]++;
		pthread_mutex_unlock(c->lock);
	}
	return 0;
}

static bool core_access_valid(const struct asc_access *acc, unsigned int nacc)
{
	unsigned int i;

	if (nacc && !acc)
		return false;
	for (i = 0; i < nacc; i++)
		if (!acc[i].addr || !acc[i].size ||
		    (uintptr_t)acc[i].addr + acc[i].size - 1 < (uintptr_t)acc[i].addr)
			return false;
	return true;
}

int asc_core_issue_work(struct asc_core *c, int pipe_id, asc_work_fn fn,
			void *arg, bool is_op, const struct asc_op *op,
			const char *what, const struct asc_access *acc,
			unsigned int nacc)
{
	struct core_item it = { .kind = CORE_WORK, .fn = fn, .arg = arg };
	const char *bad = NULL;
	int lane, pos;

	if (asc_core_enter(c))
		return -1;
	it.seq = c->seq;
	lane = asc_core_lane_of(pipe_id);
	if (lane < 0)
		bad = "not a pipe";
	else if (!is_op && !fn)
		bad = "no function";
	else if (!core_access_valid(acc, nacc))
		bad = "a bad access";
	else if (is_op)
		bad = asc_work_op_invalid(op, pipe_id, acc, nacc);
	if (bad)
		return asc_core_call_fail(c, EINVAL, "#%lu %s(%d, %s): %s",
				      it.seq, is_op ? "issue_op" : "issue",
				      pipe_id, what ? what : "work", bad);
	if (is_op)
		it.op = *op;
	if (asc_memcheck_access(c, pipe_id, it.seq, what, acc, nacc))
		return -1;
	if (lane != CORE_S && asc_core_room(c, lane, false))
		return -1;
	pos = asc_race_work(c->race, pipe_id, it.seq, what, acc, nacc);
	if (pos < 0)
		return asc_core_race_fail(c, "the detector");
	if (c->marker.fd >= 0)
		it.name = asc_marker_name(what);
	if (lane == CORE_S) {
		core_work(c, pipe_id, &it);
		free(it.name);
		return 0;
	}
	if (asc_core_enqueue(c, lane, &it, pos)) {
		free(it.name);
		return -1;
	}
	return 0;
}

ASC_API int asc_core_issue(struct asc_core *c, int pipe_id, asc_work_fn fn,
			   void *arg, const char *what,
			   const struct asc_access *acc, unsigned int nacc)
{
	return asc_core_issue_work(c, pipe_id, fn, arg, false, NULL, what,
				   acc, nacc);
}

/*
 * Issue a set (@set) or wait of (@event, @id) as the instruction the
 * scalar is making (@c->seq), checked: to its pipe's queue, or run at
 * once on S.  @name: the queue call that issues it, for the trace marker
 * and the report (NULL for the kernel's own set or wait).
 */
int asc_core_flag_issue(struct asc_core *c, bool set, int event, int id,
			const char *name)
{
	struct core_item it = { .kind = CORE_TICKET, .event = event, .id = id,
				.set = set, .seq = c->seq, .after_wait = name && set };
	const char *op = set ? "set_flag" : "wait_flag";
	char by[80] = "";
	int pipe_id, lane, pos, err;

	if (name)
		snprintf(by, sizeof(by), " (%s)", name);
	pipe_id = set ? asc_hard_event_src_pipe(event) :
			asc_hard_event_dst_pipe(event);
	lane = asc_core_lane_of(pipe_id);

	if (lane == CORE_S) {
		if (asc_race_flag_named(c->race, set, it.seq, event, id, name) < 0)
			return asc_core_race_fail(c, op);
		err = set ? core_set_s(c, event, id) :
			    core_wait_s(c, event, id);
		if (err)
			return asc_core_call_fail(c, err, "#%lu %s(%s, %d)%s on S",
					      it.seq, op,
					      asc_hard_event_name(event), id, by);
		return 0;
	}

	if (asc_core_room(c, lane, true))
		return -1;
	if (asc_pipe_issue(c->pipe, set, event, id, &it.ticket))
		return asc_core_call_fail(c, errno, "#%lu %s(%s, %d)%s issued to %s",
				      it.seq, op, asc_hard_event_name(event),
				      id, by, core_pipe_name(pipe_id));
	pos = asc_race_flag_que(c->race, set, it.seq, event, id, name, it.after_wait);
	if (pos < 0)
		return asc_core_race_fail(c, op);
	if (name && c->marker.fd >= 0)
		it.name = asc_marker_name(name);
	if (asc_core_enqueue(c, lane, &it, pos)) {
		free(it.name);
		return -1;
	}
	return 0;
}

/* The kernel's own set_flag or wait_flag. */
static int core_flag(struct asc_core *c, bool set, int event, int id)
{
	const char *op = set ? "set_flag" : "wait_flag";

	if (asc_core_enter(c))
		return -1;
	if (!asc_event_valid(event) || id < 0 || id >= asc_event_ids(c->pipe))
		return asc_core_call_fail(c, EINVAL, "#%lu %s(%d, %d): %s", c->seq,
				      op, event, id,
				      asc_event_valid(event) ? "no such ID" :
				      "no such HardEvent");
	if (asc_que_user_id(c, event, id, op))
		return -1;
	return asc_core_flag_issue(c, set, event, id, NULL);
}

ASC_API int asc_core_set_flag(struct asc_core *c, int event, int id)
{
	return core_flag(c, true, event, id);
}

ASC_API int asc_core_wait_flag(struct asc_core *c, int event, int id)
{
	return core_flag(c, false, event, id);
}

/* The scalar waits for every pipe to run everything: @when for the report. */
static int core_drain_checked(struct asc_core *c, const char *when)
{
	if (asc_race_drain(c->race, when))
		return asc_core_race_fail(c, when);
	return core_drain(c);
}

ASC_API int asc_core_pipe_barrier(struct asc_core *c, int pipe_id)
{
	int lane;

	if (asc_core_enter(c))
		return -1;
	if (pipe_id == ASC_PIPE_ALL)
		return asc_core_barrier_all(c);
	lane = asc_core_lane_of(pipe_id);
	if (lane < 0)
		return asc_core_call_fail(c, EINVAL, "#%lu pipe_barrier(%d): not a pipe",
				      c->seq, pipe_id);
	if (lane == CORE_S)
		return asc_core_call_fail(c, EINVAL,
				      "#%lu pipe_barrier(S): not supported, a hardware error on the chip",
				      c->seq);
	if (asc_race_barrier(c->race, pipe_id, c->seq) < 0)
		return asc_core_race_fail(c, "pipe_barrier");
	return 0;
}

/*
 * The scalar waits until every pipe has run what the detector has run (a
 * pipe can always get there, and never further).
 */
static int core_catch_up(struct asc_core *c)
{
	struct core_lane *l;
	uint32_t pending;
	int lane;

	for (lane = 0; lane < CORE_LANES; lane++) {
		if (lane == CORE_S)
			continue;
		l = &c->lane[lane];
		pending = asc_race_issued(c->race, l->pipe_id) -
			  asc_race_done(c->race, l->pipe_id);
		pthread_mutex_lock(c->lock);
		if (l->qlen + l->busy > pending) {
			c->waiting = true;
			c->wait_lane = lane;
			c->wait_items = pending;
			c->wait_tickets = UINT_MAX;
			if (c->launch)
				asc_launch_check(c->launch);
			while (!c->err && l->qlen + l->busy > pending)
				pthread_cond_wait(&c->progress, c->lock);
			c->waiting = false;
		}
		pthread_mutex_unlock(c->lock);
		errno = core_error(c);
		if (errno)
			return -1;
	}
	return 0;
}

/*
 * In checked mode, whether an ID hand-written code uses collides with the
 * one alloc hands out is the detector's to say, from the issue
 * order: first the pipes catch up with it, so that the device's view of
 * the hand-written uses is the detector's (the device refuses only IDs
 * the detector finds in use too); then an ID whose next set could come
 * before the wait of an earlier one is refused as well.
 */
static bool core_decides_collisions(const struct asc_core *c, int event)
{
	return (c->mode & ASC_MODE_CHECKED) && !(c->mode & ASC_MODE_STRICT_IDS) &&
	       asc_race_event_used(c->race, event);
}

/* alloc (@alloc) or fetch of an ID of @event, on the scalar. */
static int core_id_query(struct asc_core *c, bool alloc, int event)
{
	const char *op = alloc ? "alloc_event_id" : "fetch_event_id";
	struct asc_report text = { 0 };
	bool decide;
	int id, err;

	if (asc_core_enter(c))
		return -1;
	if (!asc_event_valid(event))
		return asc_core_call_fail(c, EINVAL, "#%lu %s(%d): no such HardEvent",
				      c->seq, op, event);
	decide = alloc && core_decides_collisions(c, event);
	if (decide && core_catch_up(c))
		return -1;
	id = alloc ? asc_alloc_event_id(c->pipe, event) :
		     asc_fetch_event_id(c->pipe, event);
	if (id >= 0 && decide && asc_race_may_collide(c->race, event, id)) {
		asc_release_event_id(c->pipe, id, event);
		id = -1;
		errno = EADDRINUSE;
	}
	if (id >= 0) {
		if (alloc)
			asc_que_hold(c, event, id);
		return id;
	}
	err = errno;
	if (err == EADDRINUSE)
		asc_race_uses(c->race, event, &text);
	else if (err == ENOSPC)
		asc_que_holders(c, event, &text);
	return asc_core_site_fail(c, &c->site, "error", err, &text,
				  "#%lu %s(%s) on S", c->seq, op,
				  asc_hard_event_name(event));
}

ASC_API int asc_core_alloc_event_id(struct asc_core *c, int event)
{
	return core_id_query(c, true, event);
}

ASC_API int asc_core_fetch_event_id(struct asc_core *c, int event)
{
	return core_id_query(c, false, event);
}

ASC_API int asc_core_release_event_id(struct asc_core *c, int id, int event)
{
	if (asc_core_enter(c))
		return -1;
	if (!asc_event_valid(event))
		return asc_core_call_fail(c, EINVAL,
				      "#%lu release_event_id(%d, %d): no such HardEvent",
				      c->seq, id, event);
	if (id >= 0 && id < asc_event_ids(c->pipe) &&
	    asc_que_user_id(c, event, id, "release_event_id"))
		return -1;
	if (asc_release_event_id(c->pipe, id, event) < 0)
		return asc_core_call_fail(c, errno, "#%lu release_event_id(%d, %s) on S",
				      c->seq, id, asc_hard_event_name(event));
	asc_que_unhold(c, event, id);
	asc_race_release(c->race, event, id, c->seq);
	return 0;
}

/*
 * TPipe.Reset() (@reset) or TPipe.Init(): what the scalar must find, then
 * the pool reset and every buffer forgotten.
 */
static int core_tpipe_reset(struct asc_core *c, bool reset)
{
	const char *what = reset ? "reset" : "init";
	char when[160], before[160], at[96];

	if (asc_core_enter(c))
		return -1;
	asc_core_site_text(&c->site, at, sizeof(at));
	snprintf(when, sizeof(when), "at %s (#%lu%s)", what, c->seq, at);
	snprintf(before, sizeof(before), "before %s (#%lu%s)", what, c->seq, at);
	if (asc_que_leftovers(c, when))
		return -1;
	if (reset && asc_que_wait_frees(c, "reset"))
		return -1;
	if (core_drain_checked(c, when))
		return -1;
	if (asc_race_leftovers(c->race, before))
		return asc_core_race_fail(c, before);
	if (asc_que_leaked_ids(c, before))
		return -1;
	if (asc_pipe_reset(c->pipe) < 0)
		return asc_core_call_fail(c, errno, "#%lu %s on S", c->seq, what);
	asc_que_forget(c);
	if (!reset)
		asc_que_set_destroyed(c, false);
	return 0;
}

ASC_API int asc_core_reset(struct asc_core *c)
{
	return core_tpipe_reset(c, true);
}

ASC_API int asc_core_tpipe_init(struct asc_core *c)
{
	return core_tpipe_reset(c, false);
}

/*
 * pipe_barrier(PIPE_ALL) as the instruction the scalar is making: the
 * scalar waits for every pipe, and all of it is ordered before what comes
 * after.
 */
int asc_core_barrier_all(struct asc_core *c)
{
	if (asc_race_barrier(c->race, ASC_PIPE_ALL, c->seq) < 0)
		return asc_core_race_fail(c, "pipe_barrier(ALL)");
	return core_drain(c);
}

ASC_API int asc_core_tpipe_destroy(struct asc_core *c)
{
	char before[160], at[96];

	if (asc_core_enter(c))
		return -1;
	asc_core_site_text(&c->site, at, sizeof(at));
	snprintf(before, sizeof(before), "before destroy (#%lu%s)", c->seq, at);
	if (asc_que_wait_frees(c, "destroy") || asc_core_barrier_all(c))
		return -1;
	if (asc_race_leftovers(c->race, before))
		return asc_core_race_fail(c, before);
	if (asc_que_leaked_ids(c, before))
		return -1;
	asc_que_set_destroyed(c, true);
	return 0;
}

/*
 * The _at variants: the plain call at a call site (see "Call sites" in
 * asc.h).
 */
ASC_API int asc_core_issue_at(struct asc_core *c, int pipe_id, asc_work_fn fn,
			      void *arg, const char *what,
			      const struct asc_access *acc, unsigned int nacc,
			      const char *file, int line)
{
	CORE_AT(int, asc_core_issue(c, pipe_id, fn, arg, what, acc, nacc));
}

ASC_API int asc_core_set_flag_at(struct asc_core *c, int event, int id,
				 const char *file, int line)
{
	CORE_AT(int, asc_core_set_flag(c, event, id));
}

ASC_API int asc_core_wait_flag_at(struct asc_core *c, int event, int id,
				  const char *file, int line)
{
	CORE_AT(int, asc_core_wait_flag(c, event, id));
}

ASC_API int asc_core_pipe_barrier_at(struct asc_core *c, int pipe_id,
				     const char *file, int line)
{
	CORE_AT(int, asc_core_pipe_barrier(c, pipe_id));
}

ASC_API int asc_core_alloc_event_id_at(struct asc_core *c, int event,
				       const char *file, int line)
{
	CORE_AT(int, asc_core_alloc_event_id(c, event));
}

ASC_API int asc_core_fetch_event_id_at(struct asc_core *c, int event,
				       const char *file, int line)
{
	CORE_AT(int, asc_core_fetch_event_id(c, event));
}

ASC_API int asc_core_release_event_id_at(struct asc_core *c, int id, int event,
					 const char *file, int line)
{
	CORE_AT(int, asc_core_release_event_id(c, id, event));
}

ASC_API int asc_core_reset_at(struct asc_core *c, const char *file, int line)
{
	CORE_AT(int, asc_core_reset(c));
}

ASC_API int asc_core_tpipe_init_at(struct asc_core *c, const char *file,
				   int line)
{
	CORE_AT(int, asc_core_tpipe_init(c));
}

ASC_API int asc_core_tpipe_destroy_at(struct asc_core *c, const char *file,
				      int line)
{
	CORE_AT(int, asc_core_tpipe_destroy(c));
}

ASC_API struct asc_pipe *asc_core_pipe(struct asc_core *c)
{
	if (!c) {
		errno = EINVAL;
		return NULL;
	}
	return c->pipe;
}

/*
 * A core with no pipe open and no thread started, its own lock, in no
 * launch; NULL when out of memory.
 */
struct asc_core *asc_core_new(void)
{
	size_t nflags = ASC_HARD_EVENT_COUNT * ASC_EVENT_IDS_MAX;
	struct asc_core *c = calloc(1, sizeof(*c));
	int i;

	if (!c)
		return NULL;
	c->race = asc_race_new();
	c->memcheck = asc_memcheck_new();
	c->flag_sets = calloc(nflags, sizeof(*c->flag_sets));
	c->flag_waits = calloc(nflags, sizeof(*c->flag_waits));
	if (c->race)
		asc_race_buffers(c->race, asc_memcheck_gm_at, c);
	if (!c->race || !c->memcheck || !c->flag_sets || !c->flag_waits) {
		asc_race_free(c->race);
		asc_memcheck_free(c->memcheck);
		free(c->flag_sets);
		free(c->flag_waits);
		free(c);
		return NULL;
	}
	pthread_cond_init(&c->flag_cond, NULL);
	c->marker.fd = -1;
	pthread_mutex_init(&c->own_lock, NULL);
	c->lock = &c->own_lock;
	c->block_num = 1;
	c->sub_block_num = 1;
	pthread_cond_init(&c->progress, NULL);
	for (i = 0; i < CORE_LANES; i++) {
		c->lane[i].core = c;
		c->lane[i].pipe_id = core_lane_pipe[i];
		pthread_cond_init(&c->lane[i].wake, NULL);
	}
	return c;
}

/*
 * Stop and join the pipes' threads, close the TPipe.  A core of a launch
 * is gone from then on; the launch frees it (asc_core_destroy()).
 */
void asc_core_stop(struct asc_core *c)
{
	int i;

	pthread_mutex_lock(c->lock);
	c->stopping = true;
	for (i = 0; i < CORE_LANES; i++)
		pthread_cond_signal(&c->lane[i].wake);
	pthread_mutex_unlock(c->lock);
	for (i = 0; i < CORE_LANES; i++) {
		if (c->lane[i].started)
			pthread_join(c->lane[i].thread, NULL);
	}
	if (c->launch) {
		pthread_mutex_lock(c->lock);
		c->gone = true;
		asc_launch_check(c->launch);
		pthread_mutex_unlock(c->lock);
	}
	asc_pipe_close(c->pipe);
	c->pipe = NULL;
	asc_marker_close(&c->marker);
}

/* Free a core asc_core_stop() stopped, or that never started. */
void asc_core_destroy(struct asc_core *c)
{
	int i;

	for (i = 0; i < CORE_LANES; i++) {
		pthread_cond_destroy(&c->lane[i].wake);
		free(c->lane[i].q);
	}
	asc_race_free(c->race);
	asc_memcheck_free(c->memcheck);
	pthread_cond_destroy(&c->progress);
	pthread_cond_destroy(&c->flag_cond);
	pthread_mutex_destroy(&c->own_lock);
	free(c->flag_sets);
	free(c->flag_waits);
	free(c->gm_waits);
	free(c->report);
	asc_que_free(c);
	for (i = 0; i < (int)c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c);
}

/* Open the TPipe in the mode @attr asks for; the calling thread is S. */
int asc_core_setup(struct asc_core *c, const struct asc_core_attr *attr)
{
	const char *dev = attr ? attr->device : NULL;
	int mode = ASC_MODE_CHECKED;

	if (attr && attr->unchecked)
		mode = 0;
	else if (attr && attr->strict_ids)
		mode |= ASC_MODE_STRICT_IDS;

	c->scalar = pthread_self();
	asc_marker_open(&c->marker);
	c->pipe = asc_pipe_open(dev);
	if (!c->pipe)
		return asc_core_call_fail(c, errno, "asc_pipe_open(%s)",
				      dev ? dev : "default device");
	if (!asc_pipe_has_issue(c->pipe))
		return asc_core_call_fail(c, ENOTTY,
				      "the driver cannot issue instructions (no ASC_EVENT_IOC_ISSUE)");
	if (asc_pipe_set_mode(c->pipe, mode) < 0)
		return asc_core_call_fail(c, errno, "asc_pipe_set_mode(%d)", mode);
	c->mode = mode;
	if (asc_pipe_bind(c->pipe, ASC_PIPE_S) < 0)
		return asc_core_call_fail(c, errno, "asc_pipe_bind(S)");
	return 0;
}

/* The kernel returned: the pipes must drain, every flag set be waited for. */
void asc_core_finish(struct asc_core *c)
{
	const char *end = "at the end of the kernel";

	if (core_error(c))
		return;
	/* Nothing is an instruction of the kernel now: no call site. */
	c->site.file = NULL;
	c->ended = true;
	asc_race_site(c->race, NULL, 0);
	if (asc_que_leftovers(c, "by the end of the kernel"))
		return;
	/* TPipe's destructor, numbered as an instruction of its own. */
	if (!asc_que_destroyed(c)) {
		c->seq++;
		if (asc_que_wait_frees(c, "~TPipe"))
			return;
	}
	if (core_drain_checked(c, end))
		return;
	if (asc_race_leftovers(c->race, "by the end of the kernel")) {
		asc_core_race_fail(c, end);
		return;
	}
	asc_que_leaked_ids(c, "by the end of the kernel");
}

/*
 * Cancel from another thread: the first error, EINTR, as a pipe's error is
 * recorded; asc_core_fail() resets the TPipe (and, in a launch, every
 * core's), which ends the waits blocked in the driver, and the scalar's
 * wait on S sees the error within a slice.
 */
ASC_API int asc_core_cancel(struct asc_core *c)
{
	struct asc_report text = { 0 };

	if (!c)
		return asc_einval();
	asc_report_add(&text, "error: %s(): the run was cancelled: %s", __func__,
		       strerror(EINTR));
	asc_core_fail(c, EINTR, asc_report_take(&text));
	return 0;
}

ASC_API int asc_core_run(asc_kernel_fn kernel, void *arg,
			 const struct asc_core_attr *attr, char **report)
{
	struct asc_core *c;
	int err;

	if (report)
		*report = NULL;
	if (!kernel || (attr && attr->unchecked && attr->strict_ids))
		return asc_einval();
	c = asc_core_new();
	if (!c)
		return -1;
	if (!asc_core_setup(c, attr) && !asc_que_setup(c)) {
		kernel(c, arg);
		asc_core_finish(c);
	}
	err = core_error(c);
	if (report) {
		*report = err ? c->report : asc_memcheck_warnings(c);
		if (err)
			c->report = NULL;
	}
	asc_core_stop(c);
	asc_core_destroy(c);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
