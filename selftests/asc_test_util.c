// SPDX-License-Identifier: GPL-2.0
/*
 * Utilities of the selftests: see asc_test_util.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asc_test_util.h"

/*
 * Text buffers, line search and small files: see asc_test_util.h.
 */
void asc_text_add(struct asc_text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->size) {
		size_t size = t->size ? t->size : 4096;
		char *buf;

		while (size < t->len + n + 1)
			size *= 2;
		buf = realloc(t->buf, size);
		if (!buf)
			abort();
		t->buf = buf;
		t->size = size;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

void asc_text_printf(struct asc_text *t, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		asc_text_add(t, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

const char *asc_text_str(const struct asc_text *t)
{
	return t->buf ? t->buf : "";
}

void asc_text_free(struct asc_text *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* The lines of @text that start with @s (@whole: that are @s). */
static int count_lines(const char *text, const char *s, bool whole)
{
	size_t n = strlen(s);
	const char *p = text;
	int count = 0;

	while (*p) {
		if (!strncmp(p, s, n) && (!whole || p[n] == '\n' || p[n] == '\0'))
			count++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return count;
}

int asc_count_lines(const char *text, const char *prefix)
{
	return count_lines(text, prefix, false);
}

int asc_count_line(const char *text, const char *line)
{
	return count_lines(text, line, true);
}

int asc_read_file(const char *path, struct asc_text *t)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	asc_text_free(t);
	asc_text_add(t, "", 0);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		asc_text_add(t, buf, (size_t)n);
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

int asc_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	size_t n = strlen(s);

	if (fd < 0)
		return -errno;
	errno = EIO;
	if (write(fd, s, n) != (ssize_t)n)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Time for the selftests: see asc_test_util.h.
 */
__u64 asc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * ASC_NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

__u64 asc_deadline_ms(unsigned int ms)
{
	return asc_now_ns() + ms * ASC_NSEC_PER_MSEC;
}

void asc_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

long asc_ms_since(__u64 start_ns)
{
	return (long)((asc_now_ns() - start_ns) / ASC_NSEC_PER_MSEC);
}

/*
 * Command-line options of the selftest programs: see asc_test_util.h.
 */
/* The largest number an option's variable holds. */
static unsigned long long type_max(enum asc_option_type type)
{
	switch (type) {
	case ASC_OPT_INT: return INT_MAX;
	case ASC_OPT_UINT: return UINT_MAX;
	case ASC_OPT_ULONG: return ULONG_MAX;
	case ASC_OPT_ULLONG: return ULLONG_MAX;
	case ASC_OPT_SWITCH: break;
	}
	return 1;
}

static unsigned long long option_max(const struct asc_option *o)
{
	unsigned long long max = type_max(o->type);

	return o->max && o->max < max ? o->max : max;
}

static unsigned long long option_get(const struct asc_option *o)
{
	switch (o->type) {
	case ASC_OPT_INT: return (unsigned long long)*(int *)o->value;
	case ASC_OPT_UINT: return *(unsigned int *)o->value;
	case ASC_OPT_ULONG: return *(unsigned long *)o->value;
	case ASC_OPT_ULLONG: return *(unsigned long long *)o->value;
	case ASC_OPT_SWITCH: break;
	}
	return *(bool *)o->value;
}

static void option_set(const struct asc_option *o, unsigned long long v)
{
	switch (o->type) {
	case ASC_OPT_INT: *(int *)o->value = (int)v; break;
	case ASC_OPT_UINT: *(unsigned int *)o->value = (unsigned int)v; break;
	case ASC_OPT_ULONG: *(unsigned long *)o->value = (unsigned long)v; break;
	case ASC_OPT_ULLONG: *(unsigned long long *)o->value = v; break;
	case ASC_OPT_SWITCH: *(bool *)o->value = true; break;
	}
}

int asc_parse_number(const char *s, unsigned long long min, unsigned long long max,
		     unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* The usage, with the defaults @defaults (the values before parsing). */
static void usage(FILE *f, const char *prog, const struct asc_option *opts, int nopts,
		  const unsigned long long *defaults)
{
	int i, width = 2, len;

	fprintf(f, "usage: %s", prog);
	for (i = 0; i < nopts; i++) {
		if (opts[i].arg)
			fprintf(f, " [-%c %s]", opts[i].letter, opts[i].arg);
		else
			fprintf(f, " [-%c]", opts[i].letter);
		len = opts[i].arg ? 3 + (int)strlen(opts[i].arg) : 2;
		if (len > width)
			width = len;
	}
	fputc('\n', f);
	for (i = 0; i < nopts; i++) {
		const struct asc_option *o = &opts[i];
		char flag[64];

		snprintf(flag, sizeof(flag), "-%c%s%s", o->letter, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		fprintf(f, "  %-*s  %s", width, flag, o->help);
		if (o->type != ASC_OPT_SWITCH) {
			fputs(" (", f);
			if (o->max)
				fprintf(f, "%llu..%llu, ", o->min, option_max(o));
			else if (o->min)
				fprintf(f, "at least %llu, ", o->min);
			fprintf(f, o->hex ? "default %#llx)" : "default %llu)", defaults[i]);
		}
		fputc('\n', f);
	}
	fprintf(f, "  %-*s  %s\n", width, "-h", "this help");
}

void asc_parse_options(int argc, char **argv, const struct asc_option *opts, int nopts)
{
	const char *prog = argv[0];
	char optstring[2 * ASC_MAX_OPTIONS + 2];
	unsigned long long v, defaults[ASC_MAX_OPTIONS];
	int i, opt, n = 0, err;

	if (nopts > ASC_MAX_OPTIONS)
		abort();
	for (i = 0; i < nopts; i++) {
		defaults[i] = option_get(&opts[i]);
		optstring[n++] = opts[i].letter;
		if (opts[i].type != ASC_OPT_SWITCH)
			optstring[n++] = ':';
	}
	optstring[n++] = 'h';
	optstring[n] = '\0';

	while ((opt = getopt(argc, argv, optstring)) != -1) {
		const struct asc_option *o = NULL;

		if (opt == 'h') {
			usage(stdout, prog, opts, nopts, defaults);
			exit(0);
		}
		for (i = 0; i < nopts; i++) {
			if (opts[i].letter == opt)
				o = &opts[i];
		}
		if (!o)
			goto bad;
		if (o->type == ASC_OPT_SWITCH) {
			option_set(o, 1);
			continue;
		}
		err = asc_parse_number(optarg, o->min, option_max(o), &v);
		if (err) {
			fprintf(stderr, "%s: -%c %s: %s\n", prog, opt, optarg,
				err == -ERANGE ? "out of range" : "not a number");
			goto bad;
		}
		option_set(o, v);
	}
	if (optind == argc)
		return;
	fprintf(stderr, "%s: unexpected operand '%s'\n", prog, argv[optind]);
bad:
	usage(stderr, prog, opts, nopts, defaults);
	exit(1);
}
