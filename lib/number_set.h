/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct asc_number_set: a set of small numbers (cores, iterations) for
 * the reports' "and N more like it (cores 0-7, iterations 1-4)"
 * (number_set.c).  Not installed.
 */
#ifndef __LIBASC_NUMBER_SET_H__
#define __LIBASC_NUMBER_SET_H__

#include <stddef.h>

/* Zeroed is empty; @v holds @n numbers, sorted, no two the same. */
struct asc_number_set {
	unsigned int *v;
	size_t n;
	size_t cap;
};

/*
 * asc_number_set_add() adds @num (no change when it is there): 0, or -1
 * when out of memory (the set is unchanged).  asc_number_set_free()
 * empties the set.
 */
int asc_number_set_add(struct asc_number_set *s, unsigned int num);
void asc_number_set_free(struct asc_number_set *s);

/*
 * asc_number_set_print() writes the set into @buf (@len bytes, always
 * terminated) as runs: "0-7", "1, 3, 5-9"; after 8 runs, ", ...".
 */
void asc_number_set_print(const struct asc_number_set *s, char *buf, size_t len);

#endif /* __LIBASC_NUMBER_SET_H__ */
