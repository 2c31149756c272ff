/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Utilities of the selftests: text buffers and small files, CLOCK_MONOTONIC
 * time and deadlines, and the command-line options of the programs that
 * take some.
 */
#ifndef ASC_TEST_UTIL_H
#define ASC_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/*
 * Text for the selftests: a growing buffer, line search, and small files
 * (sysfs, debugfs, tracefs) read into a buffer or written from a string.
 */
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

/*
 * Time for the selftests: CLOCK_MONOTONIC in ns (the clock of the driver's
 * wait deadlines), deadlines, sleeps.
 */
/** ASC_NSEC_PER_MSEC - nanoseconds in a millisecond. */
#define ASC_NSEC_PER_MSEC	1000000ULL

/** ASC_NSEC_PER_SEC - nanoseconds in a second. */
#define ASC_NSEC_PER_SEC	1000000000ULL

/**
 * asc_now_ns() - CLOCK_MONOTONIC now, in ns.
 *
 * Return: the time, in the caller's time namespace.
 */
__u64 asc_now_ns(void);

/**
 * asc_deadline_ms() - an absolute deadline @ms milliseconds from now.
 * @ms: milliseconds.
 *
 * Return: CLOCK_MONOTONIC ns.
 */
__u64 asc_deadline_ms(unsigned int ms);

/**
 * asc_sleep_ms() - sleep @ms milliseconds, resuming after signals.
 * @ms: milliseconds.
 */
void asc_sleep_ms(unsigned int ms);

/**
 * asc_ms_since() - milliseconds elapsed since @start_ns.
 * @start_ns: an asc_now_ns() value.
 *
 * Return: whole milliseconds.
 */
long asc_ms_since(__u64 start_ns);

/*
 * Command-line options of the selftest programs that take some (the
 * fuzzer, the soak test, fault injection, reload cycles): one table per
 * program, one parser, one usage text made from the table.
 *
 *	static bool verbose;
 *	static unsigned int threads = 4;
 *	const struct asc_option opts[] = {
 *		ASC_OPTION('t', threads, 1, 64, "THREADS", "fuzzing threads"),
 *		ASC_SWITCH('v', verbose, "per-thread figures"),
 *	};
 *
 *	asc_parse_options(argc, argv, opts, ARRAY_SIZE(opts));
 *
 * gives "-t THREADS  fuzzing threads (1..64, default 4)" in the usage.
 * The kselftest harness programs take the harness's own options instead.
 */
/** ASC_MAX_OPTIONS - options a program may have. */
#define ASC_MAX_OPTIONS		32

/* What the value of an option points to; ASC_OPTION() picks it. */
enum asc_option_type {
	ASC_OPT_SWITCH,		/* bool, set to true by the option */
	ASC_OPT_INT,		/* int */
	ASC_OPT_UINT,		/* unsigned int */
	ASC_OPT_ULONG,		/* unsigned long */
	ASC_OPT_ULLONG,		/* unsigned long long (uint64_t on 32-bit) */
};

/**
 * struct asc_option - one option of a program.
 * @letter: the option character: 'n' for -n.
 * @type: enum asc_option_type of *@value.
 * @value: where the value goes; what it holds before parsing is the
 *	default the usage shows.
 * @min: smallest number accepted.
 * @max: largest number accepted; 0 for the largest @type holds.
 * @hex: show the default in hexadecimal (seeds).
 * @arg: name of the argument in the usage ("COUNT"); NULL for a switch.
 * @help: what the option does, one short line.
 *
 * Numbers are decimal, or hexadecimal with 0x, or octal with 0, never
 * negative.
 */
struct asc_option {
	char letter;
	enum asc_option_type type;
	void *value;
	unsigned long long min;
	unsigned long long max;
	bool hex;
	const char *arg;
	const char *help;
};

#define ASC_OPTION_TYPE(var) _Generic((var),				\
	int: ASC_OPT_INT,						\
	unsigned int: ASC_OPT_UINT,					\
	unsigned long: ASC_OPT_ULONG,					\
	unsigned long long: ASC_OPT_ULLONG)

/**
 * ASC_OPTION() - a table entry for an option that takes a number.
 * @c: the option character.
 * @var: the variable (an lvalue of an integer type above) that receives it.
 * @lo: smallest number accepted.
 * @hi: largest number accepted, 0 for no limit but @var's type.
 * @argname: the argument's name in the usage.
 * @text: what the option does.
 */
#define ASC_OPTION(c, var, lo, hi, argname, text) {			\
	.letter = (c), .type = ASC_OPTION_TYPE(var), .value = &(var),	\
	.min = (lo), .max = (hi), .arg = (argname), .help = (text) }

/** ASC_OPTION_HEX() - as ASC_OPTION(), the default shown in hexadecimal. */
#define ASC_OPTION_HEX(c, var, lo, hi, argname, text) {			\
	.letter = (c), .type = ASC_OPTION_TYPE(var), .value = &(var),	\
	.min = (lo), .max = (hi), .hex = true, .arg = (argname), .help = (text) }

/**
 * ASC_SWITCH() - a table entry for an option without argument.
 * @c: the option character.
 * @var: a bool set to true when the option is given.
 * @text: what the option does.
 */
#define ASC_SWITCH(c, var, text) {					\
	.letter = (c), .type = ASC_OPT_SWITCH, .value = &(var),		\
	.help = (text) }

/**
 * asc_parse_number() - a number in the syntax of the options.
 * @s: the text.
 * @min: smallest number accepted.
 * @max: largest number accepted.
 * @out: receives the number.
 *
 * Return: 0, or -EINVAL when @s is no number, -ERANGE when it is out of
 * @min..@max.
 */
int asc_parse_number(const char *s, unsigned long long min, unsigned long long max,
		     unsigned long long *out);

/**
 * asc_parse_options() - parse a program's command line by its table.
 * @argc: main()'s argc.
 * @argv: main()'s argv.
 * @opts: the options; -h (this usage) is added to them.
 * @nopts: how many, at most %ASC_MAX_OPTIONS.
 *
 * Stores every option given in its variable.  Does not return on -h (usage
 * on stdout, exit status 0) nor on a bad option, a bad or out-of-range
 * number or an operand (what is wrong and the usage on stderr, exit
 * status 1, kselftest's KSFT_FAIL).
 */
void asc_parse_options(int argc, char **argv, const struct asc_option *opts, int nopts);

#endif /* ASC_TEST_UTIL_H */
