// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: the parsed records as a timeline, what the JSON and the SVG
 * writers draw.
 *
 * Every TPipe (by serial number) gets one lane per pipe that appears in its
 * records, ordered the way data moves through an AI core: S, MTE2, MTE1, M,
 * FIX, V, MTE3, then the calls of unbound threads ("-", shown as
 * "unbound").  A wait becomes one item from its wait_start to its wait_end
 * (matched per thread: a thread waits for one flag at a time); sets, allocs,
 * fetches, releases and deadlock reports are points on their lane; resets
 * and leak reports are points for the whole TPipe.
 *
 * The records of multi-core launches (launch.c places the TPipes
 * in their launches): a cross-core wait or SyncAll is one record, at its
 * end, and becomes a wait from waited_ns before it; a cross-core set and
 * a cross-core deadlock report are points on their lane, a join or leave
 * a point for the whole TPipe; the launch record itself is no item.
 *
 * Spans: the work items libasc's core runtime ran, from the begin line to
 * the end line of the same item (n) on the same lane (a pipe runs one item
 * at a time).  A begin whose end is not in the trace is closed,
 * unfinished, at the next begin on its lane (its end was lost) or at the
 * end of the trace (the command was killed in it); an end without its
 * begin is counted and skipped.
 *
 * Hand-offs: a flag is one bit, so the successful sets and consuming waits
 * of one (TPipe, HardEvent, ID) alternate, and each consuming wait took the
 * flag of the set before it.  A set is traced after it woke the waiter, so
 * the waiter's wait_end may come first in the trace; such a wait is kept
 * until the next set of its flag.  A reset clears the TPipe's flags and
 * forgets both.
 *
 * Records come in time order, in ns (the per-CPU buffers merged by their
 * timestamps); the rare record whose time equals or precedes the one before
 * (equal ns on two CPUs, or a saved text trace's microseconds) is moved
 * 1 ns after it, so that the timeline keeps the order of the trace.
 */
#define _GNU_SOURCE
#include <asc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/asc_event.h>

#include "ascctl.h"


/* Data path order of the lanes; anything else after them. */
static const char *const lane_order[] = { "S", "MTE2", "MTE1", "M", "FIX", "V", "MTE3", "-" };
#define NR_KNOWN_LANES	((int)(sizeof(lane_order) / sizeof(lane_order[0])))

/**
 * struct flag_state - hand-off matching of one (HardEvent, ID) of a TPipe,
 * an entry of an open-addressing hash table.
 * @used: the entry holds a flag.
 * @tpipe: index of the TPipe.
 * @key: HardEvent * %ASC_EVENT_IDS_MAX + ID.
 * @epoch: the TPipe's reset count when @set and @wait were last valid; a
 *	reset forgets every flag of the TPipe by counting up.
 * @set: set item whose flag no wait has consumed yet, or -1.
 * @wait: consuming wait item that came before its set in the trace, or -1.
 */
struct flag_state {
	bool used;
	int tpipe;
	int key;
	unsigned int epoch;
	long set;
	long wait;
};

/**
 * struct open_wait - a wait_start not yet ended.
 * @tid: the waiting thread.
 * @rec: index of its wait_start record.
 */
struct open_wait {
	int tid;
	size_t rec;
};

/**
 * struct tl_builder - state of asc_timeline_build() while it runs.
 * @tl: the timeline being built.
 * @ts: per record, ns since the first record, strictly increasing.
 * @flags: the flags seen, hashed; at most half full.
 * @flags_mask: number of entries of @flags minus one (a power of two).
 * @epoch: per TPipe, how many resets it had.
 * @open: waits started and not ended.
 * @nr_open: how many.
 * @open_span: per TPipe and lane (ASC_TL_MAX_LANES * TPipe + lane), the
 *	record of the span begun and not ended, or -1.
 * @cap_items: room in tl->items.
 */
struct tl_builder {
	struct asc_timeline *tl;
	uint64_t *ts;
	struct flag_state *flags;
	size_t flags_mask;
	unsigned int *epoch;
	struct open_wait *open;
	size_t nr_open;
	long *open_span;
	size_t cap_items;
};

/**
 * asc_errno_name() - the name of an error code from a tracepoint.
 * @ret: 0 or a negative errno.
 *
 * Return: "ok", "EBUSY", ..., "ERESTARTSYS" (a signal ended the call), or
 * "error <ret>" (in a static buffer) for a code nobody names.
 */
const char *asc_errno_name(int ret)
{
	/* Kernel-internal codes a tracepoint may see: a signal interrupted the call. */
	static const char *const restart[] = {
		"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
		"ERESTART_RESTARTBLOCK",
	};
	static char buf[24];
	const char *name;

	if (!ret)
		return "ok";
	if (ret <= -512 && ret >= -516)
		return restart[-ret - 512];
	name = ret < 0 ? strerrorname_np(-ret) : NULL;
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "error %d", ret);
	return buf;
}

/**
 * asc_tl_item_failed() - whether an item is drawn as a failure.
 * @it: the item.
 *
 * Failed calls, deadlock reports, leak reports and waits still blocked at
 * the end of the trace are failures; a wait that timed out is not (timed
 * waits and polls time out by design).
 *
 * Return: true for a failure.
 */
bool asc_tl_item_failed(const struct asc_tl_item *it)
{
	if (it->kind == ASC_TL_SPAN)
		return false;
	switch (it->rec->kind) {
	case ASC_REC_DEADLOCK:
	case ASC_REC_CROSS_DEADLOCK:
	case ASC_REC_LEAK:
		return true;
	case ASC_REC_RESET:
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
		return false;
	default:
		break;
	}
	if (it->unfinished)
		return true;
	return it->rec->ret < 0 && !(it->kind == ASC_TL_WAIT && it->rec->ret == -ETIMEDOUT);
}

/**
 * asc_tl_item_title() - a short description of an item.
 * @it: the item.
 * @buf: where it goes.
 * @size: size of @buf.
 *
 * "set V_MTE3:0", "wait MTE2_V:1 ETIMEDOUT", "reset", "leak at close",
 * "deadlock: waits V_MTE3:0"...; a span's name, "copy_in"; for launches
 * "cross_set 1 mode 2", "cross_wait 1", "sync_all", "join launch 1 core 2",
 * "leave launch 1 core 2", "deadlock: waits cross 1".
 *
 * Return: what snprintf() returns.
 */
int asc_tl_item_title(const struct asc_tl_item *it, char *buf, size_t size)
{
	const struct asc_rec *r = it->rec;

	switch (r->kind) {
	case ASC_REC_SPAN_BEGIN:
		return snprintf(buf, size, "%s", r->name ? r->name : "");
	case ASC_REC_RESET:
		return snprintf(buf, size, "reset");
	case ASC_REC_LEAK:
		return snprintf(buf, size, "leak at %s", r->at[0] ? r->at : "?");
	case ASC_REC_DEADLOCK:
		return snprintf(buf, size, "deadlock: waits %s:%d", r->event, r->id);
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
		return snprintf(buf, size, "%s launch %u core %d", asc_rec_kind_name(r->kind),
				r->launch, r->core);
	case ASC_REC_CROSS_DEADLOCK:
		return r->sync ? snprintf(buf, size, "deadlock: waits sync_all") :
		       snprintf(buf, size, "deadlock: waits cross %d", r->flag);
	case ASC_REC_CROSS_SET:
		return snprintf(buf, size, "cross_set %d mode %d%s%s", r->flag, r->mode,
				r->ret ? " " : "", r->ret ? asc_errno_name(r->ret) : "");
	case ASC_REC_CROSS_WAIT:
		return snprintf(buf, size, "cross_wait %d%s%s", r->flag, r->ret ? " " : "",
				r->ret ? asc_errno_name(r->ret) : "");
	case ASC_REC_SYNC_ALL:
		return snprintf(buf, size, "sync_all%s%s", r->ret ? " " : "",
				r->ret ? asc_errno_name(r->ret) : "");
	case ASC_REC_WAIT_START:
		return snprintf(buf, size, "wait %s:%d unfinished", r->event, r->id);
	case ASC_REC_WAIT_END:
		return snprintf(buf, size, "wait %s:%d%s%s", r->event, r->id, r->ret ? " " : "",
				r->ret ? asc_errno_name(r->ret) : "");
	default:
		return snprintf(buf, size, "%s %s:%d%s%s", asc_rec_kind_name(r->kind), r->event,
				r->id, r->ret ? " " : "", r->ret ? asc_errno_name(r->ret) : "");
	}
}

static int lane_rank(const char *name)
{
	int i;

	for (i = 0; i < NR_KNOWN_LANES; i++)
		if (!strcmp(lane_order[i], name))
			return i;
	return NR_KNOWN_LANES;
}

static bool rec_is_span(const struct asc_rec *r)
{
	return r->kind == ASC_REC_SPAN_BEGIN || r->kind == ASC_REC_SPAN_END;
}

static bool rec_has_lane(const struct asc_rec *r)
{
	switch (r->kind) {
	case ASC_REC_RESET:
	case ASC_REC_LEAK:
	case ASC_REC_LAUNCH:
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
		return false;
	default:
		return true;
	}
}

/**
 * asc_tl_find_tpipe() - the index of a TPipe in @tl->tpipes, which is
 *	sorted by serial.
 * @tl: the timeline.
 * @serial: the TPipe's serial.
 *
 * Return: the index, or -1 when no TPipe has @serial.
 */
int asc_tl_find_tpipe(const struct asc_timeline *tl, uint32_t serial)
{
	int lo = 0, hi = tl->nr_tpipes;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (tl->tpipes[mid].serial < serial)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tl->nr_tpipes && tl->tpipes[lo].serial == serial ? lo : -1;
}

static int find_lane(const struct asc_tl_tpipe *tp, const char *name)
{
	int l;

	for (l = 0; l < tp->nr_lanes; l++)
		if (!strcmp(tp->lanes[l].name, name))
			return l;
	return -1;
}

static int cmp_lane(const void *a, const void *b)
{
	const struct asc_tl_lane *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The TPipes and their lanes, sorted. */
static int collect_tpipes(struct asc_timeline *tl)
{
	const struct asc_trace *tr = tl->trace;
	uint32_t *serials;
	size_t r, n = 0, i;

	serials = malloc((tr->nr_recs + 1) * sizeof(*serials));
	if (!serials)
		return -1;
	for (r = 0; r < tr->nr_recs; r++)
		if (tr->recs[r].kind != ASC_REC_LAUNCH)
			serials[n++] = tr->recs[r].tpipe;
	qsort(serials, n, sizeof(*serials), cmp_u32);
	tl->tpipes = calloc(n + 1, sizeof(*tl->tpipes));
	if (!tl->tpipes) {
		free(serials);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!i || serials[i] != serials[i - 1])
			tl->tpipes[tl->nr_tpipes++].serial = serials[i];
	free(serials);

	for (r = 0; r < tr->nr_recs; r++) {
		const struct asc_rec *rec = &tr->recs[r];
		struct asc_tl_tpipe *tp;
		const char *name = rec->pipe[0] ? rec->pipe : "-";
		struct asc_tl_lane *lane;

		if (rec->kind == ASC_REC_LAUNCH)
			continue;
		tp = &tl->tpipes[asc_tl_find_tpipe(tl, rec->tpipe)];
		/* Span lines are placed on TPipes that records have. */
		if (!tp->comm[0] && !rec_is_span(rec))
			snprintf(tp->comm, sizeof(tp->comm), "%s", rec->comm);
		if (!rec_has_lane(rec) || find_lane(tp, name) >= 0 ||
		    tp->nr_lanes == ASC_TL_MAX_LANES)
			continue;
		lane = &tp->lanes[tp->nr_lanes++];
		snprintf(lane->name, sizeof(lane->name), "%s", name);
		lane->rank = lane_rank(name);
	}
	for (i = 0; i < (size_t)tl->nr_tpipes; i++) {
		struct asc_tl_tpipe *tp = &tl->tpipes[i];
		int l;

		qsort(tp->lanes, tp->nr_lanes, sizeof(tp->lanes[0]), cmp_lane);
		for (l = 0; l < tp->nr_lanes; l++)
			tp->lanes[l].label = strcmp(tp->lanes[l].name, "-") ?
					     tp->lanes[l].name : "unbound";
	}
	return 0;
}

/*
 * Append the item of record @r; *@out is NULL when it has no lane (more
 * distinct pipes than lanes: not drawn).  Return: 0, or -1 out of memory.
 */
static int add_item(struct tl_builder *b, enum asc_tl_kind kind, size_t r,
		    struct asc_tl_item **out)
{
	struct asc_timeline *tl = b->tl;
	const struct asc_rec *rec = &tl->trace->recs[r];
	struct asc_tl_item *it;
	int tp, lane = -1;

	*out = NULL;
	tp = asc_tl_find_tpipe(tl, rec->tpipe);
	if (kind != ASC_TL_TPIPE) {
		lane = find_lane(&tl->tpipes[tp], rec->pipe[0] ? rec->pipe : "-");
		if (lane < 0)
			return 0;
	}
	if (tl->nr_items == b->cap_items) {
		size_t ncap = b->cap_items ? 2 * b->cap_items : 256;

		it = realloc(tl->items, ncap * sizeof(*it));
		if (!it)
			return -1;
		tl->items = it;
		b->cap_items = ncap;
	}
	it = &tl->items[tl->nr_items++];
	*it = (struct asc_tl_item){
		.kind = kind,
		.rec = rec,
		.tpipe = tp,
		.lane = lane,
		.start = b->ts[r],
		.end = b->ts[r],
	};
	*out = it;
	return 0;
}

static struct flag_state *flag_of(struct tl_builder *b, const struct asc_rec *rec)
{
	int event = asc_hard_event_from_name(rec->event);
	int tp = asc_tl_find_tpipe(b->tl, rec->tpipe), key;
	struct flag_state *fs;
	size_t h;

	if (event < 0 || rec->id < 0 || rec->id >= ASC_EVENT_IDS_MAX)
		return NULL;
	key = event * ASC_EVENT_IDS_MAX + rec->id;
	h = ((size_t)tp * 2654435761u + key * 40503u) & b->flags_mask;
	for (;; h = (h + 1) & b->flags_mask) {
		fs = &b->flags[h];
		if (!fs->used || (fs->tpipe == tp && fs->key == key))
			break;
	}
	if (!fs->used || fs->epoch != b->epoch[tp])
		*fs = (struct flag_state){
			.used = true, .tpipe = tp, .key = key, .epoch = b->epoch[tp],
			.set = -1, .wait = -1,
		};
	return fs;
}

/**
 * asc_tl_add_flow() - add a hand-off to a timeline.
 * @tl: the timeline.
 * @kind: what it is.
 * @set: index of the item it starts from.
 * @wait: index of the wait it ends.
 *
 * Return: 0, or -1 when out of memory.
 */
int asc_tl_add_flow(struct asc_timeline *tl, enum asc_tl_flow_kind kind, size_t set,
		    size_t wait)
{
	if (tl->nr_flows == tl->cap_flows) {
		size_t ncap = tl->cap_flows ? 2 * tl->cap_flows : 256;
		struct asc_tl_flow *n = realloc(tl->flows, ncap * sizeof(*n));

		if (!n)
			return -1;
		tl->flows = n;
		tl->cap_flows = ncap;
	}
	tl->flows[tl->nr_flows++] = (struct asc_tl_flow){ .kind = kind, .set = set, .wait = wait };
	return 0;
}

static void forget_flags(struct tl_builder *b, uint32_t serial)
{
	b->epoch[asc_tl_find_tpipe(b->tl, serial)]++;
}

static int match_set(struct tl_builder *b, long item)
{
	struct flag_state *fs = flag_of(b, b->tl->items[item].rec);

	if (!fs)
		return 0;
	if (fs->wait >= 0) {
		long wait = fs->wait;

		fs->wait = -1;
		return asc_tl_add_flow(b->tl, ASC_TL_FLOW_FLAG, item, wait);
	}
	fs->set = item;
	return 0;
}

static int match_wait(struct tl_builder *b, long item)
{
	struct flag_state *fs = flag_of(b, b->tl->items[item].rec);

	if (!fs)
		return 0;
	if (fs->set >= 0) {
		long set = fs->set;

		fs->set = -1;
		return asc_tl_add_flow(b->tl, ASC_TL_FLOW_FLAG, set, item);
	}
	fs->wait = item;
	return 0;
}

static int wait_end(struct tl_builder *b, size_t r)
{
	const struct asc_rec *rec = &b->tl->trace->recs[r];
	struct asc_tl_item *it;
	size_t i;

	if (add_item(b, ASC_TL_WAIT, r, &it))
		return -1;
	if (!it)
		return 0;
	it->start = b->ts[r] > rec->waited_ns ? b->ts[r] - rec->waited_ns : 0;
	for (i = 0; i < b->nr_open; i++) {
		if (b->open[i].tid != rec->tid)
			continue;
		it->start_rec = &b->tl->trace->recs[b->open[i].rec];
		it->start = b->ts[b->open[i].rec];
		b->open[i] = b->open[--b->nr_open];
		break;
	}
	if (!rec->ret)
		return match_wait(b, b->tl->nr_items - 1);
	return 0;
}

static int wait_start(struct tl_builder *b, size_t r)
{
	const struct asc_rec *rec = &b->tl->trace->recs[r];
	size_t i;

	for (i = 0; i < b->nr_open; i++)
		if (b->open[i].tid == rec->tid)
			break;
	b->open[i] = (struct open_wait){ .tid = rec->tid, .rec = r };
	if (i == b->nr_open)
		b->nr_open++;
	return 0;
}

/* The span of begin record @r, ending at @end. */
static int close_span(struct tl_builder *b, size_t r, uint64_t end, bool unfinished)
{
	struct asc_tl_item *it;

	if (add_item(b, ASC_TL_SPAN, r, &it))
		return -1;
	if (!it)
		return 0;
	it->end = end;
	it->unfinished = unfinished;
	b->tl->nr_spans++;
	return 0;
}

/* The slot of @b->open_span of the lane of span line @rec, or -1. */
static long span_slot(struct tl_builder *b, const struct asc_rec *rec)
{
	int tp = asc_tl_find_tpipe(b->tl, rec->tpipe), lane;

	if (tp < 0)
		return -1;
	lane = find_lane(&b->tl->tpipes[tp], rec->pipe);
	return lane < 0 ? -1 : (long)tp * ASC_TL_MAX_LANES + lane;
}

static int span_begin(struct tl_builder *b, size_t r)
{
	long slot = span_slot(b, &b->tl->trace->recs[r]), prev;

	if (slot < 0)
		return 0;
	prev = b->open_span[slot];
	b->open_span[slot] = r;
	return prev < 0 ? 0 : close_span(b, prev, b->ts[r], true);
}

static int span_end(struct tl_builder *b, size_t r)
{
	const struct asc_rec *recs = b->tl->trace->recs;
	long slot = span_slot(b, &recs[r]), begin;

	begin = slot < 0 ? -1 : b->open_span[slot];
	if (begin < 0 || recs[begin].n != recs[r].n || recs[begin].core_tid != recs[r].core_tid ||
	    recs[begin].core_run != recs[r].core_run) {
		b->tl->nr_span_unmatched++;
		return 0;
	}
	b->open_span[slot] = -1;
	return close_span(b, begin, b->ts[r], false);
}

/* A cross-core wait or SyncAll: one record at its end. */
static int launch_wait(struct tl_builder *b, size_t r)
{
	const struct asc_rec *rec = &b->tl->trace->recs[r];
	struct asc_tl_item *it;

	if (add_item(b, ASC_TL_WAIT, r, &it))
		return -1;
	if (it)
		it->start = b->ts[r] > rec->waited_ns ? b->ts[r] - rec->waited_ns : 0;
	return 0;
}

static int add_record(struct tl_builder *b, size_t r)
{
	const struct asc_rec *rec = &b->tl->trace->recs[r];
	struct asc_tl_item *it;

	switch (rec->kind) {
	case ASC_REC_LAUNCH:
		return 0;
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
		return add_item(b, ASC_TL_TPIPE, r, &it);
	case ASC_REC_CROSS_WAIT:
	case ASC_REC_SYNC_ALL:
		return launch_wait(b, r);
	case ASC_REC_SPAN_BEGIN:
		return span_begin(b, r);
	case ASC_REC_SPAN_END:
		return span_end(b, r);
	case ASC_REC_WAIT_START:
		return wait_start(b, r);
	case ASC_REC_WAIT_END:
		return wait_end(b, r);
	case ASC_REC_RESET:
		forget_flags(b, rec->tpipe);
		return add_item(b, ASC_TL_TPIPE, r, &it);
	case ASC_REC_LEAK:
		return add_item(b, ASC_TL_TPIPE, r, &it);
	default:
		break;
	}
	if (add_item(b, ASC_TL_INSTANT, r, &it))
		return -1;
	if (it && rec->kind == ASC_REC_SET && !rec->ret)
		return match_set(b, b->tl->nr_items - 1);
	return 0;
}

/* Waits still blocked and spans still running when the trace stopped run to its end. */
static int add_unfinished(struct tl_builder *b)
{
	struct asc_tl_item *it;
	size_t i;

	for (i = 0; i < (size_t)b->tl->nr_tpipes * ASC_TL_MAX_LANES; i++)
		if (b->open_span[i] >= 0 && close_span(b, b->open_span[i], b->tl->span, true))
			return -1;
	for (i = 0; i < b->nr_open; i++) {
		if (add_item(b, ASC_TL_WAIT, b->open[i].rec, &it))
			return -1;
		if (!it)
			continue;
		it->start_rec = it->rec;
		it->end = b->tl->span;
		it->unfinished = true;
	}
	return 0;
}

/**
 * asc_timeline_build() - turn the records of a trace into a timeline.
 * @tl: the timeline; freed with asc_timeline_free(), also after a failure.
 * @trace: the records.  Must outlive @tl.
 *
 * Return: 0, or -1 when out of memory.
 */
int asc_timeline_build(struct asc_timeline *tl, const struct asc_trace *trace)
{
	struct tl_builder b = { .tl = tl };
	size_t r, nr_flags = 16;
	int ret = -1;

	memset(tl, 0, sizeof(*tl));
	tl->trace = trace;
	if (collect_tpipes(tl) || asc_tl_launches_collect(tl))
		return -1;
	b.ts = calloc(trace->nr_recs + 1, sizeof(*b.ts));
	b.open = calloc(trace->nr_recs + 1, sizeof(*b.open));
	while (nr_flags < 2 * trace->nr_recs)
		nr_flags *= 2;
	b.flags = calloc(nr_flags, sizeof(*b.flags));
	b.flags_mask = nr_flags - 1;
	b.epoch = calloc(tl->nr_tpipes + 1, sizeof(*b.epoch));
	b.open_span = malloc(((size_t)tl->nr_tpipes * ASC_TL_MAX_LANES + 1) * sizeof(*b.open_span));
	if (!b.ts || !b.open || !b.flags || !b.epoch || !b.open_span)
		goto out;
	for (r = 0; r < (size_t)tl->nr_tpipes * ASC_TL_MAX_LANES; r++)
		b.open_span[r] = -1;

	if (trace->nr_recs)
		tl->t0 = trace->recs[0].ts;
	for (r = 0; r < trace->nr_recs; r++) {
		uint64_t t = trace->recs[r].ts > tl->t0 ? trace->recs[r].ts - tl->t0 : 0;

		if (r && t <= b.ts[r - 1])
			t = b.ts[r - 1] < UINT64_MAX ? b.ts[r - 1] + 1 : UINT64_MAX;
		b.ts[r] = t;
	}
	tl->span = trace->nr_recs ? b.ts[trace->nr_recs - 1] : 0;

	for (r = 0; r < trace->nr_recs; r++)
		if (add_record(&b, r))
			goto out;
	if (add_unfinished(&b) || asc_tl_launch_flows(tl))
		goto out;
	for (r = 0; r < tl->nr_items; r++)
		if (asc_tl_item_failed(&tl->items[r]))
			tl->nr_errors++;
	ret = 0;
out:
	free(b.ts);
	free(b.open);
	free(b.flags);
	free(b.epoch);
	free(b.open_span);
	return ret;
}

/**
 * asc_timeline_free() - free what asc_timeline_build() allocated.
 * @tl: the timeline; zeroed.
 */
void asc_timeline_free(struct asc_timeline *tl)
{
	free(tl->tpipes);
	free(tl->order);
	free(tl->launches);
	free(tl->items);
	free(tl->flows);
	memset(tl, 0, sizeof(*tl));
}
