/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memory checks of the core runtime (memcheck.c): every access an
 * instruction declares, checked when it is issued, before any pipe runs
 * it.  Not installed.
 */
#ifndef __LIBASC_MEMCHECK_H__
#define __LIBASC_MEMCHECK_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc.h"

struct asc_core;
struct asc_memcheck;

/*
 * asc_memcheck_new() reads ASC_UNINIT_READS (when the run starts) and
 * returns the checker of one core, NULL when out of memory;
 * asc_memcheck_free() frees it.
 */
struct asc_memcheck *asc_memcheck_new(void);
void asc_memcheck_free(struct asc_memcheck *m);

/*
 * asc_memcheck_access() checks the @nacc accesses of instruction @seq
 * (@what on @pipe_id) of core @c: out of bounds of its memory, of a
 * placed buffer or of a global buffer; a misaligned Unified Buffer
 * address of MTE2 or MTE3; a read of local memory never written since its
 * buffer was placed (a warning, an error with ASC_UNINIT_READS=error).
 * Return: 0, or -1 with the run failed (EFAULT).
 */
int asc_memcheck_access(struct asc_core *c, int pipe_id, unsigned long seq,
			const char *what, const struct asc_access *acc,
			unsigned int nacc);

/*
 * asc_memcheck_placed() forgets what was written at @len bytes from
 * @offset of memory @mem: init_buffer() placed a buffer there.
 */
void asc_memcheck_placed(struct asc_core *c, int mem, size_t offset, size_t len);

/*
 * The map of what was written, a bit per byte (bit i % 8 of byte i / 8):
 * asc_memcheck_mark() sets (@on) or clears the bits of @len bytes from
 * @from; asc_memcheck_unwritten() returns how many of them are clear,
 * the first stored in *@first when there is one.
 */
void asc_memcheck_mark(uint8_t *bits, size_t from, size_t len, bool on);
size_t asc_memcheck_unwritten(const uint8_t *bits, size_t from, size_t len,
			      size_t *first);

/*
 * asc_memcheck_gm_at() is how the detector's reports name global memory
 * (asc_race_buffers(), @ctx the core): of the buffers declared with
 * asc_core_gm_buffer() that hold @addr, the largest (the array of the
 * launch rather than a core's part of it, so that the cores' offsets
 * compare): true with its first byte and name stored; false for none.
 */
bool asc_memcheck_gm_at(void *ctx, uintptr_t addr, uintptr_t *base,
			const char **name);

/*
 * asc_memcheck_warnings() hands over the warnings (NULL for none), one
 * line each.
 */
char *asc_memcheck_warnings(struct asc_core *c);

/*
 * que.c, for memcheck.c: the buffer of @mem that holds byte @offset,
 * placed since the last init or reset: true with its first byte, length
 * and name stored; false when no buffer holds it.
 */
bool asc_que_buffer_at(const struct asc_core *c, int mem, size_t offset,
		       size_t *start, size_t *len, const char **name);

#endif /* __LIBASC_MEMCHECK_H__ */
