// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event tracepoints: the one place they are instantiated.
 */

#define CREATE_TRACE_POINTS
#include "asc_event_trace.h"
