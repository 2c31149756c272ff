// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: record the asc_event tracepoints while a command runs.
 *
 * A private tracefs instance (instances/ascctl-<pid>, made with libtracefs)
 * keeps the recording apart from anything else using ftrace: its own ring
 * buffer, trace_clock mono (CLOCK_MONOTONIC, the clock of the driver's wait
 * deadlines), only the events of the asc_event system.  They are recorded
 * for every process while COMMAND runs; COMMAND gets the instance's
 * trace_marker in ASC_TRACE_MARKER, where libasc's core runtime writes a
 * line before and after each work item (spans.c).  Then the binary
 * per-CPU buffers (trace_pipe_raw) are read with libtracefs, merged in
 * time order, each record with its nanosecond timestamp, its fields read
 * by name through the event format files (binary.c); then the
 * instance is removed.
 *
 * The instance must not outlive us: setup failures, COMMAND failing to
 * start, and SIGINT/SIGTERM/SIGHUP all end in the same cleanup.  A signal
 * typed at the terminal reaches COMMAND directly (same process group); one
 * sent to ascctl alone is passed on to COMMAND; a second one kills COMMAND
 * with SIGKILL.  An instance left behind by an ascctl that was killed
 * outright is removed by the next trace.
 *
 * trace -i converts a saved trace instead: a trace-cmd trace.dat
 * (binary.c) or a tracefs text trace (text.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event-parse.h>
#include <getopt.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <tracefs.h>
#include <unistd.h>

#include "ascctl.h"

#define TRACE_DEFAULT_PREFIX	"asc-trace"
#define TRACE_DEFAULT_KB	2048
#define TRACE_INSTANCE_PREFIX	"ascctl-"
/* ascctl's own failures, as timeout(1) and env(1) number them. */
#define TRACE_EXIT_FAILURE	125
#define TRACE_EXIT_NOEXEC	126
#define TRACE_EXIT_NOTFOUND	127

static const char *const rec_kind_names[ASC_REC_NR_KINDS] = {
	[ASC_REC_ALLOC] = "alloc",
	[ASC_REC_FETCH] = "fetch",
	[ASC_REC_RELEASE] = "release",
	[ASC_REC_SET] = "set",
	[ASC_REC_WAIT_START] = "wait_start",
	[ASC_REC_WAIT_END] = "wait_end",
	[ASC_REC_RESET] = "reset",
	[ASC_REC_LEAK] = "leak",
	[ASC_REC_DEADLOCK] = "deadlock",
	[ASC_REC_LAUNCH] = "launch",
	[ASC_REC_JOIN] = "join",
	[ASC_REC_LEAVE] = "leave",
	[ASC_REC_CROSS_SET] = "cross_set",
	[ASC_REC_CROSS_WAIT] = "cross_wait",
	[ASC_REC_SYNC_ALL] = "sync_all",
	[ASC_REC_CROSS_DEADLOCK] = "cross_deadlock",
	[ASC_REC_SPAN_BEGIN] = "span_begin",
	[ASC_REC_SPAN_END] = "span_end",
};

/**
 * asc_rec_kind_name() - the tracepoint of a record kind, without "asc_event_".
 * @kind: the kind.
 *
 * Return: a static string, e.g. "wait_end"; "span_begin" and "span_end"
 * for span lines.
 */
const char *asc_rec_kind_name(enum asc_rec_kind kind)
{
	return kind < ASC_REC_NR_KINDS ? rec_kind_names[kind] : "?";
}

/**
 * asc_rec_kind_from_name() - the record kind of a tracepoint name.
 * @name: the name without "asc_event_", e.g. "wait_end"; need not end there.
 * @len: its length.
 *
 * Return: the &enum asc_rec_kind, or -1 for a name ascctl does not know.
 */
int asc_rec_kind_from_name(const char *name, size_t len)
{
	int kind;

	for (kind = 0; kind < ASC_REC_NR_TRACEPOINTS; kind++)
		if (strlen(rec_kind_names[kind]) == len && !strncmp(name, rec_kind_names[kind], len))
			return kind;
	return -1;
}

/**
 * asc_rec_init() - a record with every field at its default.
 * @rec: the record: zeroed, with @id, @core, @flag and @mode -1.
 */
void asc_rec_init(struct asc_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->id = -1;
	rec->core = -1;
	rec->flag = -1;
	rec->mode = -1;
}

/**
 * asc_rec_check_fields() - whether a parsed record has what it needs.
 * @rec: the record, its kind and fields parsed.
 * @has_tpipe: it had a tpipe field.
 * @has_launch: it had a launch field.
 * @has_core: it had a core field.
 *
 * A launch record needs launch, kind and block_dim; a record of a core of
 * a launch (join, leave, cross_set, cross_wait, sync_all, cross_deadlock)
 * tpipe, launch and core; any other one tpipe.
 *
 * Return: 0; %ASC_PARSE_MISSING when a record of a launch lacks a field;
 * -1 when another record has no tpipe (not one ascctl knows).
 */
int asc_rec_check_fields(const struct asc_rec *rec, bool has_tpipe, bool has_launch,
			 bool has_core)
{
	switch (rec->kind) {
	case ASC_REC_LAUNCH:
		return has_launch && rec->launch_kind && rec->block_dim ? 0 : ASC_PARSE_MISSING;
	case ASC_REC_JOIN:
	case ASC_REC_LEAVE:
	case ASC_REC_CROSS_SET:
	case ASC_REC_CROSS_WAIT:
	case ASC_REC_SYNC_ALL:
	case ASC_REC_CROSS_DEADLOCK:
		return has_tpipe && has_launch && has_core ? 0 : ASC_PARSE_MISSING;
	default:
		return has_tpipe ? 0 : -1;
	}
}

/**
 * asc_trace_add() - append a record to a trace.
 * @tr: the trace.
 * @rec: the record, copied; its name belongs to @tr once added.
 *
 * Return: 0, or -1 when out of memory (@rec is not added).
 */
int asc_trace_add(struct asc_trace *tr, const struct asc_rec *rec)
{
	if (tr->nr_recs == tr->cap_recs) {
		size_t ncap = tr->cap_recs ? 2 * tr->cap_recs : 1024;
		struct asc_rec *n = realloc(tr->recs, ncap * sizeof(*n));

		if (!n)
			return -1;
		tr->recs = n;
		tr->cap_recs = ncap;
	}
	tr->recs[tr->nr_recs++] = *rec;
	if (rec->kind == ASC_REC_SPAN_BEGIN || rec->kind == ASC_REC_SPAN_END)
		tr->span_lines++;
	return 0;
}

/**
 * asc_trace_free() - free the records of a trace and their names.
 * @tr: the trace; its records are gone, the rest stays.
 */
void asc_trace_free(struct asc_trace *tr)
{
	size_t r;

	for (r = 0; r < tr->nr_recs; r++)
		free(tr->recs[r].name);
	free(tr->recs);
	tr->recs = NULL;
	tr->nr_recs = tr->cap_recs = 0;
}

/* ---- tracefs --------------------------------------------------------------- */

static bool fs_is(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == magic;
}

/* Where tracefs is, mounted if it is not; libtracefs works there. */
static int find_tracefs(void)
{
	char tracing[] = "/sys/kernel/tracing";
	char debug_tracing[] = "/sys/kernel/debug/tracing";
	char *root = NULL;
	int err;

	if (fs_is(tracing, TRACEFS_MAGIC) ||
	    !mount("tracefs", tracing, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		root = tracing;
	} else {
		err = errno;
		if (!fs_is("/sys/kernel/debug", DEBUGFS_MAGIC))
			mount("debugfs", "/sys/kernel/debug", "debugfs",
			      MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
		if (fs_is(debug_tracing, TRACEFS_MAGIC))
			root = debug_tracing;
	}
	if (root && !tracefs_set_tracing_dir(root))
		return 0;
	if (root)
		err = errno;
	fprintf(stderr, "%s: trace: no tracefs at %s and cannot mount it: %s%s\n", ascctl_prog,
		tracing, strerror(err), err == EPERM ? " (run as root)" : "");
	return -1;
}

/* Stop recording and remove an instance; 0 or -1 with errno of the rmdir. */
static int remove_instance(struct tracefs_instance *inst)
{
	char *dir = tracefs_instance_get_dir(inst);
	int tries, ret = -1;

	if (!dir)
		return -1;
	tracefs_trace_off(inst);
	tracefs_event_disable(inst, NULL, NULL);
	/* rmdir by hand: libtracefs would mark the instance gone at the first EBUSY. */
	for (tries = 0; ; tries++) {
		if (!rmdir(dir) || errno == ENOENT) {
			ret = 0;
			break;
		}
		if (errno != EBUSY || tries == 50)
			break;
		usleep(20000);
	}
	tracefs_put_tracing_file(dir);
	return ret;
}

/* Instances of ascctl processes that no longer exist. */
static void remove_stale_instances(void)
{
	struct tracefs_instance *inst;
	char **names, *end;
	long pid;
	int i;

	names = tracefs_instances("^" TRACE_INSTANCE_PREFIX "[0-9]+$");
	if (!names)
		return;
	for (i = 0; names[i]; i++) {
		pid = strtol(names[i] + strlen(TRACE_INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || pid > INT_MAX || pid == getpid())
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (!inst)
			continue;
		if (remove_instance(inst))
			fprintf(stderr, "%s: trace: stale instance %s: %s\n", ascctl_prog,
				names[i], strerror(errno));
		else
			fprintf(stderr, "%s: trace: removed stale instance %s\n", ascctl_prog,
				names[i]);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
}

/* Our instance, new and empty: one of our pid left behind is removed first. */
static struct tracefs_instance *create_instance(void)
{
	struct tracefs_instance *inst;
	char name[64];

	snprintf(name, sizeof(name), TRACE_INSTANCE_PREFIX "%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (inst && !tracefs_instance_is_new(inst)) {
		if (remove_instance(inst)) {
			tracefs_instance_free(inst);
			inst = NULL;
		} else {
			tracefs_instance_free(inst);
			inst = tracefs_instance_create(name);
		}
	}
	if (!inst)
		fprintf(stderr, "%s: trace: cannot create the tracefs instance %s: %s\n",
			ascctl_prog, name, strerror(errno));
	return inst;
}

static int setting(struct tracefs_instance *inst, const char *file, const char *val)
{
	if (tracefs_instance_file_write(inst, file, val) == (int)strlen(val))
		return 0;
	fprintf(stderr, "%s: trace: writing '%s' to %s/%s: %s\n", ascctl_prog, val,
		tracefs_instance_get_name(inst), file, strerror(errno));
	return -1;
}

static int setup_instance(struct tracefs_instance *inst, unsigned int buffer_kb)
{
	if (!tracefs_file_exists(inst, "events/asc_event/enable")) {
		fprintf(stderr,
			"%s: trace: no asc_event tracepoints: the module is not loaded (ascctl load) or too old\n",
			ascctl_prog);
		return -1;
	}
	if (tracefs_trace_off(inst)) {
		fprintf(stderr, "%s: trace: cannot stop tracing in %s: %s\n", ascctl_prog,
			tracefs_instance_get_name(inst), strerror(errno));
		return -1;
	}
	if (setting(inst, "trace_clock", "mono"))
		return -1;
	if (tracefs_instance_set_buffer_size(inst, buffer_kb, -1)) {
		fprintf(stderr, "%s: trace: cannot set the buffer of %s to %u KiB: %s\n",
			ascctl_prog, tracefs_instance_get_name(inst), buffer_kb, strerror(errno));
		return -1;
	}
	if (tracefs_event_enable(inst, "asc_event", NULL)) {
		fprintf(stderr, "%s: trace: cannot enable the asc_event events: %s\n",
			ascctl_prog, strerror(errno));
		return -1;
	}
	return 0;
}

/* What the kernel could not record: overwritten or dropped events. */
static unsigned long long lost_events(struct tracefs_instance *inst)
{
	unsigned long long lost = 0, n;
	char file[64], *stats, *line, *next;
	int cpu, nr_cpus = sysconf(_SC_NPROCESSORS_CONF);

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(inst, file, NULL);
		if (!stats)
			continue;
		for (line = strtok_r(stats, "\n", &next); line; line = strtok_r(NULL, "\n", &next))
			if (sscanf(line, "overrun: %llu", &n) == 1 ||
			    sscanf(line, "dropped events: %llu", &n) == 1)
				lost += n;
		free(stats);
	}
	return lost;
}

/**
 * struct raw_ctx - state of read_records() while libtracefs iterates.
 * @tep: the asc_event formats and the comms.
 * @tr: where the records go.
 * @failed: out of memory.
 */
struct raw_ctx {
	struct tep_handle *tep;
	struct asc_trace *tr;
	bool failed;
};

static int raw_record(struct tep_event *event, struct tep_record *record, int cpu, void *data)
{
	struct raw_ctx *ctx = data;

	(void)cpu;
	if (asc_trace_add_tep(ctx->tr, ctx->tep, event, record)) {
		ctx->failed = true;
		return 1;
	}
	return 0;
}

/*
 * What reading the records needs: the ring buffer's page header, the
 * asc_event formats, ftrace's print (the span lines) and the comms.
 * tracefs_local_events_system() would also parse /proc/kallsyms, seconds
 * in a small guest, for nothing: the records hold no address we need
 * (the ip of a print event is trace_marker's own).  Without the print
 * format the span lines are skipped, as other events are.
 */
static struct tep_handle *load_formats(void)
{
	struct tep_handle *tep = tep_alloc();
	char **events = NULL, *buf = NULL;
	int size, i;

	if (!tep)
		return NULL;
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!buf || tep_parse_header_page(tep, buf, size, sizeof(long)))
		goto fail;
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	events = tracefs_system_events(tracefs_tracing_dir(), "asc_event");
	if (!events)
		goto fail;
	for (i = 0; events[i]; i++) {
		free(buf);
		buf = tracefs_event_file_read(NULL, "asc_event", events[i], "format", &size);
		if (!buf || tep_parse_event(tep, buf, size, "asc_event"))
			goto fail;
	}
	free(buf);
	buf = tracefs_event_file_read(NULL, "ftrace", "print", "format", &size);
	if (buf)
		tep_parse_event(tep, buf, size, "ftrace");
	free(buf);
	tracefs_list_free(events);
	tracefs_load_cmdlines(NULL, tep);
	return tep;
fail:
	free(buf);
	tracefs_list_free(events);
	tep_free(tep);
	return NULL;
}

/*
 * The instance's records, from its binary per-CPU buffers, oldest first.
 * The formats and saved_cmdlines are read now, after COMMAND ran, so that
 * the comms are those of its tasks.
 */
static int read_records(struct tracefs_instance *inst, struct asc_trace *tr)
{
	struct raw_ctx ctx = { .tr = tr };
	int ret = 0;

	ctx.tep = load_formats();
	if (!ctx.tep || !tep_find_event_by_name(ctx.tep, "asc_event", "asc_event_set")) {
		fprintf(stderr, "%s: trace: cannot read the asc_event formats from tracefs\n",
			ascctl_prog);
		tep_free(ctx.tep);
		return -1;
	}
	if (tracefs_iterate_raw_events(ctx.tep, inst, NULL, 0, raw_record, &ctx) < 0 &&
	    !ctx.failed) {
		fprintf(stderr, "%s: trace: reading the ring buffer of %s failed\n", ascctl_prog,
			tracefs_instance_get_name(inst));
		ret = -1;
	}
	if (ctx.failed) {
		fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
		ret = -1;
	}
	tep_free(ctx.tep);
	return ret;
}

/* ---- the command ----------------------------------------------------------- */

/* Lock-free, so that the signal handler may touch them. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int takes a lock");
static atomic_int child_pid;
static atomic_int nr_signals;
static atomic_int last_signal;

/*
 * The terminal signals the whole process group, COMMAND included (si_code
 * SI_KERNEL); a signal sent to ascctl alone is passed on.  Interrupted
 * twice, COMMAND is killed.
 */
static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	int saved = errno;

	(void)uctx;
	nr_signals++;
	last_signal = sig;
	if (child_pid > 0) {
		if (nr_signals > 1)
			kill(child_pid, SIGKILL);
		else if (si->si_code != SI_KERNEL)
			kill(child_pid, sig);
	}
	errno = saved;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Fork COMMAND, held until release_command(*@go): tracing starts in
 * between.  A socket rather than a pipe: sending to a child that died
 * meanwhile must not raise SIGPIPE, which would leave the instance behind.
 * COMMAND gets ASC_TRACE_MARKER=@marker (when not NULL).
 * Return: the child's pid, or -1.
 */
static pid_t start_command(char **argv, const char *marker, int *go)
{
	int fds[2];
	ssize_t n;
	pid_t pid;
	char c;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
		fprintf(stderr, "%s: trace: socketpair: %s\n", ascctl_prog, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: trace: fork: %s\n", ascctl_prog, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[1]);
		while ((n = read(fds[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			_exit(TRACE_EXIT_FAILURE);
		if (marker && setenv("ASC_TRACE_MARKER", marker, 1)) {
			fprintf(stderr, "%s: trace: setenv: %s\n", ascctl_prog, strerror(errno));
			_exit(TRACE_EXIT_FAILURE);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "%s: trace: %s: %s\n", ascctl_prog, argv[0], strerror(errno));
		_exit(errno == ENOENT ? TRACE_EXIT_NOTFOUND : TRACE_EXIT_NOEXEC);
	}
	close(fds[0]);
	*go = fds[1];
	child_pid = pid;
	return pid;
}

static int release_command(int go)
{
	return send(go, "g", 1, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* Wait for COMMAND; its exit status the way a shell reports it. */
static int wait_command(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: trace: waitpid: %s\n", ascctl_prog, strerror(errno));
			child_pid = 0;
			return TRACE_EXIT_FAILURE;
		}
	}
	child_pid = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return TRACE_EXIT_FAILURE;
}

/* ---- outputs --------------------------------------------------------------- */

static char *join_args(char **argv)
{
	size_t len = 1;
	char **a, *s, *p;

	for (a = argv; *a; a++)
		len += strlen(*a) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	for (a = argv; *a; a++)
		p += sprintf(p, "%s%s", a == argv ? "" : " ", *a);
	*p = '\0';
	return s;
}

static int write_output(const char *path, const struct asc_timeline *tl,
			int (*writer)(FILE *f, const struct asc_timeline *tl))
{
	FILE *f = fopen(path, "we");
	int err;

	if (!f) {
		fprintf(stderr, "%s: trace: %s: %s\n", ascctl_prog, path, strerror(errno));
		return -1;
	}
	err = writer(f, tl);
	if (fclose(f))
		err = -1;
	if (err) {
		fprintf(stderr, "%s: trace: writing %s failed\n", ascctl_prog, path);
		return -1;
	}
	return 0;
}

static void summary(const struct asc_timeline *tl, const char *json, const char *svg)
{
	const char *seen[ASC_TL_MAX_LANES * 2];
	int nr_seen = 0, i, l, k;

	const struct asc_trace *tr = tl->trace;

	fprintf(stderr, "%s: trace: %zu events, ", ascctl_prog, tr->nr_recs - tr->span_lines);
	if (tl->nr_spans)
		fprintf(stderr, "%zu span%s, ", tl->nr_spans, tl->nr_spans == 1 ? "" : "s");
	if (tl->nr_launches)
		fprintf(stderr, "%d launch%s, ", tl->nr_launches, tl->nr_launches == 1 ? "" : "es");
	fprintf(stderr, "%d TPipe%s, pipes", tl->nr_tpipes, tl->nr_tpipes == 1 ? "" : "s");
	for (i = 0; i < tl->nr_tpipes; i++) {
		for (l = 0; l < tl->tpipes[i].nr_lanes; l++) {
			const char *label = tl->tpipes[i].lanes[l].label;

			for (k = 0; k < nr_seen && strcmp(seen[k], label); k++)
				;
			if (k < nr_seen || nr_seen == (int)(sizeof(seen) / sizeof(seen[0])))
				continue;
			seen[nr_seen++] = label;
			fprintf(stderr, " %s", label);
		}
	}
	if (!nr_seen)
		fprintf(stderr, " none");
	if (tl->nr_errors)
		fprintf(stderr, ", %zu failed call%s", tl->nr_errors,
			tl->nr_errors == 1 ? "" : "s");
	if (tl->nr_cross_unmatched)
		fprintf(stderr, ", %zu cross-core wait%s with no set in the trace (no arrow)",
			tl->nr_cross_unmatched, tl->nr_cross_unmatched == 1 ? "" : "s");
	if (tr->rec_malformed)
		fprintf(stderr, ", %lu launch record%s lacking fields skipped", tr->rec_malformed,
			tr->rec_malformed == 1 ? "" : "s");
	if (tr->span_malformed || tl->nr_span_unmatched || tr->span_no_tpipe)
		fprintf(stderr, ", span lines skipped: %lu malformed, %zu unmatched, %lu of no TPipe",
			tr->span_malformed, tl->nr_span_unmatched, tr->span_no_tpipe);
	fprintf(stderr, "; wrote %s and %s\n", json, svg);
}

/* trace -i: a saved trace file to the two outputs; the exit status. */
static int convert(struct asc_trace *tr, const char *input, const char *json, const char *svg)
{
	struct asc_timeline tl;
	int ret = 1;

	if (asc_is_trace_dat(input) ? asc_read_trace_dat(input, tr) :
	    asc_read_text_trace(input, tr))
		return 1;
	if (tr->lost)
		fprintf(stderr, "%s: trace: %s notes %llu lost events\n", ascctl_prog, input,
			tr->lost);
	if (asc_spans_resolve(tr) || asc_timeline_build(&tl, tr))
		fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
	else if (!write_output(json, &tl, asc_json_write) &&
		 !write_output(svg, &tl, asc_svg_write)) {
		summary(&tl, json, svg);
		ret = 0;
	}
	asc_timeline_free(&tl);
	return ret;
}

static void trace_usage(FILE *f)
{
	fprintf(f,
		"usage: %s trace [-o PREFIX] [-b KB] -- COMMAND [ARGS...]\n"
		"       %s trace [-o PREFIX] -i TRACEFILE\n"
		"Run COMMAND with the asc_event tracepoints recorded (all processes) and\n"
		"write the timeline as PREFIX.json (Chrome/Perfetto trace-event JSON: open in\n"
		"https://ui.perfetto.dev or chrome://tracing) and PREFIX.svg (a picture).\n"
		"COMMAND gets ASC_TRACE_MARKER, the trace_marker of ascctl's tracefs instance:\n"
		"libasc's core runtime writes its work items there, drawn as spans.\n"
		"  -o PREFIX     output files PREFIX.json and PREFIX.svg (default %s)\n"
		"  -b KB         ring buffer per CPU in KiB (default %d)\n"
		"  -i TRACEFILE  no COMMAND: convert a saved trace instead, a trace-cmd\n"
		"                trace.dat or the text of a tracefs trace file\n"
		"  -h            this help\n"
		"Exit status: COMMAND's (128 + N when killed by signal N); 125 when ascctl\n"
		"itself failed, 126/127 when COMMAND could not be run.  With -i: 0, or 1\n"
		"when the file could not be read (or a time in it does not fit in 64-bit\n"
		"nanoseconds) or the outputs written.\n",
		ascctl_prog, ascctl_prog, TRACE_DEFAULT_PREFIX, TRACE_DEFAULT_KB);
}

/**
 * asc_trace_main() - ascctl trace.
 * @argc: arguments after "ascctl", "trace" first.
 * @argv: them.
 *
 * Return: the exit status of ascctl (see trace_usage()).
 */
int asc_trace_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *prefix = TRACE_DEFAULT_PREFIX, *input = NULL;
	unsigned int buffer_kb = TRACE_DEFAULT_KB;
	struct tracefs_instance *inst = NULL;
	struct asc_trace tr = { };
	struct asc_timeline tl = { };
	char *json = NULL, *svg = NULL, *marker = NULL, *end;
	int opt, go = -1, status = 0, ret = TRACE_EXIT_FAILURE;
	bool ran = false;
	unsigned long v;
	pid_t pid;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+o:b:i:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			prefix = optarg;
			break;
		case 'b':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || v < 64 || v > 1024 * 1024) {
				fprintf(stderr, "%s: trace: bad -b '%s': 64..1048576 KiB\n",
					ascctl_prog, optarg);
				return 2;
			}
			buffer_kb = v;
			break;
		case 'i':
			input = optarg;
			break;
		case 'h':
			trace_usage(stdout);
			return 0;
		default:
			trace_usage(stderr);
			return 2;
		}
	}
	if ((optind == argc) == !input || !*prefix) {
		trace_usage(stderr);
		return 2;
	}
	tr.command = input ? strdup(input) : join_args(argv + optind);
	if (!tr.command || asprintf(&json, "%s.json", prefix) < 0 ||
	    asprintf(&svg, "%s.svg", prefix) < 0) {
		fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
		goto out_free;
	}
	if (input) {
		ret = convert(&tr, input, json, svg);
		goto out_free;
	}

	catch_signals();
	tracefs_set_loglevel(TEP_LOG_NONE);
	if (find_tracefs())
		goto out_free;
	remove_stale_instances();
	inst = create_instance();
	if (!inst)
		goto out_free;
	if (setup_instance(inst, buffer_kb) || nr_signals)
		goto out_remove;
	/* Without a trace_marker there are no spans, and no more. */
	marker = tracefs_instance_get_file(inst, "trace_marker");
	pid = start_command(argv + optind, marker, &go);
	if (pid < 0)
		goto out_remove;
	if (nr_signals || setting(inst, "tracing_on", "1") || release_command(go)) {
		kill(pid, SIGKILL);
		close(go);
		wait_command(pid);
		goto out_remove;
	}
	close(go);
	status = wait_command(pid);
	ran = true;
	/* From here on a failure of ours does not hide a failure of COMMAND. */
	ret = status ? status : TRACE_EXIT_FAILURE;

	tracefs_trace_off(inst);
	tracefs_event_disable(inst, "asc_event", NULL);
	if (read_records(inst, &tr))
		goto out_remove;
	tr.lost += lost_events(inst);
	if (remove_instance(inst))
		fprintf(stderr, "%s: trace: cannot remove %s: %s (rmdir it by hand)\n",
			ascctl_prog, tracefs_instance_get_name(inst), strerror(errno));
	tracefs_instance_free(inst);
	inst = NULL;

	if (tr.lost)
		fprintf(stderr, "%s: trace: the kernel lost %llu events (buffer full: raise -b)\n",
			ascctl_prog, tr.lost);
	if (asc_spans_resolve(&tr) || asc_timeline_build(&tl, &tr)) {
		fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
		goto out_free;
	}
	if (write_output(json, &tl, asc_json_write) || write_output(svg, &tl, asc_svg_write))
		goto out_free;
	summary(&tl, json, svg);
	ret = status;
	goto out_free;

out_remove:
	if (remove_instance(inst))
		fprintf(stderr, "%s: trace: cannot remove %s: %s (rmdir it by hand)\n",
			ascctl_prog, tracefs_instance_get_name(inst), strerror(errno));
	tracefs_instance_free(inst);
out_free:
	asc_timeline_free(&tl);
	asc_trace_free(&tr);
	tracefs_put_tracing_file(marker);
	free(tr.command);
	free(json);
	free(svg);
	if (nr_signals && !ran)
		ret = 128 + last_signal;
	return ret;
}
