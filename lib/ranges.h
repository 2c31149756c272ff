/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Address ranges with overlap queries, for the missing-sync detector
 * (ranges.c).  Not installed.
 */
#ifndef __LIBASC_RANGES_H__
#define __LIBASC_RANGES_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * struct asc_range - a range [@lo, @hi), @lo < @hi, embedded in what the
 * caller keeps; the rest is the set's.
 */
struct asc_range {
	uintptr_t lo;
	uintptr_t hi;
	uintptr_t max_hi;
	uint64_t key;
	uint32_t prio;
	struct asc_range *left;
	struct asc_range *right;
};

/* struct asc_ranges - the set; zeroed is empty. */
struct asc_ranges {
	struct asc_range *root;
	uint64_t next_key;
	uint32_t seed;
	size_t count;
};

/* The result of asc_ranges_overlap(); zeroed is empty, free(v) when done. */
struct asc_range_list {
	struct asc_range **v;
	size_t len;
	size_t cap;
};

void asc_ranges_insert(struct asc_ranges *t, struct asc_range *n);
void asc_ranges_remove(struct asc_ranges *t, struct asc_range *n);

/*
 * The ranges of @t overlapping [@lo, @hi) into @out, by @lo, then by
 * insertion.  Return: 0, or -1 when out of memory.
 */
int asc_ranges_overlap(const struct asc_ranges *t, uintptr_t lo,
		       uintptr_t hi, struct asc_range_list *out);

/* Empty @t, handing every range to @release. */
void asc_ranges_clear(struct asc_ranges *t,
		      void (*release)(struct asc_range *));

#endif /* __LIBASC_RANGES_H__ */
