// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench - the device's figures against the kernel's own primitives.
 *
 * Prints, from one run, each figure with its baselines measured in the
 * same run and the ratio between them, then the goals table of
 * Documentation/performance.rst, each goal "met" or "not met".  The
 * output is TAP: comments, and one "ok" per figure measured ("not ok"
 * with the reason for one that could not be).  No figure is a test: a
 * goal not met is no failure.  The exit status is 0 when every figure was
 * measured, 1 when one was not, 2 on a usage error.
 *
 * Run it in the test guest with `make bench`, or
 * tools/testing/asc-vm -- build/tools/asc-bench [--quick].
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"

#define DEFAULT_RUNS	7
#define DEFAULT_TPIPES	10000
/* --quick: iterations divided by this, 3 runs, 1,000 TPipes. */
#define QUICK_SCALE	100
#define QUICK_RUNS	3
#define QUICK_TPIPES	1000

/*
 * The rows of the goals table, in order.  "uncontended set+wait" and
 * "handoff RTT" are the default user's: threads that bind nothing, checked
 * mode.
 */
enum {
	GOAL_UNCONTENDED_UNBOUND,
	GOAL_UNCONTENDED,
	GOAL_IDS_PAGE,
	GOAL_IDS,
	GOAL_IDS_IOCTLS,
	GOAL_HANDOFF_UNBOUND,
	GOAL_HANDOFF_FLOOR,
	GOAL_HANDOFF,
	GOAL_MANY,
	GOAL_MEMORY,
	GOAL_CORE,
	GOAL_PYTHON,
	NR_GOALS
};

/* The figures, in the order they run; -f names some of them. */
enum {
	FIG_MEMORY, FIG_HANDOFF, FIG_UNCONTENDED, FIG_IDS, FIG_MANY, FIG_CORE, FIG_PYTHON,
	NR_FIGS
};

static const char *const figure_names[NR_FIGS] = {
	[FIG_MEMORY] = "memory",
	[FIG_HANDOFF] = "handoff",
	[FIG_UNCONTENDED] = "uncontended",
	[FIG_IDS] = "ids",
	[FIG_MANY] = "many",
	[FIG_CORE] = "core",
	[FIG_PYTHON] = "python",
};

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: asc-bench [-q] [-a] [-r RUNS] [-t TPIPES] [-d DEVICE] [-f LIST]\n"
		"\n"
		"Times the device against the kernel's primitives and prints each figure,\n"
		"its baselines and their ratio, then the goals table (TAP).\n"
		"\n"
		"  -q, --quick        iterations / %d, %d runs, %d TPipes (a smoke run)\n"
		"  -a, --all-cpus     let the threads run on every CPU (default: all on the\n"
		"                     first CPU the process may use)\n"
		"  -r, --runs RUNS    timed runs per subject, 1..%d (default %d)\n"
		"  -t, --tpipes N     TPipes opened by the many-TPipes and memory figures\n"
		"                     (default %d)\n"
		"  -d, --device PATH  the device node (default $ASC_EVENT_DEV, else\n"
		"                     /dev/asc_event)\n"
		"  -f, --figures LIST only these figures, comma-separated, of: memory,\n"
		"                     handoff, uncontended, ids, many, core, python (default\n"
		"                     all; the others are reported as skipped)\n"
		"  -h, --help         this help\n"
		"\n"
		"Exit status: 0 when every figure was measured (goals met or not), 1 when\n"
		"one could not be, 2 on a usage error.\n",
		QUICK_SCALE, QUICK_RUNS, QUICK_TPIPES, BENCH_RUNS_MAX, DEFAULT_RUNS,
		DEFAULT_TPIPES);
}

/*
 * Every thread of the process on one CPU, the first it may use: a handoff
 * is then a switch between two threads of one CPU, not the wake-up of an
 * idle virtual CPU, whose latency under emulation is the host's.
 */
static int pin_first_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return -1;
	printf("# every thread on CPU %d (-a: on every CPU)\n", cpu);
	return 0;
}

static int parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	*v = n;
	return 0;
}

/* -f: the set of figures named in @list, as bits of 1 << FIG_*. */
static int parse_figures(const char *list, unsigned int *mask)
{
	const char *p = list;
	size_t len;
	int i;

	*mask = 0;
	while (*p) {
		len = strcspn(p, ",");
		for (i = 0; i < NR_FIGS; i++) {
			if (strlen(figure_names[i]) == len &&
			    !strncmp(p, figure_names[i], len))
				break;
		}
		if (i == NR_FIGS)
			return -1;
		*mask |= 1u << i;
		p += len;
		if (*p)
			p++;
	}
	return *mask ? 0 : -1;
}

static void print_goals(const struct bench_goal *goals)
{
	const struct bench_goal *g;
	char value[32];
	int i;

	printf("# goals:\n");
	printf("# | %-40s | %-34s | %-9s | %-16s |\n", "figure", "goal", "measured", "");
	printf("# |%.42s|%.36s|%.11s|%.18s|\n",
	       "------------------------------------------",
	       "------------------------------------", "-----------",
	       "------------------");
	for (i = 0; i < NR_GOALS; i++) {
		g = &goals[i];
		if (!g->measured)
			snprintf(value, sizeof(value), "-");
		else if (!strcmp(g->unit, "x"))
			snprintf(value, sizeof(value), "%.2fx", g->value);
		else
			snprintf(value, sizeof(value), "%.0f B", g->value);
		printf("# | %-40s | %-34s | %-9s | %-16s |\n", g->figure, g->goal, value,
		       !g->measured ? (g->unmeasured ? g->unmeasured : "unknown") :
		       g->value <= g->limit ? "met" : "not met");
	}
}

static int run_figure(int fig, const struct bench_opts *opts, unsigned int test,
		      struct bench_goal *goals)
{
	switch (fig) {
	case FIG_MEMORY:
		return bench_memory(opts, test, &goals[GOAL_MEMORY]);
	case FIG_HANDOFF:
		return bench_handoff(opts, test, &goals[GOAL_HANDOFF],
				     &goals[GOAL_HANDOFF_UNBOUND], &goals[GOAL_HANDOFF_FLOOR]);
	case FIG_UNCONTENDED:
		return bench_uncontended(opts, test, &goals[GOAL_UNCONTENDED],
					 &goals[GOAL_UNCONTENDED_UNBOUND]);
	case FIG_IDS:
		return bench_ids(opts, test, &goals[GOAL_IDS], &goals[GOAL_IDS_PAGE],
				 &goals[GOAL_IDS_IOCTLS]);
	case FIG_MANY:
		return bench_many(opts, test, &goals[GOAL_MANY]);
	case FIG_CORE:
		return bench_core(opts, test, &goals[GOAL_CORE]);
	default:
		return bench_python(opts, test, &goals[GOAL_PYTHON]);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "runs", required_argument, NULL, 'r' },
		{ "tpipes", required_argument, NULL, 't' },
		{ "device", required_argument, NULL, 'd' },
		{ "figures", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts opts = { DEFAULT_RUNS, 1, DEFAULT_TPIPES, NULL };
	bool runs_set = false, tpipes_set = false, all_cpus = false;
	char many_figure[64], count[16];
	struct bench_goal goals[NR_GOALS] = {
		[GOAL_UNCONTENDED_UNBOUND] = { "uncontended set+wait",
					       "<= 1.5x sem_post+sem_wait", 1.5, 0, "x" },
		[GOAL_UNCONTENDED] = { "uncontended set+wait, bound thread",
				       "<= 1.5x sem_post+sem_wait", 1.5, 0, "x" },
		[GOAL_IDS_PAGE] = { "alloc+release", "<= 2x sem_post+sem_wait (page)", 2, 0,
				    "x" },
		[GOAL_IDS] = { "alloc+release", "<= 1.1x two null ioctls", 1.1, 0, "x" },
		[GOAL_IDS_IOCTLS] = { "alloc+release, the two ioctls",
				      "<= 1.1x two null ioctls", 1.1, 0, "x" },
		[GOAL_HANDOFF_UNBOUND] = { "handoff RTT", "<= 1.10x futex", 1.1,
					   0, "x" },
		[GOAL_HANDOFF_FLOOR] = { "handoff RTT against its floor",
					 "<= 1.03x futex + null ioctls", 1.03, 0, "x" },
		[GOAL_HANDOFF] = { "handoff RTT, bound threads", "<= 1.10x futex", 1.1, 0,
				   "x" },
		[GOAL_MANY] = { NULL, "<= 1.05x with 1", 1.05, 0, "x" },
		[GOAL_MEMORY] = { "kernel memory per open, unmapped", "<= 1 KiB", 1024, 0,
				  " B" },
		[GOAL_CORE] = { "core runtime issued round trip", "<= 2x direct", 2, 0, "x" },
		[GOAL_PYTHON] = { "Python issued operation", "<= 2x the C core runtime", 2, 0,
				  "x" },
	};
	struct utsname uts;
	unsigned int test = 0, figures = (1u << NR_FIGS) - 1;
	int c, failed = 0;

	while ((c = getopt_long(argc, argv, "qar:t:d:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			opts.scale = QUICK_SCALE;
			if (!runs_set)
				opts.runs = QUICK_RUNS;
			if (!tpipes_set)
				opts.tpipes = QUICK_TPIPES;
			break;
		case 'a':
			all_cpus = true;
			break;
		case 'r':
			if (parse_uint(optarg, 1, BENCH_RUNS_MAX, &opts.runs) < 0) {
				fprintf(stderr, "asc-bench: RUNS must be 1..%d\n", BENCH_RUNS_MAX);
				return 2;
			}
			runs_set = true;
			break;
		case 't':
			if (parse_uint(optarg, 2, 1000000, &opts.tpipes) < 0) {
				fprintf(stderr, "asc-bench: TPIPES must be 2..1000000\n");
				return 2;
			}
			tpipes_set = true;
			break;
		case 'd':
			opts.device = optarg;
			break;
		case 'f':
			if (parse_figures(optarg, &figures) < 0) {
				fprintf(stderr, "asc-bench: bad figure list: %s\n", optarg);
				return 2;
			}
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		print_usage(stderr);
		return 2;
	}
	if (!opts.device) {
		opts.device = getenv("ASC_EVENT_DEV");
		if (!opts.device || !*opts.device)
			opts.device = "/dev/asc_event";
	}
	snprintf(many_figure, sizeof(many_figure), "flag op with %s open TPipes",
		 bench_count(count, sizeof(count), opts.tpipes));
	goals[GOAL_MANY].figure = many_figure;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", NR_FIGS);
	if (!uname(&uts))
		printf("# kernel %s %s, %ld CPU(s) online, libasc %s\n", uts.release,
		       uts.machine, sysconf(_SC_NPROCESSORS_ONLN), asc_version_string());
	if (all_cpus)
		printf("# threads on every CPU\n");
	else if (pin_first_cpu() < 0)
		printf("# threads not pinned: sched_setaffinity: %s\n", strerror(errno));
	printf("# %u runs per subject, iterations / %u, %u TPipes\n", opts.runs,
	       opts.scale, opts.tpipes);

	/* First, while no figure has opened many files and left slabs behind. */
	for (c = 0; c < NR_FIGS; c++) {
		if (!(figures & (1u << c))) {
			printf("ok %u # SKIP %s: not selected (-f)\n", ++test, figure_names[c]);
			continue;
		}
		failed |= run_figure(c, &opts, ++test, goals) < 0;
	}
	print_goals(goals);
	return failed ? 1 : 0;
}
