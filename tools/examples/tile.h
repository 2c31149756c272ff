/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The work of the cube examples' pipes (tile.c): strided copies of float
 * tiles and tile matmuls, issued to a pipe of libasc's core runtime with
 * the accesses the missing-sync detector checks.  An issued operation is a
 * copy of its struct ex_tile_op on the heap, which the work function frees
 * once the pipe has run it.
 */
#ifndef ASC_EXAMPLE_TILE_H
#define ASC_EXAMPLE_TILE_H

#include <stddef.h>
#include <stdint.h>

#include <asc.h>

/**
 * struct ex_tile_op - one piece of work of a pipe.
 * @dst: where it writes: rows x cols with row stride @dst_stride (floats).
 * @src: for a copy, what it reads, with row stride @src_stride.
 * @bias: for an epilogue, one float per column.
 * @dst_stride: row stride of @dst.
 * @src_stride: row stride of @src.
 * @rows: rows of a copy or an epilogue.
 * @cols: columns of a copy or an epilogue.
 * @a: for a matmul, A, m x k, packed.
 * @b: for a matmul, B, k x n, packed.
 * @m: rows of A and C.
 * @n: columns of B and C.
 * @k: columns of A, rows of B.
 * @initC: a matmul that sets C (1) rather than adding to it (0).
 */
struct ex_tile_op {
	float *dst;
	const float *src, *bias;
	uint32_t dst_stride, src_stride;
	uint32_t rows, cols;
	const float *a, *b;
	uint32_t m, n, k;
	int initC;
};

/**
 * ex_span() - the bytes a rows x cols block with row stride @stride spans.
 * @rows: rows, at least 1.
 * @cols: columns.
 * @stride: the row stride, in floats.
 *
 * Return: the size in bytes, for a struct asc_access.
 */
size_t ex_span(uint32_t rows, uint32_t cols, uint32_t stride);

/**
 * ex_copy_work() - the work of a copy: @arg, a struct ex_tile_op, copied
 * row by row and freed.
 * @arg: what ex_issue() gave the pipe.
 */
void ex_copy_work(void *arg);

/**
 * ex_mmad_work() - the work of a matmul: C (@dst, row stride @dst_stride)
 * = (@initC) or += A x B; @arg freed.
 * @arg: what ex_issue() gave the pipe.
 */
void ex_mmad_work(void *arg);

/**
 * ex_issue_at() - issue @fn with a heap copy of @op to @pipe, at a call
 *	site; ex_issue() passes the caller's.
 * @core: the core.
 * @pipe: the ASC_PIPE_* that runs it.
 * @fn: ex_copy_work(), ex_mmad_work() or an example's own, which frees
 *	its argument.
 * @what: its name in reports.
 * @op: the operation, copied.
 * @acc: the memory it reads and writes, @nacc entries.
 * @nacc: how many.
 * @file: the kernel's file, for the call site in reports.
 * @line: its line.
 *
 * Return: 0, or -1 with errno set (ENOMEM, or asc_core_issue_at()'s).
 */
int ex_issue_at(struct asc_core *core, int pipe, void (*fn)(void *), const char *what,
		const struct ex_tile_op *op, const struct asc_access *acc,
		unsigned int nacc, const char *file, int line);

#define ex_issue(...) ex_issue_at(__VA_ARGS__, __FILE__, __LINE__)

/**
 * ex_issue_copy_at() - issue a copy of rows x cols to @pipe, with the
 *	accesses of both sides, at a call site; ex_issue_copy() passes the
 *	caller's.
 * @core: the core.
 * @pipe: the ASC_PIPE_* that runs it.
 * @what: its name in reports.
 * @dst: where to, row stride @dst_stride, named @dst_name.
 * @dst_stride: row stride of @dst, in floats.
 * @dst_name: the name of @dst in reports.
 * @src: from where, row stride @src_stride, named @src_name.
 * @src_stride: row stride of @src.
 * @src_name: the name of @src in reports.
 * @rows: rows.
 * @cols: columns.
 * @file: as ex_issue_at().
 * @line: as ex_issue_at().
 *
 * Return: as ex_issue_at().
 */
int ex_issue_copy_at(struct asc_core *core, int pipe, const char *what,
		     float *dst, uint32_t dst_stride, const char *dst_name,
		     const float *src, uint32_t src_stride, const char *src_name,
		     uint32_t rows, uint32_t cols, const char *file, int line);

#define ex_issue_copy(...) ex_issue_copy_at(__VA_ARGS__, __FILE__, __LINE__)

/**
 * ex_issue_copy_rows_at() - ex_issue_copy_at(), with one access per row of
 * @dst: for a tile of a matrix in global memory whose rows lie between
 * the rows of other cores' tiles; ex_issue_copy_rows() passes the
 * caller's call site.
 * @core: as ex_issue_copy_at(), and the other arguments too.
 *
 * Return: as ex_issue_at().
 */
int ex_issue_copy_rows_at(struct asc_core *core, int pipe, const char *what,
			  float *dst, uint32_t dst_stride, const char *dst_name,
			  const float *src, uint32_t src_stride,
			  const char *src_name, uint32_t rows, uint32_t cols,
			  const char *file, int line);

#define ex_issue_copy_rows(...) ex_issue_copy_rows_at(__VA_ARGS__, __FILE__, __LINE__)

/**
 * ex_check_matrix() - compare a result with its reference, exactly.
 * @prog: the program's name, for the message.
 * @name: the matrix's name, for the message.
 * @got: the result, @rows x @cols, packed.
 * @want: the reference, the same shape.
 * @rows: rows.
 * @cols: columns.
 *
 * Return: 0 when equal; else -1, after a message naming the first element
 * that differs.
 */
int ex_check_matrix(const char *prog, const char *name, const float *got,
		    const float *want, uint32_t rows, uint32_t cols);

#endif /* ASC_EXAMPLE_TILE_H */
