// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl - control and observe the asc_event module.
 *
 *   ascctl load [-m FILE] [PARAM=VALUE...]   insert the module (libkmod)
 *   ascctl unload                            remove it (refused while in use)
 *   ascctl status                            state, parameters, counters
 *   ascctl dump                              debugfs state of every open TPipe
 *                                            and the launches (dump.c)
 *   ascctl trace [-o PREFIX] -- COMMAND      timeline of COMMAND (trace.c)
 *
 * Everything the module tells is read where it publishes it: the module's
 * state and reference count from libkmod (/sys/module/asc_event), the
 * parameters from /sys/module/asc_event/parameters, the counters from
 * /sys/class/misc/asc_event/stats, the TPipes from
 * /sys/kernel/debug/asc_event.  See Documentation/ascctl.rst.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libkmod.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ascctl.h"

#define MODULE_NAME	"asc_event"
#define PARAMS_DIR	"/sys/module/" MODULE_NAME "/parameters"
#define STATS_DIR	"/sys/class/misc/" MODULE_NAME "/stats"

/* Exit status of status when the module is not loaded (LSB "not running"). */
#define EXIT_NOT_LOADED	3

const char *ascctl_prog = "ascctl";
static bool verbose;

/* The counters in the order of Documentation/ascctl.rst; others follow, sorted. */
static const char *const stats_order[] = {
	"tpipes_open", "tpipes_created", "ops",
	"err_invalid", "err_no_space", "err_not_allocated", "err_double_set",
	"err_busy_pipe", "err_wrong_pipe", "err_timeout", "err_canceled",
	"err_interrupted", "err_deadlock", "err_fault", "err_unknown_ioctl",
	"deadlocks", "leak_reports", "leaked_ids", "leaked_flags",
};

static void err_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ascctl_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* libkmod's own messages only with -v: ours say what went wrong. */
static void kmod_log(void *data, int priority, const char *file, int line, const char *fn,
		     const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	if (!verbose)
		return;
	fprintf(stderr, "%s: libkmod: ", ascctl_prog);
	vfprintf(stderr, format, args);
}

static struct kmod_ctx *kmod_open(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx) {
		err_msg("cannot initialise libkmod");
		return NULL;
	}
	kmod_set_log_fn(ctx, kmod_log, NULL);
	return ctx;
}

/* Loaded state of the module: KMOD_MODULE_* or -ENOENT when not loaded. */
static int module_state(struct kmod_ctx *ctx, int *refcnt)
{
	struct kmod_module *mod;
	int state;

	if (kmod_module_new_from_name(ctx, MODULE_NAME, &mod) < 0)
		return -ENOENT;
	state = kmod_module_get_initstate(mod);
	if (refcnt)
		*refcnt = state >= 0 ? kmod_module_get_refcnt(mod) : -1;
	kmod_module_unref(mod);
	return state;
}

/* ---- sysfs helpers ---------------------------------------------------------- */

static int read_value(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t n;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular entries of @dir, sorted; NULL with errno on failure. */
static char **list_dir(const char *dir, size_t *nr)
{
	struct dirent *de;
	char **names = NULL, **n;
	size_t cap = 0;
	DIR *d;

	*nr = 0;
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*nr + 1 >= cap) {
			cap = cap ? 2 * cap : 32;
			n = realloc(names, cap * sizeof(*names));
			if (!n)
				goto oom;
			names = n;
		}
		names[*nr] = strdup(de->d_name);
		if (!names[*nr])
			goto oom;
		(*nr)++;
	}
	closedir(d);
	if (!names) {
		names = calloc(1, sizeof(*names));
		if (!names)
			return NULL;
	}
	qsort(names, *nr, sizeof(*names), cmp_str);
	return names;
oom:
	closedir(d);
	while (*nr)
		free(names[--*nr]);
	free(names);
	errno = ENOMEM;
	return NULL;
}

static void free_list(char **names, size_t nr)
{
	while (nr)
		free(names[--nr]);
	free(names);
}

/* ---- load / unload ---------------------------------------------------------- */

static void load_usage(FILE *f)
{
	fprintf(f,
		"usage: %s load [-m FILE] [PARAM=VALUE...]\n"
		"Insert the asc_event module with libkmod, with the module parameters given\n"
		"(event_ids=1..64, checked=0|1).  The module file is FILE, else $ASC_EVENT_KO,\n"
		"else the asc_event that modprobe finds, else build/driver/$(uname -r)/asc_event.ko\n"
		"of the tree ascctl was built in.\n"
		"  -m FILE    the module file to insert\n"
		"  -v         show libkmod's messages\n"
		"Exit status: 0 loaded; 1 not loaded (already loaded, no file, not root, ...);\n"
		"2 bad usage (a parameter that is not PARAM=VALUE).\n",
		ascctl_prog);
}

/* build/driver/<release>/asc_event.ko next to build/tools/ascctl. */
static char *tree_module(void)
{
	char exe[PATH_MAX], *path = NULL, *slash;
	struct utsname u;
	ssize_t n;
	int up;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0 || uname(&u))
		return NULL;
	exe[n] = '\0';
	for (up = 0; up < 3; up++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	if (asprintf(&path, "%s/build/driver/%s/%s.ko", exe, u.release, MODULE_NAME) < 0)
		return NULL;
	return path;
}

static char *join_params(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0, p = s; i < argc; i++)
		p += sprintf(p, "%s%s", i ? " " : "", argv[i]);
	return s;
}

static void load_error(int err, const char *what)
{
	switch (err) {
	case EEXIST:
		err_msg("%s is already loaded (ascctl unload first)", MODULE_NAME);
		break;
	case ENOENT:
		err_msg("%s: no such module file", what);
		break;
	case EPERM:
	case EACCES:
		err_msg("inserting %s: %s (root, CAP_SYS_MODULE needed)", what, strerror(err));
		break;
	case ENOEXEC:
		err_msg("%s: not a module for this kernel (%s)", what, strerror(err));
		break;
	case EINVAL:
		err_msg("inserting %s: invalid module or parameter (the kernel log says which)",
			what);
		break;
	default:
		err_msg("inserting %s: %s", what, strerror(err));
		break;
	}
}

static int cmd_load(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "module", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *file = NULL, *what;
	char *params = NULL, *fallback = NULL;
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int opt, i, err, ret = 1;
	bool by_name = false;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+m:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			file = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			load_usage(stdout);
			return 0;
		default:
			load_usage(stderr);
			return 2;
		}
	}
	for (i = optind; i < argc; i++) {
		/* The kernel would take a bare PARAM as PARAM=1 (bool) or refuse it. */
		if (argv[i][0] == '-' || argv[i][0] == '=' || !strchr(argv[i], '=') ||
		    strchr(argv[i], ' ')) {
			err_msg("bad module parameter '%s': PARAM=VALUE", argv[i]);
			return 2;
		}
	}
	ctx = kmod_open();
	if (!ctx)
		return 1;
	if (module_state(ctx, NULL) >= 0) {
		load_error(EEXIST, MODULE_NAME);
		goto out;
	}

	if (!file && getenv("ASC_EVENT_KO") && *getenv("ASC_EVENT_KO"))
		file = getenv("ASC_EVENT_KO");
	if (!file && kmod_module_new_from_name_lookup(ctx, MODULE_NAME, &mod) >= 0 && mod) {
		if (kmod_module_get_path(mod)) {
			by_name = true;
		} else {
			kmod_module_unref(mod);
			mod = NULL;
		}
	}
	if (!file && !mod) {
		fallback = tree_module();
		file = fallback;
		if (!file) {
			err_msg("no module: give -m FILE or set ASC_EVENT_KO");
			goto out;
		}
	}
	what = file ? file : kmod_module_get_path(mod);
	if (file && access(file, F_OK)) {
		load_error(errno, file);
		goto out;
	}
	if (file) {
		err = kmod_module_new_from_path(ctx, file, &mod);
		if (err < 0) {
			load_error(-err, file);
			goto out;
		}
	}
	params = join_params(argc - optind, argv + optind);
	if (!params) {
		err_msg("out of memory");
		goto out;
	}
	if (by_name)
		err = kmod_module_probe_insert_module(mod, KMOD_PROBE_FAIL_ON_LOADED, params, NULL,
						      NULL, NULL);
	else
		err = kmod_module_insert_module(mod, 0, params);
	if (err < 0) {
		load_error(-err, what);
		goto out;
	}
	if (err > 0) {
		err_msg("%s is blacklisted; not loaded", MODULE_NAME);
		goto out;
	}
	printf("%s: loaded %s%s%s\n", ascctl_prog, what, *params ? " " : "", params);
	ret = 0;
out:
	free(params);
	free(fallback);
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}

static void unload_usage(FILE *f)
{
	fprintf(f,
		"usage: %s unload\n"
		"Remove the asc_event module.  Refused while a TPipe is open: close the\n"
		"programs using /dev/asc_event first.\n"
		"Exit status: 0 removed; 1 not loaded, in use or not permitted.\n",
		ascctl_prog);
}

static int cmd_unload(int argc, char **argv)
{
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	char open[32] = "";
	int refcnt, err, ret = 1;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			unload_usage(stdout);
			return 0;
		}
		unload_usage(stderr);
		return 2;
	}
	ctx = kmod_open();
	if (!ctx)
		return 1;
	if (module_state(ctx, &refcnt) < 0) {
		err_msg("%s is not loaded", MODULE_NAME);
		goto out_ctx;
	}
	err = kmod_module_new_from_name(ctx, MODULE_NAME, &mod);
	if (err < 0) {
		err_msg("%s: %s", MODULE_NAME, strerror(-err));
		goto out_ctx;
	}
	err = kmod_module_remove_module(mod, 0);
	if (err == -EBUSY || err == -EAGAIN) {
		read_value(STATS_DIR, "tpipes_open", open, sizeof(open));
		err_msg("%s is in use: %s%sreference count %d; %s",
			MODULE_NAME, open, open[0] ? " TPipe(s) open, " : "",
			kmod_module_get_refcnt(mod),
			"close the programs using /dev/" MODULE_NAME " first");
	} else if (err == -EPERM) {
		err_msg("removing %s: %s (root, CAP_SYS_MODULE needed)", MODULE_NAME,
			strerror(-err));
	} else if (err < 0) {
		err_msg("removing %s: %s", MODULE_NAME, strerror(-err));
	} else {
		printf("%s: unloaded %s\n", ascctl_prog, MODULE_NAME);
		ret = 0;
	}
	kmod_module_unref(mod);
out_ctx:
	kmod_unref(ctx);
	return ret;
}

/* ---- status ------------------------------------------------------------------ */

/**
 * struct status_line - one NAME VALUE line of ascctl status.
 * @name: the name.
 * @value: the value.
 */
struct status_line {
	char name[64];
	char value[64];
};

static int add_line(struct status_line **lines, size_t *nr, const char *name, const char *value)
{
	struct status_line *n = realloc(*lines, (*nr + 1) * sizeof(*n));

	if (!n)
		return -1;
	*lines = n;
	snprintf(n[*nr].name, sizeof(n[*nr].name), "%s", name);
	snprintf(n[*nr].value, sizeof(n[*nr].value), "%s", value);
	(*nr)++;
	return 0;
}

static int add_dir(struct status_line **lines, size_t *nr, const char *dir,
		   const char *const *order, size_t nr_order)
{
	char **names, value[64];
	size_t n, i, k;
	int ret = 0;

	names = list_dir(dir, &n);
	if (!names)
		return errno == ENOENT ? 1 : -1;
	for (k = 0; k < nr_order; k++) {
		for (i = 0; i < n && strcmp(names[i], order[k]); i++)
			;
		if (i == n || read_value(dir, names[i], value, sizeof(value)))
			continue;
		names[i][0] = '\0';
		ret |= add_line(lines, nr, order[k], value);
	}
	for (i = 0; i < n; i++)
		if (names[i][0] && !read_value(dir, names[i], value, sizeof(value)))
			ret |= add_line(lines, nr, names[i], value);
	free_list(names, n);
	return ret;
}

static void status_usage(FILE *f)
{
	fprintf(f,
		"usage: %s status\n"
		"Show whether asc_event is loaded, its reference count, its parameters\n"
		"(%s) and its counters (%s), one NAME VALUE line each.\n"
		"Exit status: 0 loaded; %d not loaded; 1 error.\n",
		ascctl_prog, PARAMS_DIR, STATS_DIR, EXIT_NOT_LOADED);
}

static int cmd_status(int argc, char **argv)
{
	struct status_line *lines = NULL;
	struct kmod_ctx *ctx;
	size_t nr = 0, i, width = 0;
	char buf[32];
	int state, refcnt, ret = 1, r;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			status_usage(stdout);
			return 0;
		}
		status_usage(stderr);
		return 2;
	}
	ctx = kmod_open();
	if (!ctx)
		return 1;
	state = module_state(ctx, &refcnt);
	kmod_unref(ctx);
	if (add_line(&lines, &nr, "module", MODULE_NAME))
		goto oom;
	if (state < 0) {
		if (add_line(&lines, &nr, "state", "not loaded"))
			goto oom;
		ret = EXIT_NOT_LOADED;
		goto print;
	}
	snprintf(buf, sizeof(buf), "%d", refcnt);
	if (add_line(&lines, &nr, "state", kmod_module_initstate_str(state)) ||
	    add_line(&lines, &nr, "refcount", buf))
		goto oom;
	r = add_dir(&lines, &nr, PARAMS_DIR, NULL, 0);
	if (r < 0)
		goto oom;
	r = add_dir(&lines, &nr, STATS_DIR, stats_order,
		    sizeof(stats_order) / sizeof(stats_order[0]));
	if (r < 0)
		goto oom;
	if (r > 0)
		err_msg("no counters in %s: a driver older than the counters", STATS_DIR);
	ret = 0;
print:
	for (i = 0; i < nr; i++)
		if (strlen(lines[i].name) > width)
			width = strlen(lines[i].name);
	for (i = 0; i < nr; i++)
		printf("%-*s  %s\n", (int)width, lines[i].name, lines[i].value);
	free(lines);
	return ret;
oom:
	err_msg("out of memory");
	free(lines);
	return 1;
}

/* ---- main ------------------------------------------------------------------------ */

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s COMMAND [ARGS...]\n"
		"Control and observe the asc_event module (/dev/asc_event).\n"
		"\n"
		"  load [-m FILE] [PARAM=VALUE...]   insert the module\n"
		"  unload                            remove the module (refused while in use)\n"
		"  status                            loaded?, reference count, parameters, counters\n"
		"  dump                              state of every open TPipe and the\n"
		"                                    launches they run (debugfs)\n"
		"  trace [-o PREFIX] -- COMMAND      record COMMAND's device calls: PREFIX.json\n"
		"                                    (Perfetto/Chrome) and PREFIX.svg\n"
		"\n"
		"'%s COMMAND --help' describes each.  Most need root.  See\n"
		"Documentation/ascctl.rst.\n",
		ascctl_prog, ascctl_prog);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} cmds[] = {
		{ "load", cmd_load },
		{ "unload", cmd_unload },
		{ "status", cmd_status },
		{ "dump", asc_dump_main },
		{ "trace", asc_trace_main },
	};
	size_t i;

	if (argc < 2) {
		print_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].run(argc - 1, argv + 1);
	err_msg("unknown command '%s'", argv[1]);
	print_usage(stderr);
	return 2;
}
