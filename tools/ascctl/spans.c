// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: the work spans of libasc's core runtime.
 *
 * With ASC_TRACE_MARKER set (ascctl trace sets it to its instance's
 * trace_marker), the pipe that runs a work item writes a line before and
 * one after it (lib/marker.c); each write is an ftrace print event, whose
 * buf field holds the line:
 *
 *   asc_span begin core=<tid>.<run> pipe=<PIPE> n=<n> name=<name>
 *   asc_span end core=<tid>.<run> pipe=<PIPE> n=<n>
 *
 * asc_span_parse() reads one.  A print event that does not start with
 * "asc_span " is somebody else's marker; one that does but is not such a
 * line (a pipe that is not one, a number that is not, a field missing or
 * extra) is malformed, counted and skipped.
 *
 * The library cannot name the TPipe (the uAPI does not tell it its
 * serial); asc_spans_resolve() finds it from the asc_event records.  The
 * lines of one run (one core=) all belong to one TPipe:
 *
 * - the lines of a pipe other than S are written by that pipe's thread,
 *   which is bound to the pipe on the TPipe and has the pipe and the
 *   TPipe in each set and wait it records: the TPipe of that thread's
 *   record of the same pipe nearest in time (a thread ID may be reused
 *   in a long trace; a pipe's thread lives only for its run);
 * - failing that (work only on S, or pipes that never set or waited),
 *   the first record of the scalar, the thread of core=, bound to S,
 *   between the run's first and last line;
 * - failing that, the run's lines are counted and dropped: no record of
 *   the trace places them (its TPipe never set, waited, allocated...).
 */
#define _GNU_SOURCE
#include <asc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ascctl.h"

#define SPAN_PREFIX	"asc_span "

/* A decimal number of at most @max at *@p, up to @stop; 0 or -1. */
static int span_number(const char **p, const char *end, char stop, uint64_t max,
		       uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (stop ? s == end || *s != stop : s != end)
		return -1;
	*p = stop ? s + 1 : s;
	*out = v;
	return 0;
}

/* "key=" at *@p: 0 and *@p after it, or -1. */
static int span_key(const char **p, const char *end, const char *key)
{
	size_t len = strlen(key);

	if ((size_t)(end - *p) < len || memcmp(*p, key, len))
		return -1;
	*p += len;
	return 0;
}

/**
 * asc_span_parse() - read a span line of libasc's core runtime.
 * @buf: the text of a print event (a trace_marker write), not necessarily
 *	NUL-terminated; a trailing newline is ignored.
 * @len: its length.
 * @rec: where the line goes; @rec->kind, pipe, core_tid, core_run, n and,
 *	for a begin, name (malloc()ed) are set, nothing else.
 *
 * Return: 0; -1 when @buf is not a span line (it does not start with
 * "asc_span "); %ASC_PARSE_MALFORMED when it starts so but is not one;
 * %ASC_PARSE_MALFORMED too when memory for the name runs out.
 */
int asc_span_parse(const char *buf, size_t len, struct asc_rec *rec)
{
	const char *p = buf, *end, *pipe;
	uint64_t tid, run, n;
	bool begin;
	char name[ASC_NAME_MAX];

	end = memchr(buf, '\0', len);
	if (!end)
		end = buf + len;
	if (end > p && end[-1] == '\n')
		end--;
	if ((size_t)(end - p) < strlen(SPAN_PREFIX) || memcmp(p, SPAN_PREFIX, strlen(SPAN_PREFIX)))
		return -1;
	p += strlen(SPAN_PREFIX);
	if (!span_key(&p, end, "begin "))
		begin = true;
	else if (!span_key(&p, end, "end "))
		begin = false;
	else
		return ASC_PARSE_MALFORMED;
	if (span_key(&p, end, "core=") || span_number(&p, end, '.', UINT32_MAX, &tid) ||
	    span_number(&p, end, ' ', UINT32_MAX, &run) || span_key(&p, end, "pipe="))
		return ASC_PARSE_MALFORMED;
	pipe = p;
	while (p < end && *p != ' ')
		p++;
	if (p == end || p - pipe >= (long)sizeof(name))
		return ASC_PARSE_MALFORMED;
	memcpy(name, pipe, p - pipe);
	name[p - pipe] = '\0';
	if (asc_pipe_id_from_name(name) < 0)
		return ASC_PARSE_MALFORMED;
	p++;
	if (span_key(&p, end, "n="))
		return ASC_PARSE_MALFORMED;
	if (begin ? span_number(&p, end, ' ', UINT64_MAX, &n) || span_key(&p, end, "name=") :
		    span_number(&p, end, 0, UINT64_MAX, &n))
		return ASC_PARSE_MALFORMED;

	rec->kind = begin ? ASC_REC_SPAN_BEGIN : ASC_REC_SPAN_END;
	snprintf(rec->pipe, sizeof(rec->pipe), "%s", name);
	rec->core_tid = tid;
	rec->core_run = run;
	rec->n = n;
	rec->name = NULL;
	if (begin) {
		rec->name = strndup(p, end - p < ASC_SPAN_NAME_MAX ? end - p : ASC_SPAN_NAME_MAX);
		if (!rec->name)
			return ASC_PARSE_MALFORMED;
	}
	return 0;
}

static bool is_span(const struct asc_rec *r)
{
	return r->kind == ASC_REC_SPAN_BEGIN || r->kind == ASC_REC_SPAN_END;
}

/**
 * struct span_core - one run of the core runtime (one core= of the lines).
 * @tid: its scalar's thread.
 * @run: its number in the process.
 * @first: index of its first line in the records.
 * @last: index of its last line.
 * @tpipe: its TPipe, when @found.
 * @found: a record placed it.
 */
struct span_core {
	uint32_t tid;
	uint32_t run;
	size_t first;
	size_t last;
	uint32_t tpipe;
	bool found;
};

/* Records of bound threads, by thread, then time: indexes into the trace. */
struct bound_index {
	const struct asc_trace *tr;
	size_t *idx;
	size_t nr;
};

static int cmp_bound(const void *a, const void *b, void *trace)
{
	const struct asc_trace *tr = trace;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int tx = tr->recs[x].tid, ty = tr->recs[y].tid;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x > y) - (x < y);
}

static int cmp_core(const void *a, const void *b)
{
	const struct span_core *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->run > y->run) - (x->run < y->run);
}

static struct span_core *find_core(struct span_core *cores, size_t nr, const struct asc_rec *r)
{
	struct span_core key = { .tid = r->core_tid, .run = r->core_run };

	return bsearch(&key, cores, nr, sizeof(*cores), cmp_core);
}

static uint64_t ts_distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The first entry of @bi whose thread is @tid (or none: bi->nr). */
static size_t bound_first(const struct bound_index *bi, int tid)
{
	size_t lo = 0, hi = bi->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (bi->tr->recs[bi->idx[mid]].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The record of thread @tid bound to @pipe nearest to record @at, or -1.
 * The entries of one thread are in time order, as the records are.
 */
static long nearest_bound(const struct bound_index *bi, int tid, const char *pipe, size_t at)
{
	const struct asc_rec *recs = bi->tr->recs;
	size_t lo = bound_first(bi, tid), hi = lo, i;
	long before = -1, after = -1;

	while (hi < bi->nr && recs[bi->idx[hi]].tid == tid)
		hi++;
	for (i = lo; i < hi; i++) {
		if (strcmp(recs[bi->idx[i]].pipe, pipe))
			continue;
		if (bi->idx[i] < at) {
			before = bi->idx[i];
		} else {
			after = bi->idx[i];
			break;
		}
	}
	if (before < 0)
		return after;
	if (after < 0)
		return before;
	return ts_distance(recs[at].ts, recs[before].ts) <=
	       ts_distance(recs[at].ts, recs[after].ts) ? before : after;
}

/* The first record of thread @tid bound to S from record @from to @to, or -1. */
static long scalar_record(const struct bound_index *bi, int tid, size_t from, size_t to)
{
	const struct asc_rec *recs = bi->tr->recs;
	size_t i;

	for (i = bound_first(bi, tid); i < bi->nr && recs[bi->idx[i]].tid == tid; i++)
		if (bi->idx[i] >= from && bi->idx[i] <= to && !strcmp(recs[bi->idx[i]].pipe, "S"))
			return bi->idx[i];
	return -1;
}

/* The runs of the span lines, sorted, with their first and last line. */
static struct span_core *collect_cores(const struct asc_trace *tr, size_t *nr)
{
	struct span_core *cores = malloc((tr->span_lines + 1) * sizeof(*cores)), *c;
	size_t r, n = 0, i;

	if (!cores)
		return NULL;
	for (r = 0; r < tr->nr_recs; r++)
		if (is_span(&tr->recs[r]))
			cores[n++] = (struct span_core){
				.tid = tr->recs[r].core_tid, .run = tr->recs[r].core_run,
			};
	qsort(cores, n, sizeof(*cores), cmp_core);
	for (i = 0, *nr = 0; i < n; i++)
		if (!*nr || cmp_core(&cores[*nr - 1], &cores[i]))
			cores[(*nr)++] = cores[i];
	for (r = tr->nr_recs; r-- > 0;) {
		if (!is_span(&tr->recs[r]))
			continue;
		c = find_core(cores, *nr, &tr->recs[r]);
		if (!c->found)
			c->last = r;
		c->found = true;
		c->first = r;
	}
	for (i = 0; i < *nr; i++)
		cores[i].found = false;
	return cores;
}

/**
 * asc_spans_resolve() - find the TPipe of every span line, drop the others.
 * @tr: the trace, records in time order; the TPipes go into the span
 *	lines' tpipe, lines no record places are removed (and counted in
 *	@tr->span_no_tpipe).
 *
 * See the top of this file for the rules.
 *
 * Return: 0, or -1 when out of memory (@tr unchanged).
 */
int asc_spans_resolve(struct asc_trace *tr)
{
	struct bound_index bi = { .tr = tr };
	struct span_core *cores, *c;
	size_t nr_cores, r, k;
	long b;

	if (!tr->span_lines)
		return 0;
	cores = collect_cores(tr, &nr_cores);
	bi.idx = malloc((tr->nr_recs + 1) * sizeof(*bi.idx));
	if (!cores || !bi.idx) {
		free(cores);
		free(bi.idx);
		return -1;
	}
	for (r = 0; r < tr->nr_recs; r++) {
		const struct asc_rec *rec = &tr->recs[r];

		if (!is_span(rec) && rec->pipe[0] && strcmp(rec->pipe, "-"))
			bi.idx[bi.nr++] = r;
	}
	qsort_r(bi.idx, bi.nr, sizeof(*bi.idx), cmp_bound, tr);

	for (r = 0; r < tr->nr_recs; r++) {
		const struct asc_rec *rec = &tr->recs[r];

		if (!is_span(rec) || !strcmp(rec->pipe, "S"))
			continue;
		c = find_core(cores, nr_cores, rec);
		if (c->found)
			continue;
		b = nearest_bound(&bi, rec->tid, rec->pipe, r);
		if (b >= 0) {
			c->tpipe = tr->recs[b].tpipe;
			c->found = true;
		}
	}
	for (k = 0; k < nr_cores; k++) {
		if (cores[k].found)
			continue;
		b = scalar_record(&bi, cores[k].tid, cores[k].first, cores[k].last);
		if (b >= 0) {
			cores[k].tpipe = tr->recs[b].tpipe;
			cores[k].found = true;
		}
	}

	for (r = k = 0; r < tr->nr_recs; r++) {
		struct asc_rec *rec = &tr->recs[r];

		if (is_span(rec)) {
			c = find_core(cores, nr_cores, rec);
			if (!c->found) {
				free(rec->name);
				tr->span_no_tpipe++;
				tr->span_lines--;
				continue;
			}
			rec->tpipe = c->tpipe;
		}
		tr->recs[k++] = *rec;
	}
	tr->nr_recs = k;
	free(cores);
	free(bi.idx);
	return 0;
}
