/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ascctl: what the parts of the tool share.
 *
 * ascctl.c          command line, load, unload, status
 * dump.c            dump: the debugfs state of the TPipes, the launches
 * trace.c           trace: tracefs instance (libtracefs), running COMMAND,
 *                   the outputs
 * binary.c          trace: binary ring-buffer records to struct asc_rec by
 *                   field name (libtraceevent), trace-cmd trace.dat files
 *                   (libtracecmd)
 * text.c            trace: saved tracefs text traces to struct asc_rec
 * spans.c           trace: libasc's work lines (ftrace print events) to
 *                   struct asc_rec, and the TPipe of each
 * utf8.c            trace: task names as valid UTF-8 for JSON and SVG
 * timeline.c        trace: the parsed events as a timeline (TPipes, one lane
 *                   per pipe, waits, instants, set -> wait hand-offs)
 * launch.c          trace: multi-core launches on the timeline (which TPipe
 *                   is which core, cross-core and SyncAll hand-offs)
 * json.c            trace: the timeline as Chrome/Perfetto trace-event JSON
 * svg.c             trace: the timeline as an SVG picture
 */
#ifndef ASCCTL_H
#define ASCCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest names the tracepoints print: pipes ("MTE3"), HardEvents ("MTE1_MTE2"). */
#define ASC_NAME_MAX		16
/* A task's comm (TASK_COMM_LEN) plus room for "<...>". */
#define ASC_COMM_MAX		24
/* Longest work name kept from a span line; libasc writes at most 64 bytes. */
#define ASC_SPAN_NAME_MAX	255

extern const char *ascctl_prog;

struct tep_handle;
struct tep_event;
struct tep_record;

/**
 * enum asc_rec_kind - which asc_event tracepoint a record comes from.
 * @ASC_REC_ALLOC: asc_event_alloc.
 * @ASC_REC_FETCH: asc_event_fetch.
 * @ASC_REC_RELEASE: asc_event_release.
 * @ASC_REC_SET: asc_event_set.
 * @ASC_REC_WAIT_START: asc_event_wait_start.
 * @ASC_REC_WAIT_END: asc_event_wait_end.
 * @ASC_REC_RESET: asc_event_reset.
 * @ASC_REC_LEAK: asc_event_leak.
 * @ASC_REC_DEADLOCK: asc_event_deadlock.
 * @ASC_REC_LAUNCH: asc_event_launch (the only one without a TPipe).
 * @ASC_REC_JOIN: asc_event_join.
 * @ASC_REC_LEAVE: asc_event_leave.
 * @ASC_REC_CROSS_SET: asc_event_cross_set.
 * @ASC_REC_CROSS_WAIT: asc_event_cross_wait.
 * @ASC_REC_SYNC_ALL: asc_event_sync_all.
 * @ASC_REC_CROSS_DEADLOCK: asc_event_cross_deadlock.
 * @ASC_REC_NR_TRACEPOINTS: how many of these there are.
 * @ASC_REC_SPAN_BEGIN: a line "asc_span begin ..." of libasc's core runtime
 *	(an ftrace print event: a write to trace_marker).
 * @ASC_REC_SPAN_END: a line "asc_span end ...".
 * @ASC_REC_NR_KINDS: how many kinds there are.
 */
enum asc_rec_kind {
	ASC_REC_ALLOC,
	ASC_REC_FETCH,
	ASC_REC_RELEASE,
	ASC_REC_SET,
	ASC_REC_WAIT_START,
	ASC_REC_WAIT_END,
	ASC_REC_RESET,
	ASC_REC_LEAK,
	ASC_REC_DEADLOCK,
	ASC_REC_LAUNCH,
	ASC_REC_JOIN,
	ASC_REC_LEAVE,
	ASC_REC_CROSS_SET,
	ASC_REC_CROSS_WAIT,
	ASC_REC_SYNC_ALL,
	ASC_REC_CROSS_DEADLOCK,
	ASC_REC_NR_TRACEPOINTS,
	ASC_REC_SPAN_BEGIN = ASC_REC_NR_TRACEPOINTS,
	ASC_REC_SPAN_END,
	ASC_REC_NR_KINDS
};

/**
 * struct asc_rec - one asc_event record of the trace, or one span line.
 *
 * The fields of the tracepoints, by name (see driver/asc_event_trace.h); a
 * field a tracepoint does not have stays at the value noted.  A span line
 * (see spans.c) has @ts, @tid, @comm, @pipe, @core_tid, @core_run,
 * @n and, for a begin, @name; @tpipe is found by asc_spans_resolve().
 *
 * @kind: the tracepoint or span line.
 * @ts: time of the record, ns (the ring buffer's clock: mono for ascctl).
 * @tid: the task that hit the tracepoint.
 * @comm: its comm, "<...>" when the kernel no longer knew it; raw bytes,
 *	not necessarily UTF-8.
 * @tpipe: tpipe, the TPipe's serial number (0 for a launch record).
 * @pipe: pipe, the pipe the task was bound to, "-" when unbound ("").
 * @event: event, the HardEvent name ("").
 * @id: id (-1).
 * @ret: ret, 0 or a negative errno (0).
 * @forever: forever of wait_start (0).
 * @waited_ns: waited_ns of wait_end (0).
 * @ids: ids_held of reset, ids of leak (0).
 * @flags: flags_pending of reset, flags of leak (0).
 * @at: leak: "close" (at_close) or "reset" ("").
 * @launch: launch, the launch's serial (0: none; the driver counts from 1).
 * @core: core, the core's number in its launch (-1).
 * @flag: flag, a cross-core flag ID (-1).
 * @mode: mode of a cross-core set (-1).
 * @launch_kind: kind of a launch record, ASC_EVENT_LAUNCH_* (0).
 * @block_dim: block_dim of a launch record (0).
 * @sync: cross_deadlock: the wait was SyncAll, not a cross-core wait (false).
 * @aiv_only: aiv_only of sync_all: the SyncAll of the AIVs only (false).
 * @core_tid: span: the thread that ran the kernel (core=TID.RUN) (0).
 * @core_run: span: the run of its process (0).
 * @n: span: the work's instruction number (0).
 * @name: span begin: the work's name, malloc()ed, freed by
 *	asc_trace_free() (NULL).
 */
struct asc_rec {
	enum asc_rec_kind kind;
	uint64_t ts;
	int tid;
	char comm[ASC_COMM_MAX];
	uint32_t tpipe;
	char pipe[ASC_NAME_MAX];
	char event[ASC_NAME_MAX];
	int id;
	int ret;
	int forever;
	uint64_t waited_ns;
	unsigned int ids;
	unsigned int flags;
	char at[ASC_NAME_MAX];
	uint32_t launch;
	int core;
	int flag;
	int mode;
	unsigned int launch_kind;
	unsigned int block_dim;
	bool sync;
	bool aiv_only;
	uint32_t core_tid;
	uint32_t core_run;
	uint64_t n;
	char *name;
};

/**
 * struct asc_trace - what ascctl trace recorded.
 * @recs: the records, in time order.
 * @nr_recs: how many.
 * @cap_recs: room in @recs.
 * @lost: events the kernel could not record (buffer full), as it reports.
 * @skipped: lines or records that were neither asc_event records ascctl
 *	understands nor span lines (other events, other markers).
 * @rec_malformed: asc_event records of a launch without a field ascctl
 *	needs to place them (tpipe, launch, core; kind and block_dim of a
 *	launch), skipped.
 * @span_lines: span lines among @recs.
 * @span_malformed: lines starting "asc_span " that are not span lines,
 *	skipped.
 * @span_no_tpipe: span lines of runs no asc_event record places on a
 *	TPipe, dropped by asc_spans_resolve().
 * @command: COMMAND and its arguments, space separated, for the outputs.
 */
struct asc_trace {
	struct asc_rec *recs;
	size_t nr_recs;
	size_t cap_recs;
	unsigned long long lost;
	unsigned long skipped;
	unsigned long rec_malformed;
	unsigned long span_lines;
	unsigned long span_malformed;
	unsigned long span_no_tpipe;
	char *command;
};

/* asc_parse_trace_line(): a timestamp that does not fit in 64-bit ns. */
#define ASC_PARSE_OVERFLOW	(-2)
/* A span line that is malformed: counted in span_malformed, skipped. */
#define ASC_PARSE_MALFORMED	(-3)
/* A launch record without a field it needs: counted in rec_malformed. */
#define ASC_PARSE_MISSING	(-4)

const char *asc_rec_kind_name(enum asc_rec_kind kind);
int asc_rec_kind_from_name(const char *name, size_t len);
int asc_trace_add(struct asc_trace *tr, const struct asc_rec *rec);
void asc_trace_free(struct asc_trace *tr);
int asc_trace_main(int argc, char **argv);
int asc_dump_main(int argc, char **argv);
int asc_dump_launches(char *text, FILE *out);

int asc_rec_from_tep(struct tep_handle *tep, struct tep_event *event,
		     struct tep_record *record, struct asc_rec *rec);
int asc_trace_add_tep(struct asc_trace *tr, struct tep_handle *tep, struct tep_event *event,
		      struct tep_record *record);
bool asc_is_trace_dat(const char *path);
int asc_read_trace_dat(const char *path, struct asc_trace *tr);

int asc_parse_trace_line(const char *line, struct asc_rec *rec);
int asc_read_text_trace(const char *path, struct asc_trace *tr);

size_t asc_utf8_len(const char *s);

int asc_span_parse(const char *buf, size_t len, struct asc_rec *rec);
void asc_rec_init(struct asc_rec *rec);
int asc_rec_check_fields(const struct asc_rec *rec, bool has_tpipe, bool has_launch,
			 bool has_core);
int asc_spans_resolve(struct asc_trace *tr);

/* ---- timeline ---------------------------------------------------------- */

/* Lanes of a TPipe: the seven pipes and the unbound callers. */
#define ASC_TL_MAX_LANES	8

/**
 * enum asc_tl_kind - what an item of the timeline is.
 * @ASC_TL_WAIT: a wait, from its wait_start to its wait_end.
 * @ASC_TL_INSTANT: a point on a lane: set, alloc, fetch, release, deadlock.
 * @ASC_TL_TPIPE: a point for the whole TPipe: reset, leak, join, leave.
 * @ASC_TL_SPAN: a work item a pipe ran, from its begin line to its end.
 */
enum asc_tl_kind {
	ASC_TL_WAIT,
	ASC_TL_INSTANT,
	ASC_TL_TPIPE,
	ASC_TL_SPAN,
};

/**
 * struct asc_tl_lane - one pipe of one TPipe.
 * @name: the pipe as the tracepoints print it, "-" for unbound callers.
 * @label: what the outputs call the lane ("V", "unbound").
 * @rank: position of the lane in the data path order (see timeline.c).
 */
struct asc_tl_lane {
	char name[ASC_NAME_MAX];
	const char *label;
	int rank;
};

/**
 * struct asc_tl_launch - one multi-core launch of the trace.
 * @serial: its serial number (the launch= of the records).
 * @kind: ASC_EVENT_LAUNCH_*, 0 when its launch record is not in the trace.
 * @block_dim: AI cores (0: unknown).
 * @ncores: cores: 3 * @block_dim for a mix launch, else @block_dim (0:
 *	unknown).
 * @first_serial: lowest serial of its TPipes, where it goes in the order.
 */
struct asc_tl_launch {
	uint32_t serial;
	unsigned int kind;
	unsigned int block_dim;
	unsigned int ncores;
	uint32_t first_serial;
};

/**
 * struct asc_tl_tpipe - one TPipe of the trace.
 * @serial: its serial number (the debugfs tpipe-<n>).
 * @comm: comm of the first task seen on it.
 * @lanes: its lanes, in display order once the timeline is built.
 * @nr_lanes: how many.
 * @launch: index in &struct asc_timeline.launches of the launch it runs a
 *	core of, or -1.
 * @core: that core's number in the launch (-1 when not in one).
 */
struct asc_tl_tpipe {
	uint32_t serial;
	char comm[ASC_COMM_MAX];
	struct asc_tl_lane lanes[ASC_TL_MAX_LANES];
	int nr_lanes;
	int launch;
	int core;
};

/**
 * struct asc_tl_item - one thing drawn on the timeline.
 * @kind: what it is.
 * @rec: its record (for a wait: the wait_end, or the wait_start of a wait
 *	that had not ended when the trace stopped; for a span: its begin).
 * @start_rec: a wait's wait_start record, NULL if it came before the trace.
 * @tpipe: index in &struct asc_timeline.tpipes.
 * @lane: index in the TPipe's lanes; -1 for %ASC_TL_TPIPE.
 * @start: ns since the start of the timeline.
 * @end: same; @start for points.
 * @unfinished: a wait still blocked when the trace stopped; a span whose
 *	end line is not in the trace (ended at the next begin on its lane or
 *	at the end of the trace).
 */
struct asc_tl_item {
	enum asc_tl_kind kind;
	const struct asc_rec *rec;
	const struct asc_rec *start_rec;
	int tpipe;
	int lane;
	uint64_t start;
	uint64_t end;
	bool unfinished;
};

/**
 * enum asc_tl_flow_kind - what a hand-off is.
 * @ASC_TL_FLOW_FLAG: a set_flag and the wait_flag that consumed the flag,
 *	within one TPipe.
 * @ASC_TL_FLOW_CROSS: a cross-core set and a cross-core wait that took the
 *	count it made.
 * @ASC_TL_FLOW_SYNC: SyncAll: the last core to arrive and a core it
 *	released.
 */
enum asc_tl_flow_kind {
	ASC_TL_FLOW_FLAG,
	ASC_TL_FLOW_CROSS,
	ASC_TL_FLOW_SYNC,
};

/**
 * struct asc_tl_flow - a hand-off: from one item to the wait it ended.
 * @kind: what it is.
 * @set: index of the item it starts from: a set, or the last arrival's
 *	sync_all.
 * @wait: index of the wait item.
 */
struct asc_tl_flow {
	enum asc_tl_flow_kind kind;
	size_t set;
	size_t wait;
};

/**
 * struct asc_timeline - the trace, ready to draw.
 * @trace: what it was built from.
 * @t0: CLOCK_MONOTONIC ns of the first record: time 0 of the timeline.
 * @span: ns from the first to the last record.
 * @tpipes: the TPipes, by serial number.
 * @nr_tpipes: how many.
 * @order: the TPipes (indexes in @tpipes) in display order: a launch's
 *	cores together, by core number, where its lowest TPipe serial would
 *	be; other TPipes by serial.
 * @launches: the launches, by serial number.
 * @nr_launches: how many.
 * @items: waits and points, in time order of their (last) record.
 * @nr_items: how many.
 * @flows: the hand-offs; flow n is @flows[n - 1].
 * @nr_flows: how many.
 * @cap_flows: room in @flows.
 * @nr_cross_unmatched: successful cross-core waits whose set the trace
 *	does not show (or of a launch whose launch record it lacks): drawn
 *	without an arrow.
 * @nr_errors: items whose call failed (timeouts not counted).
 * @nr_spans: span items.
 * @nr_span_unmatched: span end lines without their begin, skipped.
 */
struct asc_timeline {
	const struct asc_trace *trace;
	uint64_t t0;
	uint64_t span;
	struct asc_tl_tpipe *tpipes;
	int nr_tpipes;
	int *order;
	struct asc_tl_launch *launches;
	int nr_launches;
	struct asc_tl_item *items;
	size_t nr_items;
	struct asc_tl_flow *flows;
	size_t nr_flows;
	size_t cap_flows;
	size_t nr_cross_unmatched;
	size_t nr_errors;
	size_t nr_spans;
	size_t nr_span_unmatched;
};

int asc_timeline_build(struct asc_timeline *tl, const struct asc_trace *trace);
void asc_timeline_free(struct asc_timeline *tl);
const char *asc_errno_name(int ret);
bool asc_tl_item_failed(const struct asc_tl_item *it);
int asc_tl_item_title(const struct asc_tl_item *it, char *buf, size_t size);
int asc_tl_find_tpipe(const struct asc_timeline *tl, uint32_t serial);
int asc_tl_add_flow(struct asc_timeline *tl, enum asc_tl_flow_kind kind, size_t set,
		    size_t wait);

int asc_tl_launches_collect(struct asc_timeline *tl);
int asc_tl_launch_flows(struct asc_timeline *tl);
int asc_tl_core_name(const struct asc_timeline *tl, int tpipe, char *buf, size_t size);
int asc_tl_launch_name(const struct asc_timeline *tl, int launch, char *buf, size_t size);
const char *asc_launch_kind_name(unsigned int kind);

int asc_json_write(FILE *f, const struct asc_timeline *tl);
int asc_svg_write(FILE *f, const struct asc_timeline *tl);

#endif /* ASCCTL_H */
