// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: which bytes of a string are valid UTF-8.
 *
 * A task's comm is whatever bytes prctl(PR_SET_NAME) was given, and a saved
 * trace may hold anything; JSON and XML must be valid UTF-8.  The writers
 * walk their strings with asc_utf8_len() and put U+FFFD, the replacement
 * character, for every byte that does not start a valid sequence.
 */
#include "ascctl.h"

/* Bytes 2..n of a sequence are 10xxxxxx. */
static bool cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/**
 * asc_utf8_len() - length of the UTF-8 sequence at the start of a string.
 * @s: the string, NUL-terminated.
 *
 * Valid means what RFC 3629 allows: the shortest encoding of a code point
 * up to U+10FFFF that is not a UTF-16 surrogate (U+D800..U+DFFF).
 *
 * Return: 1 to 4, the length of the sequence *@s starts; 0 when *@s is
 * the terminating NUL or does not start a valid sequence.
 */
size_t asc_utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] < 0x80)
		return u[0] ? 1 : 0;
	if (u[0] < 0xc2)		/* a continuation byte, or overlong */
		return 0;
	if (u[0] < 0xe0)
		return cont(u[1]) ? 2 : 0;
	if (u[0] < 0xf0) {
		if (!cont(u[1]) || !cont(u[2]))
			return 0;
		if (u[0] == 0xe0 && u[1] < 0xa0)	/* overlong */
			return 0;
		if (u[0] == 0xed && u[1] >= 0xa0)	/* surrogate */
			return 0;
		return 3;
	}
	if (u[0] < 0xf5) {
		if (!cont(u[1]) || !cont(u[2]) || !cont(u[3]))
			return 0;
		if (u[0] == 0xf0 && u[1] < 0x90)	/* overlong */
			return 0;
		if (u[0] == 0xf4 && u[1] >= 0x90)	/* above U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}
