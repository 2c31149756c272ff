// SPDX-License-Identifier: GPL-2.0
/*
 * The work of the cube examples' pipes: copies and matmuls of float tiles
 * (tile.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"

size_t ex_span(uint32_t rows, uint32_t cols, uint32_t stride)
{
	return ((size_t)(rows - 1) * stride + cols) * sizeof(float);
}

void ex_copy_work(void *arg)
{
	struct ex_tile_op *o = arg;
	uint32_t r;

	for (r = 0; r < o->rows; r++)
		memcpy(o->dst + (size_t)r * o->dst_stride,
		       o->src + (size_t)r * o->src_stride, o->cols * sizeof(float));
	free(o);
}

void ex_mmad_work(void *arg)
{
	struct ex_tile_op *o = arg;
	uint32_t i, j, p;
	float sum;

	for (i = 0; i < o->m; i++) {
		for (j = 0; j < o->n; j++) {
			sum = o->initC ? 0 : o->dst[(size_t)i * o->dst_stride + j];
			for (p = 0; p < o->k; p++)
				sum += o->a[(size_t)i * o->k + p] * o->b[(size_t)p * o->n + j];
			o->dst[(size_t)i * o->dst_stride + j] = sum;
		}
	}
	free(o);
}

int ex_issue_at(struct asc_core *core, int pipe, void (*fn)(void *), const char *what,
		const struct ex_tile_op *op, const struct asc_access *acc,
		unsigned int nacc, const char *file, int line)
{
	struct ex_tile_op *o = malloc(sizeof(*o));

	if (!o)
		return -1;
	*o = *op;
	if (asc_core_issue_at(core, pipe, fn, o, what, acc, nacc, file, line) < 0) {
		free(o);
		return -1;
	}
	return 0;
}

int ex_issue_copy_at(struct asc_core *core, int pipe, const char *what,
		     float *dst, uint32_t dst_stride, const char *dst_name,
		     const float *src, uint32_t src_stride, const char *src_name,
		     uint32_t rows, uint32_t cols, const char *file, int line)
{
	const struct ex_tile_op op = { .dst = dst, .src = src, .dst_stride = dst_stride,
				       .src_stride = src_stride, .rows = rows, .cols = cols };
	const struct asc_access acc[] = {
		{ src, ex_span(rows, cols, src_stride), 0, src_name },
		{ dst, ex_span(rows, cols, dst_stride), 1, dst_name },
	};

	return ex_issue_at(core, pipe, ex_copy_work, what, &op, acc, 2, file, line);
}

int ex_issue_copy_rows_at(struct asc_core *core, int pipe, const char *what,
			  float *dst, uint32_t dst_stride, const char *dst_name,
			  const float *src, uint32_t src_stride,
			  const char *src_name, uint32_t rows, uint32_t cols,
			  const char *file, int line)
{
	const struct ex_tile_op op = { .dst = dst, .src = src, .dst_stride = dst_stride,
				       .src_stride = src_stride, .rows = rows, .cols = cols };
	struct asc_access *acc = calloc(rows + 1, sizeof(*acc));
	uint32_t r;
	int ret;

	if (!acc)
		return -1;
	acc[0] = (struct asc_access){ src, ex_span(rows, cols, src_stride), 0, src_name };
	for (r = 0; r < rows; r++)
		acc[r + 1] = (struct asc_access){ dst + (size_t)r * dst_stride,
						  cols * sizeof(float), 1, dst_name };
	ret = ex_issue_at(core, pipe, ex_copy_work, what, &op, acc, rows + 1, file, line);
	free(acc);
	return ret;
}

int ex_check_matrix(const char *prog, const char *name, const float *got,
		    const float *want, uint32_t rows, uint32_t cols)
{
	size_t i;

	for (i = 0; i < (size_t)rows * cols; i++) {
		if (got[i] == want[i])
			continue;
		fprintf(stderr, "%s: %s[%zu][%zu] = %g, expected %g\n", prog, name,
			i / cols, i % cols, got[i], want[i]);
		return -1;
	}
	return 0;
}
