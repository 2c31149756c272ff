/* SPDX-License-Identifier: GPL-2.0 */
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
#ifndef ASC_TEST_OPTIONS_H
#define ASC_TEST_OPTIONS_H

#include <stdbool.h>

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

#endif /* ASC_TEST_OPTIONS_H */
