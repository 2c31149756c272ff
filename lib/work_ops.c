// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The work libasc runs itself: data_copy and the vector instructions of
 * struct asc_op, issued with asc_core_issue_op() and run by the pipe's
 * thread with no call into the program (a Python kernel's work would
 * otherwise be a callback into the interpreter on every item).
 *
 * The op is checked when the scalar issues it, against the accesses it
 * declares, so that what the detector and the memory checks were told
 * covers every byte the pipe touches; running it cannot fail.  Operands
 * are read and written through memcpy(): they need no alignment.
 * Integers are computed as unsigned 64-bit values and truncated, which is
 * two's complement wrap-around for the signed types too; half values are
 * computed in float and rounded once, as numpy computes them.
 */
#include <stdint.h>
#include <string.h>

#include "core.h"

/*
 * The loops of one element type @T computed in @C: @SCALAR is the op's
 * scalar as a @T.
 */
#define WORK_TYPE(tag, T, C, SCALAR)					\
static void work_##tag(const struct asc_op *op)			\
{									\
	const unsigned char *a = op->src0, *b = op->src1;		\
	unsigned char *d = op->dst;					\
	size_t i, n = op->count;					\
	T x, y, r, s = (SCALAR);					\
									\
	switch (op->kind) {						\
	case ASC_OP_ADD:						\
	case ASC_OP_MUL:						\
		for (i = 0; i < n; i++) {				\
			memcpy(&x, a + i * sizeof(T), sizeof(T));	\
			memcpy(&y, b + i * sizeof(T), sizeof(T));	\
			r = op->kind == ASC_OP_ADD ? (T)((C)x + (C)y) :	\
						     (T)((C)x * (C)y);	\
			memcpy(d + i * sizeof(T), &r, sizeof(T));	\
		}							\
		break;							\
	case ASC_OP_MULS:						\
		for (i = 0; i < n; i++) {				\
			memcpy(&x, a + i * sizeof(T), sizeof(T));	\
			r = (T)((C)x * (C)s);				\
			memcpy(d + i * sizeof(T), &r, sizeof(T));	\
		}							\
		break;							\
	case ASC_OP_DUPLICATE:						\
		for (i = 0; i < n; i++)					\
			memcpy(d + i * sizeof(T), &s, sizeof(T));	\
		break;							\
	}								\
}

WORK_TYPE(u8, uint8_t, uint64_t, (uint8_t)op->scalar.u)
WORK_TYPE(u16, uint16_t, uint64_t, (uint16_t)op->scalar.u)
WORK_TYPE(u32, uint32_t, uint64_t, (uint32_t)op->scalar.u)
WORK_TYPE(u64, uint64_t, uint64_t, op->scalar.u)
WORK_TYPE(f16, _Float16, float, (_Float16)op->scalar.f)
WORK_TYPE(f32, float, float, (float)op->scalar.f)
WORK_TYPE(f64, double, double, op->scalar.f)

/* Each ASC_DTYPE_*: its bytes and its loops (signed as unsigned). */
static const struct work_dtype {
	size_t size;
	void (*run)(const struct asc_op *op);
} work_dtypes[] = {
	[ASC_DTYPE_INT8] = { 1, work_u8 },
	[ASC_DTYPE_INT16] = { 2, work_u16 },
	[ASC_DTYPE_INT32] = { 4, work_u32 },
	[ASC_DTYPE_INT64] = { 8, work_u64 },
	[ASC_DTYPE_UINT8] = { 1, work_u8 },
	[ASC_DTYPE_UINT16] = { 2, work_u16 },
	[ASC_DTYPE_UINT32] = { 4, work_u32 },
	[ASC_DTYPE_UINT64] = { 8, work_u64 },
	[ASC_DTYPE_FLOAT16] = { 2, work_f16 },
	[ASC_DTYPE_FLOAT32] = { 4, work_f32 },
	[ASC_DTYPE_FLOAT64] = { 8, work_f64 },
};

#define WORK_DTYPES (sizeof(work_dtypes) / sizeof(work_dtypes[0]))

/* The operands a kind takes: bit 0 src0, bit 1 src1, bit 2 the scalar. */
static const unsigned int work_takes[] = {
	[ASC_OP_COPY] = 1,
	[ASC_OP_ADD] = 3,
	[ASC_OP_MUL] = 3,
	[ASC_OP_MULS] = 5,
	[ASC_OP_DUPLICATE] = 4,
};

#define WORK_KINDS (sizeof(work_takes) / sizeof(work_takes[0]))

/* Whether @len bytes from @p lie in an access of @acc (a written one: @write). */
static bool work_covered(const void *p, size_t len, bool write,
			 const struct asc_access *acc, unsigned int nacc)
{
	uintptr_t first = (uintptr_t)p, a;
	unsigned int i;

	for (i = 0; i < nacc; i++) {
		a = (uintptr_t)acc[i].addr;
		if ((!write || acc[i].write) && first >= a &&
		    first - a <= acc[i].size && len <= acc[i].size - (first - a))
			return true;
	}
	return false;
}

/* Whether @len bytes at @d and at @s overlap, @d not starting at @s. */
static bool work_partly(const void *d, const void *s, size_t len)
{
	uintptr_t x = (uintptr_t)d, y = (uintptr_t)s;

	return x != y && x < y + len && y < x + len;
}

/*
 * Why @op cannot be issued to @pipe_id with the accesses @acc (@nacc of
 * them, valid), for the report; NULL when it can.
 */
const char *asc_work_op_invalid(const struct asc_op *op, int pipe_id,
				const struct asc_access *acc,
				unsigned int nacc)
{
	unsigned int takes;
	size_t len;

	if (!op)
		return "no op";
	if (op->kind <= 0 || (size_t)op->kind >= WORK_KINDS)
		return "no such op kind";
	if (op->dtype <= 0 || (size_t)op->dtype >= WORK_DTYPES)
		return "no such dtype";
	if (op->kind != ASC_OP_COPY && pipe_id != ASC_PIPE_V)
		return "a vector op off V";
	takes = work_takes[op->kind];
	if (!op->dst || (!op->src0 && (takes & 1)) || (!op->src1 && (takes & 2)))
		return "a NULL operand";
	if ((op->src0 && !(takes & 1)) || (op->src1 && !(takes & 2)))
		return "an operand the op does not take";
	if (op->scalar.u && !(takes & 4))
		return "a scalar the op does not take";
	if (!op->count || op->count > SIZE_MAX / work_dtypes[op->dtype].size)
		return "a bad count";
	len = op->count * work_dtypes[op->dtype].size;
	if (!work_covered(op->dst, len, true, acc, nacc))
		return "dst outside the accesses written";
	if (op->src0 && !work_covered(op->src0, len, false, acc, nacc))
		return "src0 outside the accesses";
	if (op->src1 && !work_covered(op->src1, len, false, acc, nacc))
		return "src1 outside the accesses";
	if (op->kind != ASC_OP_COPY &&
	    ((op->src0 && work_partly(op->dst, op->src0, len)) ||
	     (op->src1 && work_partly(op->dst, op->src1, len))))
		return "dst partly overlaps a source";
	return NULL;
}

/* Run @op, which asc_work_op_invalid() passed: on the pipe's thread. */
void asc_work_op_run(const struct asc_op *op)
{
	if (op->kind == ASC_OP_COPY)
		memmove(op->dst, op->src0,
			op->count * work_dtypes[op->dtype].size);
	else
		work_dtypes[op->dtype].run(op);
}

ASC_API int asc_core_issue_op(struct asc_core *c, int pipe_id,
			      const struct asc_op *op, const char *what,
			      const struct asc_access *acc, unsigned int nacc)
{
	return asc_core_issue_work(c, pipe_id, NULL, NULL, true, op, what,
				   acc, nacc);
}

ASC_API int asc_core_issue_op_at(struct asc_core *c, int pipe_id,
				 const struct asc_op *op, const char *what,
				 const struct asc_access *acc,
				 unsigned int nacc, const char *file, int line)
{
	CORE_AT(int, asc_core_issue_op(c, pipe_id, op, what, acc, nacc));
}
