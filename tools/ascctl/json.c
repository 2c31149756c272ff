// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: the timeline as Chrome/Perfetto trace-event JSON.
 *
 * {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}, the
 * JSON object format of the Trace Event Format, which ui.perfetto.dev and
 * chrome://tracing open.  Each TPipe is a process (pid = its serial number,
 * process_name "TPipe <n> (<comm>)", or "launch <l> core <c> (AIV <b>):
 * TPipe <n> (<comm>)" for a core of a launch, sorted in the timeline's
 * order: a launch's cores together), each of its lanes a thread
 * (tid = ASC_TL_MAX_LANES * k + l + 1 for lane l of the k-th TPipe of the
 * trace: unique in the whole file, as viewers key threads by tid; thread_name
 * the pipe or "unbound"; sort indexes keep the data path order).  Waits are complete events ("X")
 * from wait_start to wait_end; sets, allocs, fetches, releases and deadlock
 * reports are thread instants ("i"), resets and leak reports process
 * instants.  The work items of libasc's core runtime are complete events
 * too, category "work", named as issued, on the track of their pipe.  A set and the wait that consumed its flag are joined by a flow
 * ("s" on the set, "f" 1 ns before the end of the wait, binding to it as
 * the enclosing slice): only when the set comes first in time, as flows
 * cannot go backwards.  Timestamps are
 * microseconds since the first record, with nanosecond decimals.  Strings
 * are valid UTF-8: a byte of a task name that is not is written as U+FFFD.
 */
#include <inttypes.h>
#include <string.h>

#include "ascctl.h"

static void json_string(FILE *f, const char *s)
{
	size_t len;

	fputc('"', f);
	while (*s) {
		unsigned char c = *s;

		len = asc_utf8_len(s);
		if (!len) {
			fputs("\\ufffd", f);
			len = 1;
		} else if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else {
			fwrite(s, 1, len, f);
		}
		s += len;
	}
	fputc('"', f);
}

/* ns as microseconds with three decimals. */
static void json_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static uint64_t lane_tid(int tpipe, int lane)
{
	return (uint64_t)tpipe * ASC_TL_MAX_LANES + lane + 1;
}

static void json_metadata(FILE *f, const struct asc_timeline *tl, bool *first)
{
	char name[128], core[64];
	int k, i, l;

	for (k = 0; k < tl->nr_tpipes; k++) {
		const struct asc_tl_tpipe *tp = &tl->tpipes[tl->order[k]];

		i = tl->order[k];
		asc_tl_core_name(tl, i, core, sizeof(core));
		snprintf(name, sizeof(name), "%s%sTPipe %" PRIu32 " (%s)", core, core[0] ? ": " : "",
			 tp->serial, tp->comm);
		fprintf(f, "%s\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu32
			",\"tid\":0,\"args\":{\"name\":", *first ? "" : ",", tp->serial);
		json_string(f, name);
		fprintf(f, "}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%" PRIu32
			",\"tid\":0,\"args\":{\"sort_index\":%d}}", tp->serial, k);
		*first = false;
		for (l = 0; l < tp->nr_lanes; l++) {
			uint64_t tid = lane_tid(i, l);

			fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\","
				"\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"args\":{\"name\":",
				tp->serial, tid);
			json_string(f, tp->lanes[l].label);
			fprintf(f, "}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%"
				PRIu32 ",\"tid\":%" PRIu64 ",\"args\":{\"sort_index\":%d}}",
				tp->serial, tid, l);
		}
	}
}

/* The args of a record of a core of a launch. */
static void json_launch_args(FILE *f, const struct asc_tl_item *it)
{
	const struct asc_rec *r = it->rec;

	fprintf(f, "\"launch\":%" PRIu32 ",\"core\":%d", r->launch, r->core);
	if (r->kind == ASC_REC_JOIN || r->kind == ASC_REC_LEAVE)
		return;
	fputs(",\"pipe\":", f);
	json_string(f, r->pipe);
	if (r->kind == ASC_REC_CROSS_DEADLOCK) {
		fprintf(f, ",\"wait\":\"%s\"", r->sync ? "sync_all" : "cross");
		if (!r->sync)
			fprintf(f, ",\"flag\":%d", r->flag);
		return;
	}
	if (r->kind != ASC_REC_SYNC_ALL)
		fprintf(f, ",\"flag\":%d", r->flag);
	if (r->kind == ASC_REC_CROSS_SET)
		fprintf(f, ",\"mode\":%d", r->mode);
	fprintf(f, ",\"ret\":%d", r->ret);
	if (r->ret) {
		fputs(",\"error\":", f);
		json_string(f, asc_errno_name(r->ret));
	}
	if (it->kind == ASC_TL_WAIT)
		fprintf(f, ",\"waited_ns\":%" PRIu64, r->waited_ns);
}

static void json_args(FILE *f, const struct asc_tl_item *it)
{
	const struct asc_rec *r = it->rec;
	char task[ASC_COMM_MAX + 16];

	fputs(",\"args\":{", f);
	switch (r->kind) {
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
	case ASC_REC_CROSS_SET:
	case ASC_REC_CROSS_WAIT:
	case ASC_REC_SYNC_ALL:
	case ASC_REC_CROSS_DEADLOCK:
		json_launch_args(f, it);
		break;
	case ASC_REC_RESET:
		fprintf(f, "\"ids_held\":%u,\"flags_pending\":%u", r->ids, r->flags);
		break;
	case ASC_REC_LEAK:
		fputs("\"at\":", f);
		json_string(f, r->at);
		fprintf(f, ",\"ids\":%u,\"flags\":%u", r->ids, r->flags);
		break;
	default:
		fputs("\"event\":", f);
		json_string(f, r->event);
		fprintf(f, ",\"id\":%d", r->id);
		if (it->unfinished) {
			fputs(",\"ret\":\"unfinished\"", f);
		} else if (r->kind != ASC_REC_DEADLOCK) {
			fprintf(f, ",\"ret\":%d", r->ret);
			if (r->ret) {
				fputs(",\"error\":", f);
				json_string(f, asc_errno_name(r->ret));
			}
		}
		if (it->kind == ASC_TL_WAIT) {
			fprintf(f, ",\"waited_ns\":%" PRIu64, it->unfinished ?
				it->end - it->start : r->waited_ns);
			if (it->start_rec)
				fprintf(f, ",\"forever\":%d", it->start_rec->forever);
		}
		break;
	}
	snprintf(task, sizeof(task), "%s-%d", r->comm, r->tid);
	fputs(",\"task\":", f);
	json_string(f, task);
	fputs("}", f);
}

static void json_item(FILE *f, const struct asc_timeline *tl, const struct asc_tl_item *it)
{
	const struct asc_tl_tpipe *tp = &tl->tpipes[it->tpipe];
	char name[80];

	asc_tl_item_title(it, name, sizeof(name));
	fprintf(f, ",\n{\"name\":");
	json_string(f, name);
	fprintf(f, ",\"cat\":\"%s\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":",
		it->kind == ASC_TL_WAIT ? "wait" : asc_rec_kind_name(it->rec->kind), tp->serial,
		it->lane >= 0 ? lane_tid(it->tpipe, it->lane) : 0);
	json_us(f, it->start);
	switch (it->kind) {
	case ASC_TL_WAIT:
	case ASC_TL_SPAN:	/* json_span() writes those */
		fputs(",\"ph\":\"X\",\"dur\":", f);
		json_us(f, it->end - it->start);
		break;
	case ASC_TL_INSTANT:
		fputs(",\"ph\":\"i\",\"s\":\"t\"", f);
		break;
	case ASC_TL_TPIPE:
		fputs(",\"ph\":\"i\",\"s\":\"p\"", f);
		break;
	}
	if (asc_tl_item_failed(it))
		fputs(",\"cname\":\"terrible\"", f);
	json_args(f, it);
	fputs("}", f);
}

/* A work span: its name, its instruction number and run, the task. */
static void json_span(FILE *f, const struct asc_timeline *tl, const struct asc_tl_item *it)
{
	const struct asc_rec *r = it->rec;
	char task[ASC_COMM_MAX + 16];

	fputs(",\n{\"name\":", f);
	json_string(f, r->name ? r->name : "");
	fprintf(f, ",\"cat\":\"work\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":",
		tl->tpipes[it->tpipe].serial, lane_tid(it->tpipe, it->lane));
	json_us(f, it->start);
	fputs(",\"ph\":\"X\",\"dur\":", f);
	json_us(f, it->end - it->start);
	fprintf(f, ",\"args\":{\"n\":%" PRIu64 ",\"core\":\"%" PRIu32 ".%" PRIu32 "\"", r->n,
		r->core_tid, r->core_run);
	if (it->unfinished)
		fputs(",\"unfinished\":true", f);
	snprintf(task, sizeof(task), "%s-%d", r->comm, r->tid);
	fputs(",\"task\":", f);
	json_string(f, task);
	fputs("}}", f);
}

/* Where a flow leaves an item: a point, or 1 ns before the end of a wait. */
static uint64_t flow_from(const struct asc_tl_item *it)
{
	return it->kind == ASC_TL_WAIT && it->end > it->start ? it->end - 1 : it->start;
}

/* Hand-off @n: "s" on the item it starts from, "f" on the wait it ends. */
static void json_flow(FILE *f, const struct asc_timeline *tl, size_t n)
{
	static const char *const names[] = {
		[ASC_TL_FLOW_FLAG] = "flag",
		[ASC_TL_FLOW_CROSS] = "cross",
		[ASC_TL_FLOW_SYNC] = "sync_all",
	};
	const struct asc_tl_flow *fl = &tl->flows[n - 1];
	const struct asc_tl_item *set = &tl->items[fl->set], *wait = &tl->items[fl->wait];
	uint64_t from = flow_from(set);
	int end;

	if (from >= wait->end)
		return;
	for (end = 0; end < 2; end++) {
		const struct asc_tl_item *it = end ? wait : set;

		fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"%s\",\"id\":%zu,"
			"\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":", names[fl->kind],
			names[fl->kind], end ? "f\",\"bp\":\"e" : "s", n,
			tl->tpipes[it->tpipe].serial, lane_tid(it->tpipe, it->lane));
		/* The end goes just inside the wait it binds to, still after the start. */
		json_us(f, end ? (it->end - 1 > from ? it->end - 1 : it->end) : from);
		fputs("}", f);
	}
}

/**
 * asc_json_write() - write a timeline as trace-event JSON.
 * @f: where to.
 * @tl: the timeline.
 *
 * Return: 0, or -1 if writing failed.
 */
int asc_json_write(FILE *f, const struct asc_timeline *tl)
{
	bool first = true;
	size_t i;

	fputs("{\"traceEvents\":[", f);
	json_metadata(f, tl, &first);
	if (first) {
		/* No TPipe: an empty process keeps the array free of a leading comma. */
		fputs("\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,"
		      "\"args\":{\"name\":\"no asc_event activity\"}}", f);
	}
	for (i = 0; i < tl->nr_items; i++) {
		const struct asc_tl_item *it = &tl->items[i];

		if (it->kind == ASC_TL_SPAN) {
			json_span(f, tl, it);
			continue;
		}
		json_item(f, tl, it);
	}
	for (i = 1; i <= tl->nr_flows; i++)
		json_flow(f, tl, i);
	fputs("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"tool\":\"ascctl trace\","
	      "\"trace_clock\":\"mono\",\"t0_ns\":", f);
	fprintf(f, "%" PRIu64 ",\"command\":", tl->t0);
	json_string(f, tl->trace->command ? tl->trace->command : "");
	fprintf(f, ",\"records\":%zu,\"lost_events\":%llu,\"spans\":%zu,\"span_lines\":%lu,"
		"\"span_lines_malformed\":%lu,\"span_ends_unmatched\":%zu,"
		"\"span_lines_no_tpipe\":%lu,\"launches\":%d,\"cross_waits_unmatched\":%zu,"
		"\"records_malformed\":%lu}}\n", tl->trace->nr_recs - tl->trace->span_lines,
		tl->trace->lost, tl->nr_spans, tl->trace->span_lines, tl->trace->span_malformed,
		tl->nr_span_unmatched, tl->trace->span_no_tpipe, tl->nr_launches,
		tl->nr_cross_unmatched, tl->trace->rec_malformed);
	return ferror(f) ? -1 : 0;
}
