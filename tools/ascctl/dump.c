// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl dump: the state of every open TPipe, and the launches they run.
 *
 * The driver's debugfs file /sys/kernel/debug/asc_event/tpipes has a block
 * per TPipe, "tpipe: <serial>" first; a TPipe that runs a core of a launch
 * has the line "launch: <serial> core <n> (<AIC|AIV> <block>) of <cores>"
 * (and " in sync_all" while it waits there).  The file is printed as it
 * is, then, when a TPipe runs a core, a summary with one line per launch:
 * its cores by number, each with its TPipe, the way the timeline of
 * ascctl trace groups them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>

#include "ascctl.h"

#define DEBUGFS		"/sys/kernel/debug"
#define DEBUGFS_TPIPES	DEBUGFS "/asc_event/tpipes"

/**
 * struct dump_core - a TPipe that runs a core, from its debugfs block.
 * @launch: the launch's serial.
 * @core: the core's number.
 * @ncores: the launch's cores.
 * @tpipe: the TPipe's serial.
 * @name: the core as the driver names it, "core 4 (AIV 1)".
 * @in_sync_all: it waits in SyncAll.
 */
struct dump_core {
	unsigned int launch;
	unsigned int core;
	unsigned int ncores;
	unsigned int tpipe;
	char name[48];
	bool in_sync_all;
};

static int cmp_core(const void *a, const void *b)
{
	const struct dump_core *x = a, *y = b;

	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	return (x->core > y->core) - (x->core < y->core);
}

/* "launch: 1 core 4 (AIV 1) of 6[ in sync_all]" of TPipe @tpipe; false if not one. */
static bool parse_launch_line(const char *line, unsigned int tpipe, struct dump_core *c)
{
	const char *name, *of;
	int n = 0;

	if (sscanf(line, "launch: %u core %u%n", &c->launch, &c->core, &n) != 2 || !n)
		return false;
	name = strchr(line + strlen("launch: "), ' ') + 1;
	of = strstr(name, " of ");
	if (!of || sscanf(of, " of %u", &c->ncores) != 1)
		return false;
	snprintf(c->name, sizeof(c->name), "%.*s", (int)(of - name), name);
	c->in_sync_all = strstr(of, " in sync_all") != NULL;
	c->tpipe = tpipe;
	return true;
}

/**
 * asc_dump_launches() - the launches of a debugfs text, one line each.
 * @text: the text of /sys/kernel/debug/asc_event/tpipes, NUL-terminated;
 *	changed (split into lines).
 * @out: where the summary goes: nothing when no TPipe runs a core, else
 *	"launches:" and per launch "launch 1 (3 cores, 3 open): core 0 (AIC 0)
 *	TPipe 3, core 1 (AIV 0) TPipe 4, ...", " in sync_all" after a core
 *	waiting there.
 *
 * Return: 0, or -1 when out of memory.
 */
int asc_dump_launches(char *text, FILE *out)
{
	struct dump_core *cores = NULL, *n;
	size_t nr = 0, cap = 0, i, j, k;
	unsigned int tpipe = 0;
	char *line, *next;

	for (line = strtok_r(text, "\n", &next); line; line = strtok_r(NULL, "\n", &next)) {
		if (sscanf(line, "tpipe: %u", &tpipe) == 1)
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 16;
			n = realloc(cores, cap * sizeof(*n));
			if (!n) {
				free(cores);
				return -1;
			}
			cores = n;
		}
		if (parse_launch_line(line, tpipe, &cores[nr]))
			nr++;
	}
	qsort(cores, nr, sizeof(*cores), cmp_core);
	if (nr)
		fputs("\nlaunches:\n", out);
	for (i = 0; i < nr; i = j) {
		for (j = i; j < nr && cores[j].launch == cores[i].launch; j++)
			;
		fprintf(out, "launch %u (%u core%s, %zu open):", cores[i].launch, cores[i].ncores,
			cores[i].ncores == 1 ? "" : "s", j - i);
		for (k = i; k < j; k++)
			fprintf(out, "%s %s TPipe %u%s", k == i ? "" : ",", cores[k].name,
				cores[k].tpipe, cores[k].in_sync_all ? " in sync_all" : "");
		fputc('\n', out);
	}
	free(cores);
	return 0;
}

/* The whole debugfs file, NUL-terminated; NULL with errno. */
static char *read_all(FILE *f)
{
	size_t len = 0, cap = 4096, got;
	char *buf = malloc(cap), *n;

	while (buf) {
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (ferror(f)) {
			free(buf);
			return NULL;
		}
		if (!got)
			break;
		if (len + 1 == cap) {
			cap *= 2;
			n = realloc(buf, cap);
			if (!n)
				free(buf);
			buf = n;
		}
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

static void dump_usage(FILE *f)
{
	fprintf(f,
		"usage: %s dump\n"
		"Print the state of every open TPipe from %s, in\n"
		"serial order: owner, mode, bound pipes, allocated and fetched IDs, set flags,\n"
		"waiters, the launch it runs a core of; then, if any, the launches with their\n"
		"cores and TPipes.  Mounts debugfs if it is not mounted.\n"
		"Exit status: 0 (also with no TPipe open); 1 module not loaded or no debugfs.\n",
		ascctl_prog, DEBUGFS_TPIPES);
}

/**
 * asc_dump_main() - ascctl dump.
 * @argc: arguments after "ascctl", "dump" first.
 * @argv: them.
 *
 * Return: the exit status of ascctl (see dump_usage()).
 */
int asc_dump_main(int argc, char **argv)
{
	struct statfs st;
	char *text;
	FILE *f;
	int ret = 0;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			dump_usage(stdout);
			return 0;
		}
		dump_usage(stderr);
		return 2;
	}
	if ((statfs(DEBUGFS, &st) || st.f_type != DEBUGFS_MAGIC) &&
	    mount("debugfs", DEBUGFS, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		fprintf(stderr, "%s: debugfs is not mounted at %s and cannot be: %s\n",
			ascctl_prog, DEBUGFS, strerror(errno));
		return 1;
	}
	f = fopen(DEBUGFS_TPIPES, "re");
	if (!f) {
		if (errno == ENOENT)
			fprintf(stderr, "%s: no %s: asc_event is not loaded, or older than its debugfs file\n",
				ascctl_prog, DEBUGFS_TPIPES);
		else
			fprintf(stderr, "%s: %s: %s\n", ascctl_prog, DEBUGFS_TPIPES, strerror(errno));
		return 1;
	}
	text = read_all(f);
	if (!text) {
		fprintf(stderr, "%s: %s: %s\n", ascctl_prog, DEBUGFS_TPIPES, strerror(errno));
		fclose(f);
		return 1;
	}
	fclose(f);
	if (!text[0])
		printf("no TPipe open\n");
	fputs(text, stdout);
	if (asc_dump_launches(text, stdout)) {
		fprintf(stderr, "%s: out of memory\n", ascctl_prog);
		ret = 1;
	}
	free(text);
	return ret;
}
