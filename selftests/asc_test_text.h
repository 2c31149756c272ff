/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for the selftests: a growing buffer, line search, and small files
 * (sysfs, debugfs, tracefs) read into a buffer or written from a string.
 */
#ifndef ASC_TEST_TEXT_H
#define ASC_TEST_TEXT_H

#include <stddef.h>

/**
 * struct asc_text - a growing, NUL-terminated text buffer.
 * @buf: the text (NULL while empty and never written).
 * @len: its length.
 * @size: bytes allocated.
 *
 * { 0 } is an empty buffer.  Running out of memory aborts the program.
 */
struct asc_text {
	char *buf;
	size_t len;
	size_t size;
};

/**
 * asc_text_add() - append @n bytes to @t.
 * @t: buffer.
 * @s: bytes.
 * @n: how many.
 */
void asc_text_add(struct asc_text *t, const char *s, size_t n);

/**
 * asc_text_printf() - append formatted text to @t.
 * @t: buffer.
 * @fmt: printf format, then its arguments; at most 1023 bytes are appended.
 */
void asc_text_printf(struct asc_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * asc_text_str() - the text so far.
 * @t: buffer.
 *
 * Return: the text, "" when empty.
 */
const char *asc_text_str(const struct asc_text *t);

/**
 * asc_text_free() - free @t's buffer and make it empty.
 * @t: buffer.
 */
void asc_text_free(struct asc_text *t);

/**
 * asc_count_lines() - lines of @text that start with @prefix.
 * @text: newline-separated lines.
 * @prefix: what a counted line starts with.
 *
 * Return: how many.
 */
int asc_count_lines(const char *text, const char *prefix);

/**
 * asc_count_line() - lines of @text equal to @line.
 * @text: newline-separated lines.
 * @line: the whole line, without its newline.
 *
 * Return: how many.
 */
int asc_count_line(const char *text, const char *line);

/**
 * asc_read_file() - read a whole (small) file into @t.
 * @path: file.
 * @t: buffer, emptied first.
 *
 * Return: 0 or -errno.
 */
int asc_read_file(const char *path, struct asc_text *t);

/**
 * asc_write_file() - write @s to @path (sysfs, tracefs).
 * @path: file.
 * @s: what to write.
 *
 * Return: 0 or -errno.
 */
int asc_write_file(const char *path, const char *s);

#endif /* ASC_TEST_TEXT_H */
