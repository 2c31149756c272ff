// SPDX-License-Identifier: GPL-2.0
/*
 * The shared part of the ported kernels (see example.h): command line,
 * run, report, check, and the deleted sync call.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

unsigned int ex_run;

static const struct example *ex_current;
static const char *ex_deleted;
/* Per site, how many times the kernel reached it. */
static unsigned long *ex_reached;

/* The index of site @key; a key the example does not list is a bug. */
static unsigned int ex_site_index(const char *key)
{
	unsigned int i;

	for (i = 0; i < ex_current->nsites; i++)
		if (!strcmp(ex_current->sites[i].key, key))
			return i;
	fprintf(stderr, "%s: sync call at an unlisted site %s\n",
		ex_current->name, key);
	exit(1);
}

/* Count the site; true when it is the deleted one. */
static int ex_skip(const char *key)
{
	ex_reached[ex_site_index(key)]++;
	return ex_deleted && !strcmp(ex_deleted, key);
}

int ex_set(struct asc_core *core, const char *key, int event, int id)
{
	if (ex_skip(key))
		return 0;
	return asc_core_set_flag(core, event, id);
}

int ex_wait(struct asc_core *core, const char *key, int event, int id)
{
	if (ex_skip(key))
		return 0;
	return asc_core_wait_flag(core, event, id);
}

int ex_cross_set(struct asc_core *core, const char *key, int flag_id,
		 int mode, int pipe_id)
{
	if (ex_skip(key))
		return 0;
	return asc_core_cross_set_flag(core, flag_id, mode, pipe_id);
}

int ex_cross_wait(struct asc_core *core, const char *key, int flag_id,
		  int pipe_id)
{
	if (ex_skip(key))
		return 0;
	return asc_core_cross_wait_flag(core, flag_id, pipe_id);
}

int ex_sync_all(struct asc_core *core, const char *key)
{
	if (ex_skip(key))
		return 0;
	return asc_core_sync_all(core);
}

static void ex_usage(const struct example *ex, FILE *f)
{
	fprintf(f,
		"usage: %s [-s SITE] [-l] [-S] [-d DEVICE] [-h]%s%s\n"
		"%s\n"
		"Ported line by line from %s,\n"
		"run on libasc's core runtime, and checked against plain C.\n"
		"  -s SITE    delete the sync call at SITE (a line of the original, see -l):\n"
		"             the run must then report a missing sync, a possible double\n"
		"             set or a deadlock (exit status 3)\n"
		"  -l         list the sync calls: SITE and the call as the original has it\n"
		"  -S         strict IDs (pyasc's rule): hand-written IDs are refused\n"
		"  -d DEVICE  device node (default $ASC_EVENT_DEV, else /dev/asc_event)\n"
		"%s"
		"  -h         this help\n"
		"Exit status: 0 verified, 1 error or wrong result, 2 bad usage, 3 missing\n"
		"sync, possible double set or deadlock reported, 4 device absent.\n",
		ex->name, ex->options ? " " : "",
		ex->options ? "[OPTIONS]" : "", ex->what, ex->follows,
		ex->options_help ? ex->options_help : "");
}

/* Print the runtime's report, one line each; is it the detector's? */
static int ex_print_report(const char *name, int err, const char *text)
{
	static const char *const findings[] = {
		"missing sync: ", "missing wait: ", "possible double set: ",
		"deadlock: ", "error: deadlock across the cores of the launch",
	};
	const char *line = text, *nl;
	unsigned int i;
	int detector = 0;

	fprintf(stderr, "%s: %s\n", name, strerror(err));
	/* A launch's report names the core first: any line may be it. */
	while (line && *line) {
		for (i = 0; i < sizeof(findings) / sizeof(findings[0]); i++)
			if (!strncmp(line, findings[i], strlen(findings[i])))
				detector = 1;
		nl = strchr(line, '\n');
		fprintf(stderr, "%s: %.*s\n", name,
			(int)(nl ? nl - line : (long)strlen(line)), line);
		line = nl ? nl + 1 : NULL;
	}
	return detector && (err == ENOLCK || err == EBUSY || err == EDEADLK);
}

/* After a run that deleted nothing: every site must have been reached. */
static int ex_all_reached(const struct example *ex)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ex->nsites; i++) {
		if (ex_reached[i])
			continue;
		fprintf(stderr, "%s: the sync call at %s was never reached\n",
			ex->name, ex->sites[i].key);
		ret = -1;
	}
	return ret;
}

static char ex_optstring[64];

int ex_main(const struct example *ex, int argc, char **argv)
{
	struct asc_core_attr attr = { 0 };
	struct asc_pipe *probe;
	char *report = NULL;
	int opt, ret = 1, err, list = 0, own_options = 0;
	unsigned int i;

	ex_current = ex;
	snprintf(ex_optstring, sizeof(ex_optstring), "s:lSd:h%s",
		 ex->options ? ex->options : "");
	while ((opt = getopt(argc, argv, ex_optstring)) != -1) {
		switch (opt) {
		case 's':
			ex_deleted = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'S':
			attr.strict_ids = 1;
			break;
		case 'd':
			attr.device = optarg;
			break;
		case 'h':
			ex_usage(ex, stdout);
			return 0;
		case '?':
			ex_usage(ex, stderr);
			return 2;
		default:
			own_options = 1;
			if (ex->option(opt, optarg) < 0) {
				ex_usage(ex, stderr);
				return 2;
			}
		}
	}
	if (optind != argc) {
		ex_usage(ex, stderr);
		return 2;
	}
	/* After every option: an option may choose which sites there are. */
	if (list) {
		for (i = 0; i < ex->nsites; i++)
			printf("%s %s\n", ex->sites[i].key, ex->sites[i].call);
		return 0;
	}
	if (ex_deleted) {
		for (i = 0; i < ex->nsites && strcmp(ex->sites[i].key, ex_deleted); i++)
			;
		if (i == ex->nsites) {
			fprintf(stderr, "%s: no sync call at %s (see -l)\n", ex->name,
				ex_deleted);
			return 2;
		}
	}

	probe = asc_pipe_open(attr.device);
	if (!probe) {
		err = errno;
		fprintf(stderr, "%s: asc_pipe_open: %s\n", ex->name, strerror(err));
		return err == ENOENT || err == ENODEV || err == ENXIO ? 4 : 1;
	}
	asc_pipe_close(probe);

	ex_reached = calloc(ex->nsites, sizeof(*ex_reached));
	if (!ex_reached || ex->prepare() < 0) {
		fprintf(stderr, "%s: out of memory\n", ex->name);
		goto out;
	}
	for (ex_run = 0; ex_run < (ex->runs ? ex->runs : 1); ex_run++) {
		if ((ex->block_dim ?
		     asc_launch_run(ex->kernel, NULL, ex->launch_kind,
				    ex->block_dim, &attr, &report) :
		     asc_core_run(ex->kernel, NULL, &attr, &report)) < 0) {
			err = errno;
			if (ex->runs)
				fprintf(stderr, "%s: run %u of %u\n", ex->name,
					ex_run + 1, ex->runs);
			ret = ex_print_report(ex->name, err, report) ? 3 : 1;
			goto out;
		}
	}
	if (ex_deleted) {
		fprintf(stderr, "%s: without the sync call at %s, nothing was reported\n",
			ex->name, ex_deleted);
		goto out;
	}
	/* Other sizes may skip a site (no second tile, say). */
	if ((!own_options && ex_all_reached(ex) < 0) || ex->verify() < 0)
		goto out;
	printf("%s: OK, verified against plain C (%u sync calls, none missing)\n",
	       ex->name, ex->nsites);
	ret = 0;
out:
	free(report);
	free(ex_reached);
	if (ex->cleanup)
		ex->cleanup();
	return ret;
}
