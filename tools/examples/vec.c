// SPDX-License-Identifier: GPL-2.0
/*
 * The vector examples' work: elementwise instructions issued to a pipe
 * with the bytes they touch (vec.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

struct vec_op {
	enum ex_vec_op op;
	void *dst;
	const void *a, *b;
	float s;
	size_t n;
};

uint16_t ex_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	if ((u & 0x7fffffff) > 0x7f800000)
		return (u >> 16) | 0x40;	/* a quiet NaN stays one */
	return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
}

float ex_bf16_float(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static void vec_work(void *arg)
{
	struct vec_op *o = arg;
	const float *a = o->a, *b = o->b;
	const uint16_t *ah = o->a;
	float *d = o->dst;
	uint16_t *dh = o->dst;
	size_t i;

	for (i = 0; i < o->n; i++) {
		switch (o->op) {
		case EX_COPY_BF16:
			dh[i] = ah[i];
			break;
		case EX_COPY_F32:
			d[i] = a[i];
			break;
		case EX_CAST_BF16_F32:
			d[i] = ex_bf16_float(ah[i]);
			break;
		case EX_CAST_F32_BF16:
			dh[i] = ex_bf16(a[i]);
			break;
		case EX_ADD:
			d[i] = a[i] + b[i];
			break;
		case EX_SUB:
			d[i] = a[i] - b[i];
			break;
		case EX_MUL:
			d[i] = a[i] * b[i];
			break;
		case EX_DIV:
			d[i] = a[i] / b[i];
			break;
		case EX_MULS:
			d[i] = a[i] * o->s;
			break;
		case EX_ADDS:
			d[i] = a[i] + o->s;
			break;
		case EX_EXP:
			d[i] = expf(a[i]);
			break;
		case EX_DUP:
			d[i] = o->s;
			break;
		}
	}
	free(o);
}

/* Bytes per element of the destination and of the sources of @op. */
static size_t vec_dst_size(enum ex_vec_op op)
{
	return op == EX_COPY_BF16 || op == EX_CAST_F32_BF16 ? 2 : 4;
}

static size_t vec_src_size(enum ex_vec_op op)
{
	return op == EX_COPY_BF16 || op == EX_CAST_BF16_F32 ? 2 : 4;
}

int ex_vec_at(struct asc_core *core, int pipe, enum ex_vec_op op, const char *what,
	      struct ex_opnd dst, struct ex_opnd a, struct ex_opnd b, float s,
	      size_t n, const char *file, int line)
{
	struct asc_access acc[3];
	struct vec_op *o;
	unsigned int k = 0;

	o = malloc(sizeof(*o));
	if (!o) {
		errno = ENOMEM;
		return -1;
	}
	*o = (struct vec_op){ op, dst.p, a.p, b.p, s, n };
	if (a.p)
		acc[k++] = (struct asc_access){ a.p, n * vec_src_size(op), 0, a.name };
	if (b.p)
		acc[k++] = (struct asc_access){ b.p, n * vec_src_size(op), 0, b.name };
	acc[k++] = (struct asc_access){ dst.p, n * vec_dst_size(op), 1, dst.name };
	if (asc_core_issue_at(core, pipe, vec_work, o, what, acc, k, file, line) < 0) {
		free(o);
		return -1;
	}
	return 0;
}
