// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The memory checks of the core runtime, as msSanitizer's memcheck does
 * them on the chip: every access an instruction declares (struct
 * asc_access) is checked when the scalar issues it, in program order,
 * before any pipe runs it, so a finding is the same on every run and
 * nothing it names has touched memory yet.
 *
 * - Out of bounds (EFAULT): an access that starts in a local memory and
 *   runs past its end, or past the end of the buffer the TPipe placed
 *   there that holds its first byte; an access that starts in a buffer of
 *   global memory the kernel declared (asc_core_gm_buffer(): an array of
 *   the launch, a GlobalTensor's slice of it) and runs past its end.  The
 *   smallest declared buffer that holds the first byte is the one checked.
 * - Misaligned (EFAULT): an access of MTE2 or MTE3 (DataCopy) to the
 *   Unified Buffer whose first byte is not on a 32-byte boundary.
 * - Uninitialized read: a read of bytes of local memory nothing was
 *   declared to write since the buffer holding them was placed (or since
 *   the kernel started).  A warning line of the report, once per call
 *   site and buffer, unless ASC_UNINIT_READS=error makes it an error
 *   (EFAULT).  One bit per byte of each memory says what was written.
 *
 * Everything here is the scalar's: no lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "memcheck.h"

/* Distinct (call site, buffer) pairs warned of; more are only counted. */
#define MC_WARN_KEYS	64

static const char *const mc_mem_name[ASC_MEM_COUNT] = {
	"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB",
};

/* A buffer of global memory the kernel declared. */
struct mc_gm {
	uintptr_t start;
	size_t size;
	char *name;
};

struct mc_warn_key {
	const char *file;
	int line;
	int mem;
	size_t start;
};

/*
 * struct asc_memcheck - the checker of one core.
 * @base, @size: each local memory of the core (NULL for one it lacks),
 *	looked up at the first access (@looked).
 * @written: a bit per byte of each memory, set by a declared write,
 *	cleared when a buffer is placed over it; allocated at first use.
 * @gm: the global buffers declared, @ngm of them.
 * @uninit_error: ASC_UNINIT_READS=error.
 * @warnings: the warning lines; @keys what they were about (@nkeys),
 *	@more the uninitialized reads not printed.
 */
struct asc_memcheck {
	bool looked;
	unsigned char *base[ASC_MEM_COUNT];
	size_t size[ASC_MEM_COUNT];
	uint8_t *written[ASC_MEM_COUNT];
	struct mc_gm *gm;
	size_t ngm;
	bool uninit_error;
	struct asc_report warnings;
	struct mc_warn_key keys[MC_WARN_KEYS];
	unsigned int nkeys;
	unsigned long more;
};

struct asc_memcheck *asc_memcheck_new(void)
{
	struct asc_memcheck *m = calloc(1, sizeof(*m));
	const char *v = secure_getenv("ASC_UNINIT_READS");

	if (m)
		m->uninit_error = v && !strcmp(v, "error");
	return m;
}

void asc_memcheck_free(struct asc_memcheck *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < ASC_MEM_COUNT; i++)
		free(m->written[i]);
	for (i = 0; i < m->ngm; i++)
		free(m->gm[i].name);
	free(m->gm);
	asc_report_free(&m->warnings);
	free(m);
}

static void mc_look(struct asc_core *c, struct asc_memcheck *m)
{
	int err = errno, i;

	if (m->looked)
		return;
	for (i = 0; i < ASC_MEM_COUNT; i++)
		m->base[i] = asc_core_local_mem(c, i, &m->size[i]);
	m->looked = true;
	errno = err;
}

/* The memory holding @addr, or -1. */
static int mc_mem_of(const struct asc_memcheck *m, uintptr_t addr)
{
	int i;

	for (i = 0; i < ASC_MEM_COUNT; i++)
		if (m->base[i] && addr >= (uintptr_t)m->base[i] &&
		    addr < (uintptr_t)m->base[i] + m->size[i])
			return i;
	return -1;
}

/* The smallest declared global buffer holding @addr, or NULL. */
static const struct mc_gm *mc_gm_of(const struct asc_memcheck *m, uintptr_t addr)
{
	const struct mc_gm *best = NULL;
	size_t i;

	for (i = 0; i < m->ngm; i++)
		if (addr >= m->gm[i].start && addr - m->gm[i].start < m->gm[i].size &&
		    (!best || m->gm[i].size < best->size))
			best = &m->gm[i];
	return best;
}

/* One bit of a written map. */
static void mc_mark_bit(uint8_t *bits, size_t i, bool on)
{
	if (on)
		bits[i / 8] |= 1u << (i % 8);
	else
		bits[i / 8] &= ~(1u << (i % 8));
}

void asc_memcheck_mark(uint8_t *bits, size_t from, size_t len, bool on)
{
	size_t i = from, end = from + len, whole;

	for (; i < end && i % 8; i++)
		mc_mark_bit(bits, i, on);
	whole = (end - i) / 8;
	memset(bits + i / 8, on ? 0xff : 0, whole);
	for (i += whole * 8; i < end; i++)
		mc_mark_bit(bits, i, on);
}

size_t asc_memcheck_unwritten(const uint8_t *bits, size_t from, size_t len,
			      size_t *first)
{
	size_t i = from, end = from + len, n = 0;
	unsigned int unset;

	while (i < end) {
		if (i % 8 || end - i < 8) {
			if (!(bits[i / 8] & (1u << (i % 8))) && !n++)
				*first = i;
			i++;
			continue;
		}
		unset = ~bits[i / 8] & 0xffu;
		if (unset) {
			if (!n)
				*first = i + __builtin_ctz(unset);
			n += __builtin_popcount(unset);
		}
		i += 8;
	}
	return n;
}

void asc_memcheck_placed(struct asc_core *c, int mem, size_t offset, size_t len)
{
	struct asc_memcheck *m = c->memcheck;

	if (m && mem >= 0 && mem < ASC_MEM_COUNT && m->written[mem])
		asc_memcheck_mark(m->written[mem], offset, len, false);
}

/*
 * "reads "NAME" at "IN" [OFF+LEN]" into @buf: the access, and where it is
 * when its own name is another (or none).
 */
static void mc_what(const struct asc_access *a, const char *in, size_t off,
		    char *buf, size_t len)
{
	const char *verb = a->write ? "writes" : "reads";

	if (a->name && strcmp(a->name, in))
		snprintf(buf, len, "%s \"%s\" at \"%s\" [%zu+%zu]", verb, a->name,
			 in, off, a->size);
	else
		snprintf(buf, len, "%s \"%s\" [%zu+%zu]", verb, in, off, a->size);
}

static int mc_fail(struct asc_core *c, const char *kind, int pipe_id,
		   unsigned long seq, const char *what, const char *access,
		   const char *why)
{
	return asc_core_site_fail(c, &c->site, kind, EFAULT, NULL,
				  "#%lu %s on %s of core %d %s, %s", seq,
				  what ? what : "work", asc_pipe_id_name(pipe_id),
				  c->block_idx, access, why);
}

/* An uninitialized read: a warning once per site and buffer, or an error. */
static int mc_uninit(struct asc_core *c, int pipe_id, unsigned long seq,
		     const char *what, const struct asc_access *a, const char *in,
		     size_t off, int mem, size_t start, size_t first, size_t unwritten)
{
	struct asc_memcheck *m = c->memcheck;
	char access[256], why[128], at[96];
	unsigned int i;

	if (!m->uninit_error) {
		for (i = 0; i < m->nkeys; i++)
			if (m->keys[i].file == c->site.file &&
			    m->keys[i].line == c->site.line &&
			    m->keys[i].mem == mem && m->keys[i].start == start)
				return 0;
		if (m->nkeys == MC_WARN_KEYS) {
			m->more++;
			return 0;
		}
	}
	mc_what(a, in, off, access, sizeof(access));
	snprintf(why, sizeof(why),
		 "%zu of its bytes never written since init_buffer (the first at %zu)",
		 unwritten, first);
	if (m->uninit_error)
		return mc_fail(c, "uninitialized read", pipe_id, seq, what, access, why);
	m->keys[m->nkeys++] = (struct mc_warn_key){ c->site.file, c->site.line, mem, start };
	asc_core_site_text(&c->site, at, sizeof(at));
	asc_report_add(&m->warnings,
		       "uninitialized read: #%lu %s on %s of core %d %s, %s%s (a warning)", seq, what ? what : "work", asc_pipe_id_name(pipe_id),
		       c->block_idx, access, why, at);
	return 0;
}

static int mc_local(struct asc_core *c, int pipe_id, unsigned long seq,
		    const char *what, const struct asc_access *a, int mem)
{
	struct asc_memcheck *m = c->memcheck;
	size_t off = (uintptr_t)a->addr - (uintptr_t)m->base[mem];
	size_t start = 0, len = m->size[mem], first = 0, unwritten;
	const char *in = mc_mem_name[mem];
	char access[256], why[96];

	asc_que_buffer_at(c, mem, off, &start, &len, &in);
	if (a->size > start + len - off) {
		mc_what(a, in, off - start, access, sizeof(access));
		snprintf(why, sizeof(why), "past its %zu bytes", len);
		return mc_fail(c, "out of bounds", pipe_id, seq, what, access, why);
	}
	if (mem == ASC_MEM_UB && off % ASC_LOCAL_ALIGN &&
	    (pipe_id == ASC_PIPE_MTE2 || pipe_id == ASC_PIPE_MTE3)) {
		mc_what(a, in, off - start, access, sizeof(access));
		snprintf(why, sizeof(why), "UB+%zu is not on a %d-byte boundary",
			 off, ASC_LOCAL_ALIGN);
		return mc_fail(c, "misaligned", pipe_id, seq, what, access, why);
	}
	if (!m->written[mem]) {
		m->written[mem] = calloc((m->size[mem] + 7) / 8, 1);
		if (!m->written[mem])
			return asc_core_call_fail(c, ENOMEM, "#%lu %s: the memory checker",
						  seq, what ? what : "work");
	}
	if (a->write) {
		asc_memcheck_mark(m->written[mem], off, a->size, true);
		return 0;
	}
	unwritten = asc_memcheck_unwritten(m->written[mem], off, a->size, &first);
	if (unwritten)
		return mc_uninit(c, pipe_id, seq, what, a, in, off - start, mem, start,
				 first - start, unwritten);
	return 0;
}

int asc_memcheck_access(struct asc_core *c, int pipe_id, unsigned long seq,
			const char *what, const struct asc_access *acc,
			unsigned int nacc)
{
	struct asc_memcheck *m = c->memcheck;
	const struct mc_gm *g;
	char access[256], why[96];
	unsigned int i;
	int mem;

	if (!m)
		return 0;
	mc_look(c, m);
	for (i = 0; i < nacc; i++) {
		uintptr_t addr = (uintptr_t)acc[i].addr;

		mem = mc_mem_of(m, addr);
		if (mem >= 0) {
			if (mc_local(c, pipe_id, seq, what, &acc[i], mem))
				return -1;
			continue;
		}
		g = mc_gm_of(m, addr);
		if (!g || acc[i].size <= g->size - (addr - g->start))
			continue;
		mc_what(&acc[i], g->name, addr - g->start, access, sizeof(access));
		snprintf(why, sizeof(why), "past its %zu bytes", g->size);
		return mc_fail(c, "out of bounds", pipe_id, seq, what, access, why);
	}
	return 0;
}

bool asc_memcheck_gm_at(void *ctx, uintptr_t addr, uintptr_t *base,
			const char **name)
{
	const struct asc_core *c = ctx;
	const struct asc_memcheck *m = c->memcheck;
	const struct mc_gm *best = NULL;
	size_t i;

	for (i = 0; m && i < m->ngm; i++)
		if (addr >= m->gm[i].start && addr - m->gm[i].start < m->gm[i].size &&
		    (!best || m->gm[i].size > best->size))
			best = &m->gm[i];
	if (!best)
		return false;
	*base = best->start;
	*name = best->name;
	return true;
}

char *asc_memcheck_warnings(struct asc_core *c)
{
	struct asc_memcheck *m = c->memcheck;

	if (!m)
		return NULL;
	if (m->more)
		asc_report_add(&m->warnings, "uninitialized read: and %lu more (a warning)",
			       m->more);
	m->more = 0;
	return asc_report_take(&m->warnings);
}

ASC_API int asc_core_gm_buffer(struct asc_core *c, const void *addr, size_t size,
			       const char *name)
{
	struct asc_memcheck *m;
	struct mc_gm *gm;
	size_t i;

	if (!c || !addr || !size || (uintptr_t)addr + size - 1 < (uintptr_t)addr)
		return asc_einval();
	if (!pthread_equal(pthread_self(), c->scalar)) {
		errno = EPERM;
		return -1;
	}
	m = c->memcheck;
	if (!m)
		return 0;
	for (i = 0; i < m->ngm; i++)
		if (m->gm[i].start == (uintptr_t)addr && m->gm[i].size == size)
			return 0;
	gm = realloc(m->gm, (m->ngm + 1) * sizeof(*gm));
	if (!gm)
		return -1;
	m->gm = gm;
	gm[m->ngm].start = (uintptr_t)addr;
	gm[m->ngm].size = size;
	gm[m->ngm].name = strdup(name ? name : "GM");
	if (!gm[m->ngm].name)
		return -1;
	m->ngm++;
	return 0;
}
