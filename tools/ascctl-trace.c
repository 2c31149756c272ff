// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: record the asc_event tracepoints while a command runs.
 *
 * A private tracefs instance (instances/ascctl-<pid>) keeps the recording
 * apart from anything else using ftrace: its own ring buffer, trace_clock
 * mono (CLOCK_MONOTONIC, the clock of the driver's wait deadlines), only the
 * events of the asc_event system.  They are recorded for every process while
 * COMMAND runs; then the instance's "trace" file is read, the instance is
 * removed, and the lines are parsed into struct asc_rec for the timeline.
 *
 * The instance must not outlive us: setup failures, COMMAND failing to
 * start, and SIGINT/SIGTERM/SIGHUP all end in the same cleanup.  A signal
 * typed at the terminal reaches COMMAND directly (same process group); one
 * sent to ascctl alone is passed on to COMMAND; a second one kills COMMAND
 * with SIGKILL.  An instance left behind by an ascctl that was killed
 * outright is removed by the next trace.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
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
};

/**
 * asc_rec_kind_name() - the tracepoint of a record kind, without "asc_event_".
 * @kind: the kind.
 *
 * Return: a static string, e.g. "wait_end".
 */
const char *asc_rec_kind_name(enum asc_rec_kind kind)
{
	return kind < ASC_REC_NR_KINDS ? rec_kind_names[kind] : "?";
}

static int parse_ts(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++)
		sec = sec * 10 + (*s - '0');
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
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static void copy_name(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static int parse_int(const char *v, int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < INT_MIN || n > INT_MAX)
		return -1;
	*out = n;
	return 0;
}

static int parse_field(struct asc_rec *rec, const char *key, const char *v, size_t vlen)
{
	char val[32];
	int n = 0;

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
		return errno || end == val || *end ? -1 : 0;
	}
	if (parse_int(val, &n))
		return strcmp(key, "tpipe") ? 0 : -1;
	if (!strcmp(key, "tpipe"))
		rec->tpipe = n;
	else if (!strcmp(key, "id"))
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

/**
 * asc_parse_trace_line() - parse one line of a tracefs "trace" file.
 * @line: the line, with or without its newline.
 * @rec: where the record goes.
 *
 * A line is "<comm>-<tid> [<cpu>] <flags> <secs>.<usecs>: asc_event_<name>:
 * key=value ...".  The comm may hold spaces and dashes; the flags column is
 * there or not (irq-info).  Keys the tracepoint does not print keep the
 * defaults documented at &struct asc_rec; unknown keys are ignored.
 *
 * Return: 0, or -1 when the line is not an asc_event record (a comment, a
 * lost-events note, another event, or malformed).
 */
int asc_parse_trace_line(const char *line, struct asc_rec *rec)
{
	const char *ev, *ts, *cpu = NULL, *task, *task_end, *dash, *p, *name;
	size_t name_len;
	char key[ASC_NAME_MAX];
	int kind;

	if (*line == '#')
		return -1;
	ev = strstr(line, ": asc_event_");
	if (!ev)
		return -1;
	memset(rec, 0, sizeof(*rec));
	rec->tpipe = -1;
	rec->id = -1;

	for (ts = ev; ts > line && ts[-1] != ' '; ts--)
		;
	if (parse_ts(ts, ev, &rec->ts))
		return -1;
	for (p = line; p + 1 < ts; p++)
		if (p[0] == ' ' && p[1] == '[')
			cpu = p;
	if (!cpu)
		return -1;
	for (task = line; task < cpu && *task == ' '; task++)
		;
	for (task_end = cpu; task_end > task && task_end[-1] == ' '; task_end--)
		;
	for (dash = task_end; dash > task && dash[-1] != '-'; dash--)
		;
	if (dash == task)
		return -1;
	copy_name(rec->comm, sizeof(rec->comm), task, dash - 1 - task);
	{
		char tid[16];

		copy_name(tid, sizeof(tid), dash, task_end - dash);
		if (parse_int(tid, &rec->tid))
			return -1;
	}

	name = ev + 2 + strlen("asc_event_");
	name_len = strcspn(name, ":");
	if (name[name_len] != ':')
		return -1;
	for (kind = 0; kind < ASC_REC_NR_KINDS; kind++)
		if (strlen(rec_kind_names[kind]) == name_len &&
		    !strncmp(name, rec_kind_names[kind], name_len))
			break;
	if (kind == ASC_REC_NR_KINDS)
		return -1;
	rec->kind = kind;

	for (p = name + name_len + 1; *p; ) {
		const char *tok, *eq;
		size_t len;

		while (*p == ' ')
			p++;
		tok = p;
		len = strcspn(tok, " \n");
		p = tok + len;
		if (!len)
			break;
		eq = memchr(tok, '=', len);
		if (!eq || eq == tok)
			continue;
		copy_name(key, sizeof(key), tok, eq - tok);
		if (parse_field(rec, key, eq + 1, tok + len - eq - 1))
			return -1;
	}
	return rec->tpipe < 0 ? -1 : 0;
}

/* ---- tracefs --------------------------------------------------------------- */

/**
 * struct tracefs - the instance this run records into.
 * @root: where tracefs is mounted.
 * @inst: the instance directory, "" until created.
 */
struct tracefs {
	char root[PATH_MAX];
	char inst[PATH_MAX];
};

static bool fs_is(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == magic;
}

static int find_tracefs(struct tracefs *t)
{
	static const char *const tracing = "/sys/kernel/tracing";
	static const char *const debug_tracing = "/sys/kernel/debug/tracing";
	int err;

	if (fs_is(tracing, TRACEFS_MAGIC) ||
	    !mount("tracefs", tracing, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		snprintf(t->root, sizeof(t->root), "%s", tracing);
		return 0;
	}
	err = errno;
	if (!fs_is("/sys/kernel/debug", DEBUGFS_MAGIC))
		mount("debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		      NULL);
	if (fs_is(debug_tracing, TRACEFS_MAGIC)) {
		snprintf(t->root, sizeof(t->root), "%s", debug_tracing);
		return 0;
	}
	fprintf(stderr, "%s: trace: no tracefs at %s and cannot mount it: %s%s\n", ascctl_prog,
		tracing, strerror(err), err == EPERM ? " (run as root)" : "");
	return -1;
}

static int path_in(char *buf, size_t size, const char *dir, const char *file)
{
	if ((size_t)snprintf(buf, size, "%s/%s", dir, file) >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Write @val to @file of directory @dir; 0 or -1 with errno. */
static int write_file(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd, err;

	if (path_in(path, sizeof(path), dir, file))
		return -1;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	err = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n < 0 ? err : EIO;
		return -1;
	}
	return 0;
}

static int setting(const struct tracefs *t, const char *file, const char *val)
{
	if (!write_file(t->inst, file, val))
		return 0;
	fprintf(stderr, "%s: trace: writing '%s' to %s/%s: %s\n", ascctl_prog, val, t->inst, file,
		strerror(errno));
	return -1;
}

/* Stop recording and remove an instance; 0 or -1 with errno of the rmdir. */
static int remove_instance(const char *inst)
{
	int tries;

	write_file(inst, "tracing_on", "0");
	write_file(inst, "events/enable", "0");
	for (tries = 0; ; tries++) {
		if (!rmdir(inst) || errno == ENOENT)
			return 0;
		if (errno != EBUSY || tries == 50)
			return -1;
		usleep(20000);
	}
}

/* Instances of ascctl processes that no longer exist. */
static void remove_stale_instances(const struct tracefs *t)
{
	char dir[PATH_MAX], inst[PATH_MAX];
	struct dirent *de;
	char *end;
	DIR *d;
	long pid;

	if (path_in(dir, sizeof(dir), t->root, "instances"))
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, TRACE_INSTANCE_PREFIX, strlen(TRACE_INSTANCE_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(TRACE_INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || pid > INT_MAX || pid == getpid())
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		if (path_in(inst, sizeof(inst), dir, de->d_name))
			continue;
		if (remove_instance(inst))
			fprintf(stderr, "%s: trace: stale instance %s: %s\n", ascctl_prog, inst,
				strerror(errno));
		else
			fprintf(stderr, "%s: trace: removed stale instance %s\n", ascctl_prog,
				inst);
	}
	closedir(d);
}

static int create_instance(struct tracefs *t)
{
	char name[64];

	snprintf(name, sizeof(name), "instances/" TRACE_INSTANCE_PREFIX "%d", (int)getpid());
	if (path_in(t->inst, sizeof(t->inst), t->root, name))
		goto fail;
	if (mkdir(t->inst, 0700) && (errno != EEXIST || remove_instance(t->inst) ||
				     mkdir(t->inst, 0700)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "%s: trace: cannot create the tracefs instance %s: %s\n", ascctl_prog,
		t->inst, strerror(errno));
	t->inst[0] = '\0';
	return -1;
}

static int setup_instance(const struct tracefs *t, unsigned int buffer_kb)
{
	char path[PATH_MAX], kb[32];

	if (path_in(path, sizeof(path), t->inst, "events/asc_event/enable") ||
	    access(path, F_OK)) {
		fprintf(stderr,
			"%s: trace: no asc_event tracepoints: the module is not loaded (ascctl load) or too old\n",
			ascctl_prog);
		return -1;
	}
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	if (setting(t, "tracing_on", "0") || setting(t, "trace_clock", "mono") ||
	    setting(t, "buffer_size_kb", kb) || setting(t, "events/asc_event/enable", "1"))
		return -1;
	return 0;
}

/* What the kernel could not record: overwritten or dropped events. */
static unsigned long long lost_events(const struct tracefs *t)
{
	char dir[PATH_MAX], path[PATH_MAX], line[128];
	unsigned long long lost = 0, n;
	struct dirent *de;
	DIR *d;
	FILE *f;

	if (path_in(dir, sizeof(dir), t->inst, "per_cpu"))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "cpu", 3) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s/stats", dir, de->d_name) >=
		    sizeof(path))
			continue;
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %llu", &n) == 1 ||
			    sscanf(line, "dropped events: %llu", &n) == 1)
				lost += n;
		fclose(f);
	}
	closedir(d);
	return lost;
}

static int add_rec(struct asc_trace *tr, size_t *cap, const struct asc_rec *rec)
{
	if (tr->nr_recs == *cap) {
		size_t ncap = *cap ? 2 * *cap : 1024;
		struct asc_rec *n = realloc(tr->recs, ncap * sizeof(*n));

		if (!n)
			return -1;
		tr->recs = n;
		*cap = ncap;
	}
	tr->recs[tr->nr_recs++] = *rec;
	return 0;
}

/* Parse a tracefs "trace" file (or a saved copy of one) at @path. */
static int read_trace(const char *path, struct asc_trace *tr)
{
	unsigned long long n;
	struct asc_rec rec;
	size_t len = 0, cap = 0;
	char *line = NULL;
	FILE *f;
	int cpu, ret = 0;

	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "%s: trace: %s: %s\n", ascctl_prog, path, strerror(errno));
		return -1;
	}
	while (getline(&line, &len, f) > 0) {
		if (!asc_parse_trace_line(line, &rec)) {
			if (add_rec(tr, &cap, &rec)) {
				fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
				ret = -1;
				break;
			}
		} else if (sscanf(line, "CPU:%d [LOST %llu EVENTS]", &cpu, &n) == 2) {
			tr->lost += n;
		} else if (line[0] != '#' && line[0] != '\n') {
			tr->skipped++;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: trace: reading %s: %s\n", ascctl_prog, path, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	return ret;
}

/* ---- the command ----------------------------------------------------------- */

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t nr_signals;
static volatile sig_atomic_t last_signal;

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
 * Return: the child's pid, or -1.
 */
static pid_t start_command(char **argv, int *go)
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

	fprintf(stderr, "%s: trace: %zu events, %d TPipe%s, pipes", ascctl_prog,
		tl->trace->nr_recs, tl->nr_tpipes, tl->nr_tpipes == 1 ? "" : "s");
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
	fprintf(stderr, "; wrote %s and %s\n", json, svg);
}

/* trace -i: a saved trace file to the two outputs; the exit status. */
static int convert(struct asc_trace *tr, const char *input, const char *json, const char *svg)
{
	struct asc_timeline tl;
	int ret = 1;

	if (read_trace(input, tr))
		return 1;
	if (tr->lost)
		fprintf(stderr, "%s: trace: %s notes %llu lost events\n", ascctl_prog, input,
			tr->lost);
	if (asc_timeline_build(&tl, tr))
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
		"  -o PREFIX     output files PREFIX.json and PREFIX.svg (default %s)\n"
		"  -b KB         ring buffer per CPU in KiB (default %d)\n"
		"  -i TRACEFILE  no COMMAND: convert a saved tracefs trace file instead\n"
		"  -h            this help\n"
		"Exit status: COMMAND's (128 + N when killed by signal N); 125 when ascctl\n"
		"itself failed, 126/127 when COMMAND could not be run.  With -i: 0, or 1\n"
		"when the file could not be read or the outputs written.\n",
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
	struct tracefs t = { };
	struct asc_trace tr = { };
	struct asc_timeline tl = { };
	char *json = NULL, *svg = NULL, *end, path[PATH_MAX];
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
	if (find_tracefs(&t))
		goto out_free;
	remove_stale_instances(&t);
	if (create_instance(&t))
		goto out_free;
	if (setup_instance(&t, buffer_kb) || nr_signals)
		goto out_remove;
	pid = start_command(argv + optind, &go);
	if (pid < 0)
		goto out_remove;
	if (nr_signals || setting(&t, "tracing_on", "1") || release_command(go)) {
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

	write_file(t.inst, "tracing_on", "0");
	write_file(t.inst, "events/asc_event/enable", "0");
	if (path_in(path, sizeof(path), t.inst, "trace") || read_trace(path, &tr))
		goto out_remove;
	tr.lost += lost_events(&t);
	if (remove_instance(t.inst))
		fprintf(stderr, "%s: trace: cannot remove %s: %s (rmdir it by hand)\n",
			ascctl_prog, t.inst, strerror(errno));
	t.inst[0] = '\0';

	if (tr.lost)
		fprintf(stderr, "%s: trace: the kernel lost %llu events (buffer full: raise -b)\n",
			ascctl_prog, tr.lost);
	if (asc_timeline_build(&tl, &tr)) {
		fprintf(stderr, "%s: trace: out of memory\n", ascctl_prog);
		goto out_free;
	}
	if (write_output(json, &tl, asc_json_write) || write_output(svg, &tl, asc_svg_write))
		goto out_free;
	summary(&tl, json, svg);
	ret = status;
	goto out_free;

out_remove:
	if (t.inst[0] && remove_instance(t.inst))
		fprintf(stderr, "%s: trace: cannot remove %s: %s (rmdir it by hand)\n",
			ascctl_prog, t.inst, strerror(errno));
out_free:
	asc_timeline_free(&tl);
	free(tr.recs);
	free(tr.command);
	free(json);
	free(svg);
	if (nr_signals && !ran)
		ret = 128 + last_signal;
	return ret;
}
