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

/* Count the site (the cores of a launch count at once); true when deleted. */
static int ex_skip(const char *key)
{
	__atomic_fetch_add(&ex_reached[ex_site_index(key)], 1, __ATOMIC_RELAXED);
	return ex_deleted && !strcmp(ex_deleted, key);
}

int ex_set_at(struct asc_core *core, const char *key, int event, int id,
	      const char *file, int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_set_flag_at(core, event, id, file, line);
}

int ex_wait_at(struct asc_core *core, const char *key, int event, int id,
	       const char *file, int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_wait_flag_at(core, event, id, file, line);
}

int ex_cross_set_at(struct asc_core *core, const char *key, int flag_id,
		    int mode, int pipe_id, const char *file, int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_cross_set_flag_at(core, flag_id, mode, pipe_id, file, line);
}

int ex_cross_wait_at(struct asc_core *core, const char *key, int flag_id,
		     int pipe_id, const char *file, int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_cross_wait_flag_at(core, flag_id, pipe_id, file, line);
}

int ex_pipe_barrier_at(struct asc_core *core, const char *key, int pipe_id,
		       const char *file, int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_pipe_barrier_at(core, pipe_id, file, line);
}

int ex_sync_all_at(struct asc_core *core, const char *key, const char *file,
		   int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_sync_all_at(core, file, line);
}

/*
 * What the kernel enqueued and has not dequeued, per queue of the core
 * the calling thread runs (each core of a launch has a scalar thread of
 * its own): what a deleted DeQue takes.
 */
#define EX_QUES		16
#define EX_HELD		8

static __thread struct ex_held {
	struct asc_que *que;
	struct asc_local t[EX_HELD];
	unsigned int head, count;
} ex_held[EX_QUES];

static struct ex_held *ex_held_of(struct asc_que *que)
{
	unsigned int i;

	for (i = 0; i < EX_QUES; i++)
		if (ex_held[i].que == que)
			return &ex_held[i];
	for (i = 0; i < EX_QUES; i++)
		if (!ex_held[i].que) {
			ex_held[i].que = que;
			return &ex_held[i];
		}
	fprintf(stderr, "%s: more than %d queues\n", ex_current->name, EX_QUES);
	exit(1);
}

/* A run starts: the queues of the last one are gone. */
static void ex_held_clear(void)
{
	memset(ex_held, 0, sizeof(ex_held));
}

int ex_enque_at(struct asc_core *core, const char *key, struct asc_que *que,
		const struct asc_local *t, const char *file, int line)
{
	struct ex_held *h;

	if (ex_skip(key))
		return 0;
	if (asc_core_enque_at(core, que, t, file, line) < 0)
		return -1;
	h = ex_held_of(que);
	if (h->count < EX_HELD)
		h->t[(h->head + h->count++) % EX_HELD] = *t;
	return 0;
}

int ex_deque_at(struct asc_core *core, const char *key, struct asc_que *que,
		struct asc_local *out, const char *file, int line)
{
	struct ex_held *h = ex_held_of(que);

	if (ex_skip(key)) {
		if (!h->count) {
			errno = ENODATA;
			return -1;
		}
		*out = h->t[h->head];
	} else if (asc_core_deque_at(core, que, out, file, line) < 0) {
		return -1;
	}
	if (h->count) {
		h->head = (h->head + 1) % EX_HELD;
		h->count--;
	}
	return 0;
}

int ex_free_tensor_at(struct asc_core *core, const char *key, struct asc_que *que,
		      const struct asc_local *t, const char *file, int line)
{
	if (ex_skip(key))
		return 0;
	return asc_core_free_tensor_at(core, que, t, file, line);
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
		"             set, a deadlock, an ID in use or a misuse of a queue (exit\n"
		"             status 3)\n"
		"  -l         list the sync calls: SITE and the call as the original has it\n"
		"  -S         strict IDs (pyasc's rule): hand-written IDs are refused\n"
		"  -d DEVICE  device node (default $ASC_EVENT_DEV, else /dev/asc_event)\n"
		"%s"
		"  -h         this help\n"
		"Exit status: 0 verified, 1 error, wrong result or a warning of the memory\n"
		"checks, 2 bad usage, 3 missing sync, possible double set, deadlock, misuse\n"
		"of a queue or an error of the memory checks reported, 4 device absent.\n",
		ex->name, ex->options ? " " : "",
		ex->options ? "[OPTIONS]" : "", ex->what, ex->follows,
		ex->options_help ? ex->options_help : "");
}

/*
 * Print the runtime's report, one line each; is it the detector's, a
 * queue's misuse (a "queue:" line) or a memory check's error?
 */
static int ex_print_report(const char *name, int err, const char *text)
{
	static const char *const findings[] = {
		"missing sync: ", "missing wait: ", "possible double set: ",
		"deadlock: ", "error: deadlock across the cores of the launch",
		"in use: ",
	};
	static const char *const memory[] = {
		"out of bounds: ", "misaligned: ", "uninitialized read: ",
	};
	static const int queue_errs[] = {
		ENODATA, EOVERFLOW, EXDEV, ENOENT, EALREADY, EBUSY, EDEADLK, ENOLCK,
	};
	const char *line = text, *nl;
	unsigned int i;
	int detector = 0, queue = 0, mem = 0;

	fprintf(stderr, "%s: %s\n", name, strerror(err));
	/* A launch's report names the core first: any line may be it. */
	while (line && *line) {
		for (i = 0; i < sizeof(findings) / sizeof(findings[0]); i++)
			if (!strncmp(line, findings[i], strlen(findings[i])))
				detector = 1;
		if (!strncmp(line, "queue: ", 7))
			queue = 1;
		for (i = 0; i < sizeof(memory) / sizeof(memory[0]); i++)
			if (!strncmp(line, memory[i], strlen(memory[i])))
				mem = 1;
		nl = strchr(line, '\n');
		fprintf(stderr, "%s: %.*s\n", name,
			(int)(nl ? nl - line : (long)strlen(line)), line);
		line = nl ? nl + 1 : NULL;
	}
	if (mem && err == EFAULT)
		return 1;
	if (detector && (err == ENOLCK || err == EBUSY || err == EDEADLK || err == EADDRINUSE))
		return 1;
	for (i = 0; queue && i < sizeof(queue_errs) / sizeof(queue_errs[0]); i++)
		if (err == queue_errs[i])
			return 1;
	return 0;
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
		ex_held_clear();
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
		/* A run without an error reports only the memory checks' warnings. */
		if (report) {
			fprintf(stderr, "%s: the memory checks warn:\n%s", ex->name, report);
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
