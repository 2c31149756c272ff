// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * HardEvent names, generated from the table of <linux/asc_hard_event.h>:
 * the table is written there and nowhere else.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/*
 * Indexed by the enum constant, so with -Woverride-init (in -Wextra) no two
 * entries can share a slot, and none can fall outside the array.
 */
#define ASC_HARD_EVENT(name, value, src, dst)	[ASC_HARD_EVENT_##name] = #name,
static const char *const asc_hard_event_names[ASC_HARD_EVENT_COUNT] = {
#include <linux/asc_hard_event.h>
};
#undef ASC_HARD_EVENT

/* The enum counts entries; the table states each value: they must agree. */
#define ASC_HARD_EVENT(name, value, src, dst)			\
	_Static_assert(ASC_HARD_EVENT_##name == (value),		\
		       "HardEvent " #name " is not number " #value);
#include <linux/asc_hard_event.h>
#undef ASC_HARD_EVENT

ASC_API const char *asc_hard_event_name(int event)
{
	if (!asc_event_valid(event)) {
		errno = EINVAL;
		return NULL;
	}
	return asc_hard_event_names[event];
}

ASC_API int asc_hard_event_from_name(const char *name)
{
	int event;

	if (!name)
		return asc_einval();

	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		if (!strcmp(name, asc_hard_event_names[event]))
			return event;
	}
	return asc_einval();
}
