// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: binary asc_event records to struct asc_rec.
 *
 * A record of the ring buffer (trace_pipe_raw, read by libtracefs) or of a
 * trace-cmd trace.dat file (read by libtracecmd) is the tracepoint's
 * TP_STRUCT__entry as the kernel wrote it, with a nanosecond timestamp.
 * libtraceevent knows its layout from the event's format file; the fields
 * are read by name (tpipe, id, ret, pipe, event, forever, waited_ns,
 * ids_held, flags_pending, ids, flags, at_close), never from printed text.
 * The task is the record's common_pid, its comm what the kernel's
 * saved_cmdlines (or the trace.dat copy of it) says.  An ftrace print
 * event (a write to trace_marker) is read the same way, its text from the
 * field buf, a char array to the end of the record, and is kept when it
 * is a span line of libasc's core runtime (spans.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event-parse.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "ascctl.h"

#define TRACE_DAT_MAGIC		"\027\010\104tracing"

/* Whether the record is long enough to hold the field. */
static bool field_in(const struct tep_format_field *field, const struct tep_record *record)
{
	return field->offset >= 0 && field->size > 0 &&
	       field->offset + field->size <= record->size;
}

/* A numeric field by name: 0, or -1 when the event has no such field. */
static int field_num(struct tep_event *event, struct tep_record *record, const char *name,
		     unsigned long long *val)
{
	struct tep_format_field *field = tep_find_field(event, name);

	if (!field || (field->flags & TEP_FIELD_IS_ARRAY) || !field_in(field, record))
		return -1;
	return tep_read_number_field(field, record->data, val);
}

/* A signed 32-bit field (ret): the value as the kernel stored it. */
static void field_s32(struct tep_event *event, struct tep_record *record, const char *name,
		      int *out)
{
	unsigned long long v;

	if (!field_num(event, record, name, &v))
		*out = (int32_t)(uint32_t)v;
}

static void field_u32(struct tep_event *event, struct tep_record *record, const char *name,
		      unsigned int *out)
{
	unsigned long long v;

	if (!field_num(event, record, name, &v))
		*out = (uint32_t)v;
}

/* A char array field (pipe, event): up to its NUL, at most @size - 1 bytes. */
static void field_str(struct tep_event *event, struct tep_record *record, const char *name,
		      char *out, size_t size)
{
	struct tep_format_field *field = tep_find_field(event, name);
	const char *data;
	size_t len;

	if (!field || !(field->flags & TEP_FIELD_IS_ARRAY) || !field_in(field, record))
		return;
	data = (const char *)record->data + field->offset;
	len = strnlen(data, field->size);
	if (len >= size)
		len = size - 1;
	memcpy(out, data, len);
	out[len] = '\0';
}

/*
 * The text of a print event: field buf, "char buf[]" (size 0: to the end
 * of the record).  NULL when it has none.
 */
static const char *print_buf(struct tep_event *event, struct tep_record *record, size_t *len)
{
	struct tep_format_field *field = tep_find_field(event, "buf");

	if (!field || !(field->flags & TEP_FIELD_IS_ARRAY) || field->offset < 0 ||
	    field->offset > record->size)
		return NULL;
	*len = field->size > 0 && field->size < record->size - field->offset ?
	       (size_t)field->size : (size_t)(record->size - field->offset);
	return (const char *)record->data + field->offset;
}

/* A print event: a span line, or not ours. */
static int span_from_tep(struct tep_handle *tep, struct tep_event *event,
			 struct tep_record *record, struct asc_rec *rec)
{
	const char *buf;
	size_t len;
	int err;

	buf = print_buf(event, record, &len);
	if (!buf)
		return -1;
	asc_rec_init(rec);
	err = asc_span_parse(buf, len, rec);
	if (err)
		return err;
	rec->ts = record->ts;
	rec->tid = tep_data_pid(tep, record);
	snprintf(rec->comm, sizeof(rec->comm), "%s", tep_data_comm_from_pid(tep, rec->tid));
	return 0;
}

/**
 * asc_rec_from_tep() - an asc_event record of the ring buffer, by field name.
 * @tep: the event formats and the comms of the trace.
 * @event: the record's event.
 * @record: the record.
 * @rec: where it goes.
 *
 * Return: 0; -1 when the record is neither one of the asc_event
 * tracepoints ascctl knows (with a tpipe field) nor a span line;
 * %ASC_PARSE_MALFORMED for a print event that starts as a span line but
 * is not one (see asc_span_parse()); %ASC_PARSE_MISSING for a record of
 * a launch without a field it needs (see asc_rec_check_fields()).
 */
int asc_rec_from_tep(struct tep_handle *tep, struct tep_event *event,
		     struct tep_record *record, struct asc_rec *rec)
{
	const size_t prefix = strlen("asc_event_");
	bool has_tpipe, has_launch, has_core;
	unsigned long long v;
	unsigned int at_close = 0;
	int kind;

	if (event && !strcmp(event->system, "ftrace") && !strcmp(event->name, "print"))
		return span_from_tep(tep, event, record, rec);
	if (!event || strcmp(event->system, "asc_event") ||
	    strncmp(event->name, "asc_event_", prefix))
		return -1;
	kind = asc_rec_kind_from_name(event->name + prefix, strlen(event->name + prefix));
	if (kind < 0)
		return -1;
	asc_rec_init(rec);
	rec->kind = kind;
	rec->ts = record->ts;
	rec->tid = tep_data_pid(tep, record);
	snprintf(rec->comm, sizeof(rec->comm), "%s", tep_data_comm_from_pid(tep, rec->tid));
	has_tpipe = !field_num(event, record, "tpipe", &v);
	if (has_tpipe)
		rec->tpipe = v;
	if (!field_num(event, record, "id", &v))
		rec->id = v <= INT_MAX ? (int)v : -1;
	field_s32(event, record, "ret", &rec->ret);
	field_s32(event, record, "forever", &rec->forever);
	if (!field_num(event, record, "waited_ns", &v))
		rec->waited_ns = v;
	field_str(event, record, "pipe", rec->pipe, sizeof(rec->pipe));
	field_str(event, record, "event", rec->event, sizeof(rec->event));
	if (kind == ASC_REC_RESET) {
		field_u32(event, record, "ids_held", &rec->ids);
		field_u32(event, record, "flags_pending", &rec->flags);
	} else if (kind == ASC_REC_LEAK) {
		field_u32(event, record, "ids", &rec->ids);
		field_u32(event, record, "flags", &rec->flags);
		field_u32(event, record, "at_close", &at_close);
		snprintf(rec->at, sizeof(rec->at), "%s", at_close ? "close" : "reset");
	}
	has_launch = !field_num(event, record, "launch", &v);
	if (has_launch)
		rec->launch = v;
	has_core = !field_num(event, record, "core", &v) && v <= INT_MAX;
	if (has_core)
		rec->core = v;
	if (!field_num(event, record, "flag", &v) && v <= INT_MAX)
		rec->flag = v;
	if (!field_num(event, record, "mode", &v) && v <= INT_MAX)
		rec->mode = v;
	if (kind == ASC_REC_LAUNCH) {
		field_u32(event, record, "kind", &rec->launch_kind);
		field_u32(event, record, "block_dim", &rec->block_dim);
	}
	if (!field_num(event, record, "sync", &v))
		rec->sync = v;
	if (!field_num(event, record, "aiv_only", &v))
		rec->aiv_only = v;
	return asc_rec_check_fields(rec, has_tpipe, has_launch, has_core);
}

/**
 * asc_trace_add_tep() - add a ring buffer record to a trace, if it is one.
 * @tr: the trace: the record is added, or counted in @tr->skipped (not
 *	ours), @tr->span_malformed (a broken span line) or @tr->rec_malformed
 *	(a record of a launch lacking a field).
 * @tep: the event formats and the comms of the trace.
 * @event: the record's event.
 * @record: the record.
 *
 * Return: 0, or -1 when out of memory.
 */
int asc_trace_add_tep(struct asc_trace *tr, struct tep_handle *tep, struct tep_event *event,
		      struct tep_record *record)
{
	struct asc_rec rec;

	switch (asc_rec_from_tep(tep, event, record, &rec)) {
	case 0:
		break;
	case ASC_PARSE_MALFORMED:
		tr->span_malformed++;
		return 0;
	case ASC_PARSE_MISSING:
		tr->rec_malformed++;
		return 0;
	default:
		tr->skipped++;
		return 0;
	}
	if (asc_trace_add(tr, &rec)) {
		free(rec.name);
		return -1;
	}
	return 0;
}

/**
 * asc_is_trace_dat() - whether a file is a trace-cmd trace.dat.
 * @path: the file.
 *
 * Return: true when it starts with trace-cmd's magic ("\027\010\104tracing");
 * false otherwise, also when it cannot be read (the text reader says why).
 */
bool asc_is_trace_dat(const char *path)
{
	char head[sizeof(TRACE_DAT_MAGIC) - 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool dat;

	if (fd < 0)
		return false;
	dat = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	      !memcmp(head, TRACE_DAT_MAGIC, sizeof(head));
	close(fd);
	return dat;
}

/**
 * struct dat_ctx - state of asc_read_trace_dat() while it iterates.
 * @tep: the trace.dat's event formats and comms.
 * @tr: where the records go.
 * @failed: out of memory.
 */
struct dat_ctx {
	struct tep_handle *tep;
	struct asc_trace *tr;
	bool failed;
};

static int dat_record(struct tracecmd_input *handle, struct tep_record *record, int cpu,
		      void *data)
{
	struct dat_ctx *ctx = data;

	(void)handle;
	(void)cpu;
	if (record->missed_events > 0)
		ctx->tr->lost += record->missed_events;
	if (asc_trace_add_tep(ctx->tr, ctx->tep, tep_find_event_by_record(ctx->tep, record),
			      record)) {
		ctx->failed = true;
		return 1;
	}
	return 0;
}

/**
 * asc_read_trace_dat() - read the asc_event records of a trace-cmd trace.dat.
 * @path: the file (trace-cmd record -e asc_event; -C mono for the clock of
 *	the driver's wait deadlines).
 * @tr: the records and span lines are added here, in time order; other
 *	events count in @tr->skipped, malformed span lines in
 *	@tr->span_malformed, events the kernel lost in @tr->lost.
 *
 * Return: 0, or -1 (said on stderr) when the file cannot be read.
 */
int asc_read_trace_dat(const char *path, struct asc_trace *tr)
{
	struct dat_ctx ctx = { .tr = tr };
	struct tracecmd_input *handle;

	tracecmd_set_loglevel(TEP_LOG_ERROR);
	handle = tracecmd_open(path, 0);
	if (!handle) {
		fprintf(stderr, "%s: trace: %s: not a trace.dat libtracecmd can read\n",
			ascctl_prog, path);
		return -1;
	}
	ctx.tep = tracecmd_get_tep(handle);
	if (tracecmd_iterate_events(handle, NULL, 0, dat_record, &ctx) < 0 && !ctx.failed) {
		fprintf(stderr, "%s: trace: %s: reading the records failed\n", ascctl_prog, path);
		tracecmd_close(handle);
		return -1;
	}
	tracecmd_close(handle);
	if (ctx.failed) {
		fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
		return -1;
	}
	return 0;
}
