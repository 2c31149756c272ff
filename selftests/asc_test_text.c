// SPDX-License-Identifier: GPL-2.0
/*
 * Text buffers, line search and small files: see asc_test_text.h.
 */
#include "asc_test_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int asc_count_lines(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;
	int count = 0;

	while (*p) {
		if (!strncmp(p, prefix, n))
			count++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return count;
}

int asc_count_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;
	int count = 0;

	while (*p) {
		if (!strncmp(p, line, n) && (p[n] == '\n' || p[n] == '\0'))
			count++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return count;
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
