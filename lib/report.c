// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_report: the text the core runtime hands back, one finding a
 * line.  Lines are appended with printf formats; when memory runs out
 * the text keeps what fitted and says so once, so a report is never lost
 * to a failed allocation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define ASC_REPORT_TRUNCATED	"(report truncated: out of memory)\n"

static bool asc_report_grow(struct asc_report *r, size_t more)
{
	size_t cap = r->cap ? r->cap : 256;
	char *buf;

	while (cap - r->len < more + 1) {
		if (cap > SIZE_MAX / 2)
			return false;
		cap *= 2;
	}
	if (cap == r->cap)
		return true;
	buf = realloc(r->buf, cap);
	if (!buf)
		return false;
	r->buf = buf;
	r->cap = cap;
	return true;
}

void asc_report_add(struct asc_report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->truncated)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !asc_report_grow(r, (size_t)n + 1)) {
		r->truncated = true;
		/* The marker is short: try to say why the text stops here. */
		if (asc_report_grow(r, sizeof(ASC_REPORT_TRUNCATED))) {
			memcpy(r->buf + r->len, ASC_REPORT_TRUNCATED,
			       sizeof(ASC_REPORT_TRUNCATED));
			r->len += sizeof(ASC_REPORT_TRUNCATED) - 1;
		}
		return;
	}
	va_start(ap, fmt);
	vsnprintf(r->buf + r->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->len += n;
	r->buf[r->len++] = '\n';
	r->buf[r->len] = '\0';
}

char *asc_report_take(struct asc_report *r)
{
	char *text = r->buf;

	memset(r, 0, sizeof(*r));
	return text;
}

void asc_report_free(struct asc_report *r)
{
	free(asc_report_take(r));
}
