// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace -i: a saved tracefs text trace to struct asc_rec.
 *
 * What `cat /sys/kernel/tracing/trace` (or trace-cmd report) prints:
 *
 *   <comm>-<tid> [<cpu>] <flags> <secs>.<frac>: asc_event_<name>: key=value ...
 *
 * The comm is any bytes but a NUL, up to 15 of them, so it may hold spaces,
 * dashes, brackets and even ": asc_event_set:".  The line is therefore
 * parsed from the CPU column, the last "[<digits>]" of the line: nothing
 * after it (the flags column, which is there or not, the timestamp, the
 * event name and the driver's key=value fields) holds a bracket.  The
 * timestamp has up to nine decimals (tracefs prints six, microseconds) and
 * must fit in 64-bit nanoseconds.
 *
 * A write to trace_marker (an ftrace print event) is printed
 *
 *   <comm>-<tid> [<cpu>] <flags> <secs>.<frac>: tracing_mark_write: <text>
 *
 * and trace-cmd report puts "print:" before "tracing_mark_write:"; <text>,
 * the rest of the line, is kept when it is a span line of libasc's core
 * runtime (spans.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ascctl.h"

#define NS_PER_SEC	1000000000ull
/* The function a trace_marker write is printed with. */
#define MARK_WRITE	"tracing_mark_write"

/* 0; -1 not a timestamp; ASC_PARSE_OVERFLOW when it exceeds 2^64 - 1 ns. */
static int parse_ts(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;
	bool overflow = false;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (sec > (UINT64_MAX - 9) / 10)
			overflow = true;
		else
			sec = sec * 10 + (*s - '0');
	}
	if (s < end && *s == '.') {
		for (s++; s < end && *s >= '0' && *s <= '9'; s++) {
			if (digits < 9) {
				frac = frac * 10 + (*s - '0');
				digits++;
			}
		}
	}
	if (s != end)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	if (overflow || sec > (UINT64_MAX - frac) / NS_PER_SEC)
		return ASC_PARSE_OVERFLOW;
	*ns = sec * NS_PER_SEC + frac;
	return 0;
}

static void copy_name(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static bool all_digits(const char *s, const char *end)
{
	if (s == end)
		return false;
	for (; s < end; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int parse_long(const char *v, long min, long max, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

/**
 * struct line_fields - which of the fields that place a record a line had.
 * @tpipe: tpipe=.
 * @launch: launch=.
 * @core: core=.
 */
struct line_fields {
	bool tpipe;
	bool launch;
	bool core;
};

/* A u32 field: tpipe, launch; 0 or -1 when it is not a number that fits. */
static int parse_u32(const char *val, uint32_t *out)
{
	long n;

	if (!all_digits(val, val + strlen(val)) || parse_long(val, 0, UINT32_MAX, &n))
		return -1;
	*out = n;
	return 0;
}

/* The fields of the launch records; 1 when @key is none of them. */
static int parse_launch_field(struct asc_rec *rec, const char *key, const char *val,
			      struct line_fields *has)
{
	static const char *const kinds[] = { "aiv", "aic", "mix" };
	uint32_t n;
	size_t k;

	if (!strcmp(key, "launch")) {
		/* Not a number: as if missing, which is reported. */
		has->launch = !parse_u32(val, &rec->launch);
		return 0;
	}
	if (!strcmp(key, "kind")) {
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(val, kinds[k]))
				rec->launch_kind = k + 1;
		return 0;
	}
	if (!strcmp(key, "wait")) {
		rec->sync = !strcmp(val, "sync_all");
		return 0;
	}
	if (!strcmp(key, "aiv_only")) {
		rec->aiv_only = strcmp(val, "0") != 0;
		return 0;
	}
	if (strcmp(key, "core") && strcmp(key, "flag") && strcmp(key, "mode") &&
	    strcmp(key, "block_dim"))
		return 1;
	if (parse_u32(val, &n))
		return 0;
	if (!strcmp(key, "block_dim")) {
		rec->block_dim = n;
		return 0;
	}
	if (n > INT_MAX)
		return 0;
	if (!strcmp(key, "core")) {
		rec->core = n;
		has->core = true;
	} else if (!strcmp(key, "flag")) {
		rec->flag = n;
	} else {
		rec->mode = n;
	}
	return 0;
}

static int parse_field(struct asc_rec *rec, const char *key, const char *v, size_t vlen,
		       struct line_fields *has)
{
	char val[32];
	long n;
	int err;

	copy_name(val, sizeof(val), v, vlen);
	if (!strcmp(key, "pipe")) {
		copy_name(rec->pipe, sizeof(rec->pipe), v, vlen);
		return 0;
	}
	if (!strcmp(key, "event")) {
		copy_name(rec->event, sizeof(rec->event), v, vlen);
		return 0;
	}
	if (!strcmp(key, "at")) {
		copy_name(rec->at, sizeof(rec->at), v, vlen);
		return 0;
	}
	if (!strcmp(key, "waited_ns")) {
		char *end;

		errno = 0;
		rec->waited_ns = strtoull(val, &end, 10);
		return errno || end == val || *end || val[0] == '-' ? -1 : 0;
	}
	if (!strcmp(key, "tpipe")) {
		if (parse_u32(val, &rec->tpipe))
			return -1;
		has->tpipe = true;
		return 0;
	}
	err = parse_launch_field(rec, key, val, has);
	if (err <= 0)
		return err;
	if (parse_long(val, INT_MIN, INT_MAX, &n))
		return 0;
	if (!strcmp(key, "id"))
		rec->id = n;
	else if (!strcmp(key, "ret"))
		rec->ret = n;
	else if (!strcmp(key, "forever"))
		rec->forever = n;
	else if (!strcmp(key, "ids_held") || !strcmp(key, "ids"))
		rec->ids = n;
	else if (!strcmp(key, "flags_pending") || !strcmp(key, "flags"))
		rec->flags = n;
	return 0;
}

/* The " [<digits>]" CPU column: the last one of the line, or NULL. */
static const char *cpu_column(const char *line)
{
	const char *p, *q, *cpu = NULL;

	for (p = strstr(line, " ["); p; p = strstr(p + 1, " [")) {
		for (q = p + 2; *q >= '0' && *q <= '9'; q++)
			;
		if (q > p + 2 && *q == ']')
			cpu = p;
	}
	return cpu;
}

/* The next space-separated token at *@p: its start, *@len; *@p after it. */
static const char *token(const char **p, size_t *len)
{
	const char *tok = *p;

	while (*tok == ' ')
		tok++;
	*len = strcspn(tok, "\n ");
	*p = tok + *len;
	return tok;
}

/**
 * asc_parse_trace_line() - parse one line of a tracefs "trace" file.
 * @line: the line, with or without its newline.
 * @rec: where the record goes.
 *
 * A line is "<comm>-<tid> [<cpu>] <flags> <secs>.<frac>: asc_event_<name>:
 * key=value ..." (see the top of this file).  Keys the tracepoint does not
 * print keep the defaults documented at &struct asc_rec; unknown keys are
 * ignored.
 *
 * Return: 0; -1 when the line is neither an asc_event record nor a span
 * line (a comment, a lost-events note, another event or marker, or
 * malformed); %ASC_PARSE_MALFORMED for a marker that starts as a span
 * line but is not one; %ASC_PARSE_MISSING for a record of a launch
 * without a field it needs (asc_rec_check_fields()); %ASC_PARSE_OVERFLOW when it is a record or a
 * marker whose timestamp does not fit in 64-bit nanoseconds.
 */
int asc_parse_trace_line(const char *line, struct asc_rec *rec)
{
	const char *cpu, *task, *task_end, *dash, *p, *tok, *ts = NULL;
	const size_t prefix = strlen("asc_event_");
	struct line_fields has = { };
	char key[ASC_NAME_MAX];
	size_t len, i;
	int kind, err;
	long tid;

	if (*line == '#')
		return -1;
	cpu = cpu_column(line);
	if (!cpu)
		return -1;
	asc_rec_init(rec);

	/* <comm>-<tid>, right-aligned before the CPU column. */
	for (task = line; task < cpu && *task == ' '; task++)
		;
	for (task_end = cpu; task_end > task && task_end[-1] == ' '; task_end--)
		;
	for (dash = task_end; dash > task && dash[-1] != '-'; dash--)
		;
	if (dash == task || !all_digits(dash, task_end) || task_end - dash > 10)
		return -1;
	copy_name(rec->comm, sizeof(rec->comm), task, dash - 1 - task);
	{
		char num[16];

		copy_name(num, sizeof(num), dash, task_end - dash);
		if (parse_long(num, 0, INT_MAX, &tid))
			return -1;
		rec->tid = tid;
	}

	/* [<cpu>], the flags column or not, then "<timestamp>:". */
	p = strchr(cpu, ']') + 1;
	for (i = 0; i < 2 && !ts; i++) {
		tok = token(&p, &len);
		if (len > 1 && tok[len - 1] == ':')
			ts = tok;
	}
	if (!ts)
		return -1;
	err = parse_ts(ts, ts + len - 1, &rec->ts);
	if (err)
		return err;

	/* A marker: "[print:] tracing_mark_write: <text>" */
	tok = token(&p, &len);
	if (len == strlen("print:") && !memcmp(tok, "print:", len))
		tok = token(&p, &len);
	if (len > strlen(MARK_WRITE) && !strncmp(tok, MARK_WRITE, strlen(MARK_WRITE)) &&
	    tok[len - 1] == ':') {
		if (*p == ' ')
			p++;
		return asc_span_parse(p, strlen(p), rec);
	}

	/* "asc_event_<name>:" */
	if (len < prefix + 2 || strncmp(tok, "asc_event_", prefix) || tok[len - 1] != ':')
		return -1;
	kind = asc_rec_kind_from_name(tok + prefix, len - prefix - 1);
	if (kind < 0)
		return -1;
	rec->kind = kind;

	for (;;) {
		const char *eq;

		tok = token(&p, &len);
		if (!len)
			break;
		eq = memchr(tok, '=', len);
		if (!eq || eq == tok)
			continue;
		copy_name(key, sizeof(key), tok, eq - tok);
		if (parse_field(rec, key, eq + 1, tok + len - eq - 1, &has))
			return -1;
	}
	return asc_rec_check_fields(rec, has.tpipe, has.launch, has.core);
}

/**
 * asc_read_text_trace() - read a saved tracefs text trace.
 * @path: the file.
 * @tr: the records and span lines are added here; lost-events notes
 *	("CPU:1 [LOST 3 EVENTS]") count in @tr->lost, malformed span lines
 *	in @tr->span_malformed, launch records lacking a field in
 *	@tr->rec_malformed (each named on stderr), other lines but comments
 *	in @tr->skipped.
 *
 * Return: 0, or -1 (said on stderr) when the file cannot be read, memory
 * runs out or a timestamp does not fit in 64-bit nanoseconds.
 */
int asc_read_text_trace(const char *path, struct asc_trace *tr)
{
	unsigned long long n;
	unsigned long lineno = 0;
	struct asc_rec rec;
	size_t len = 0;
	char *line = NULL;
	FILE *f;
	int cpu, ret = 0, err;

	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "%s: trace: %s: %s\n", ascctl_prog, path, strerror(errno));
		return -1;
	}
	while (getline(&line, &len, f) > 0) {
		lineno++;
		err = asc_parse_trace_line(line, &rec);
		if (!err) {
			if (asc_trace_add(tr, &rec)) {
				free(rec.name);
				fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
				ret = -1;
				break;
			}
		} else if (err == ASC_PARSE_MALFORMED) {
			tr->span_malformed++;
		} else if (err == ASC_PARSE_MISSING) {
			fprintf(stderr, "%s: trace: %s:%lu: a launch record without its %s: skipped\n",
				ascctl_prog, path, lineno, rec.kind == ASC_REC_LAUNCH ?
				"launch, kind or block_dim" : "tpipe, launch or core");
			tr->rec_malformed++;
		} else if (err == ASC_PARSE_OVERFLOW) {
			fprintf(stderr,
				"%s: trace: %s:%lu: the timestamp does not fit in 64-bit nanoseconds (at most 18446744073.709551615 s)\n",
				ascctl_prog, path, lineno);
			ret = -1;
			break;
		} else if (sscanf(line, "CPU:%d [LOST %llu EVENTS]", &cpu, &n) == 2) {
			tr->lost += n;
		} else if (line[0] != '#' && line[0] != '\n') {
			tr->skipped++;
		}
	}
	if (!ret && ferror(f)) {
		fprintf(stderr, "%s: trace: reading %s: %s\n", ascctl_prog, path, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	return ret;
}
