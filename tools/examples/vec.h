/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vector examples' work (vec.c): Ascend C's elementwise instructions
 * over float and bfloat16 tensors (DataCopy, Cast, Add, Sub, Mul, Div,
 * Muls, Adds, Exp, Duplicate), each issued to its pipe as a work item that
 * declares the bytes it reads and writes, at the kernel's line.  An
 * operand is a local tensor (EX_LOCAL) or global memory (EX_GM); bfloat16
 * is kept as its 16 bits.  ex_bf16() and ex_bf16_float() are the
 * conversions the casts do, for the plain C that checks the results.
 */
#ifndef ASC_EXAMPLE_VEC_H
#define ASC_EXAMPLE_VEC_H

#include <stddef.h>
#include <stdint.h>

#include <asc.h>

/**
 * enum ex_vec_op - what an instruction computes, @n elements.
 * @EX_COPY_BF16: dst = a, bfloat16 (DataCopy).
 * @EX_COPY_F32: dst = a, float (DataCopy).
 * @EX_CAST_BF16_F32: dst (float) = a (bfloat16), exactly (CAST_NONE).
 * @EX_CAST_F32_BF16: dst (bfloat16) = a (float), to nearest even
 *	(CAST_RINT).
 * @EX_ADD: dst = a + b, float.
 * @EX_SUB: dst = a - b.
 * @EX_MUL: dst = a * b.
 * @EX_DIV: dst = a / b.
 * @EX_MULS: dst = a * s.
 * @EX_ADDS: dst = a + s.
 * @EX_EXP: dst = expf(a).
 * @EX_DUP: dst = s (Duplicate).
 */
enum ex_vec_op {
	EX_COPY_BF16,
	EX_COPY_F32,
	EX_CAST_BF16_F32,
	EX_CAST_F32_BF16,
	EX_ADD,
	EX_SUB,
	EX_MUL,
	EX_DIV,
	EX_MULS,
	EX_ADDS,
	EX_EXP,
	EX_DUP,
};

/**
 * struct ex_opnd - an operand: its first element and its name in reports.
 * @p: the first element.
 * @name: the name (a local tensor's buffer, or the global tensor's).
 */
struct ex_opnd {
	void *p;
	const char *name;
};

#define EX_LOCAL(t)	((struct ex_opnd){ (t).addr, (t).name })
#define EX_GM(ptr, nm)	((struct ex_opnd){ (void *)(ptr), (nm) })
#define EX_NONE		((struct ex_opnd){ NULL, NULL })

/**
 * ex_vec_at() - issue one instruction at a line of the kernel.
 * @core: the core.
 * @pipe: the ASC_PIPE_* that runs it (V for compute, MTE2 and MTE3 for
 *	copies).
 * @op: what it computes.
 * @what: its name in reports, e.g. "Sub(yLocal, endLocal, startLocal)".
 * @dst: where it writes.
 * @a: its first source (EX_NONE for EX_DUP).
 * @b: its second source (EX_NONE but for the binary ops).
 * @s: the scalar of EX_MULS, EX_ADDS and EX_DUP.
 * @n: elements, at least 1.
 * @file: the kernel's file, for the call site.
 * @line: its line.
 *
 * Return: what asc_core_issue_at() returns; -1 with errno ENOMEM.
 */
int ex_vec_at(struct asc_core *core, int pipe, enum ex_vec_op op, const char *what,
	      struct ex_opnd dst, struct ex_opnd a, struct ex_opnd b, float s,
	      size_t n, const char *file, int line);

#define ex_vec(...) ex_vec_at(__VA_ARGS__, __FILE__, __LINE__)

/**
 * ex_bf16() - a float rounded to bfloat16, to nearest even (CAST_RINT).
 * @f: the float.
 *
 * Return: its 16 bits.
 */
uint16_t ex_bf16(float f);

/**
 * ex_bf16_float() - a bfloat16 as a float, exactly.
 * @h: its 16 bits.
 *
 * Return: the float.
 */
float ex_bf16_float(uint16_t h);

#endif /* ASC_EXAMPLE_VEC_H */
