// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: the timeline as Chrome/Perfetto trace-event JSON.
 *
 * {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}, the
 * JSON object format of the Trace Event Format, which ui.perfetto.dev and
 * chrome://tracing open.  Each TPipe is a process (pid = its serial number,
 * process_name "TPipe <n> (<comm>)"), each of its lanes a thread
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
	char name[64];
	int i, l;

	for (i = 0; i < tl->nr_tpipes; i++) {
		const struct asc_tl_tpipe *tp = &tl->tpipes[i];

		snprintf(name, sizeof(name), "TPipe %" PRIu32 " (%s)", tp->serial, tp->comm);
		fprintf(f, "%s\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu32
			",\"tid\":0,\"args\":{\"name\":", *first ? "" : ",", tp->serial);
		json_string(f, name);
		fprintf(f, "}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%" PRIu32
			",\"tid\":0,\"args\":{\"sort_index\":%d}}", tp->serial, i);
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

static void json_args(FILE *f, const struct asc_tl_item *it)
{
	const struct asc_rec *r = it->rec;
	char task[ASC_COMM_MAX + 16];

	fputs(",\"args\":{", f);
	switch (r->kind) {
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

/* The flow of hand-off @n, right after the item it starts or ends. */
static void json_flow(FILE *f, const struct asc_timeline *tl, const struct asc_tl_item *it,
		      size_t n, bool start)
{
	const struct asc_tl_flow *fl = &tl->flows[n - 1];
	const struct asc_tl_item *set = &tl->items[fl->set], *wait = &tl->items[fl->wait];

	if (set->start >= wait->end)
		return;
	fprintf(f, ",\n{\"name\":\"flag\",\"cat\":\"flag\",\"ph\":\"%s\",\"id\":%zu,"
		"\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":", start ? "s" : "f\",\"bp\":\"e",
		n, tl->tpipes[it->tpipe].serial, lane_tid(it->tpipe, it->lane));
	/* The end goes just inside the wait it binds to, still after the set. */
	json_us(f, start ? it->start : it->end - 1 > set->start ? it->end - 1 : it->end);
	fputs("}", f);
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
		if (it->flow_out)
			json_flow(f, tl, it, it->flow_out, true);
		if (it->flow_in)
			json_flow(f, tl, it, it->flow_in, false);
	}
	fputs("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"tool\":\"ascctl trace\","
	      "\"trace_clock\":\"mono\",\"t0_ns\":", f);
	fprintf(f, "%" PRIu64 ",\"command\":", tl->t0);
	json_string(f, tl->trace->command ? tl->trace->command : "");
	fprintf(f, ",\"records\":%zu,\"lost_events\":%llu,\"spans\":%zu,\"span_lines\":%lu,"
		"\"span_lines_malformed\":%lu,\"span_ends_unmatched\":%zu,"
		"\"span_lines_no_tpipe\":%lu}}\n", tl->trace->nr_recs - tl->trace->span_lines,
		tl->trace->lost, tl->nr_spans, tl->trace->span_lines, tl->trace->span_malformed,
		tl->nr_span_unmatched, tl->trace->span_no_tpipe);
	return ferror(f) ? -1 : 0;
}
