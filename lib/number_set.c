// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_number_set: a sorted array of numbers, added one by one, and
 * printed as runs for a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number_set.h"

#define NUMBER_SET_RUNS	8

int asc_number_set_add(struct asc_number_set *s, unsigned int num)
{
	size_t lo = 0, hi = s->n, mid, cap;
	unsigned int *v;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid] == num)
			return 0;
		if (s->v[mid] < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->n == s->cap) {
		cap = s->cap ? 2 * s->cap : 8;
		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof(*s->v));
	s->v[lo] = num;
	s->n++;
	return 0;
}

void asc_number_set_free(struct asc_number_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void asc_number_set_print(const struct asc_number_set *s, char *buf, size_t len)
{
	size_t i = 0, end, at = 0;
	unsigned int runs = 0;
	int n;

	if (len)
		buf[0] = '\0';
	while (i < s->n && at < len) {
		end = i;
		while (end + 1 < s->n && s->v[end + 1] == s->v[end] + 1)
			end++;
		if (runs == NUMBER_SET_RUNS) {
			snprintf(buf + at, len - at, ", ...");
			return;
		}
		if (end == i)
			n = snprintf(buf + at, len - at, "%s%u", runs ? ", " : "",
				     s->v[i]);
		else
			n = snprintf(buf + at, len - at, "%s%u-%u",
				     runs ? ", " : "", s->v[i], s->v[end]);
		if (n < 0)
			return;
		at += (size_t)n;
		runs++;
		i = end + 1;
	}
}
