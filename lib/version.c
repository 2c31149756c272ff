// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The package version, set by the Makefile.
 */
#include "internal.h"

#ifndef ASC_PACKAGE_VERSION
#error "ASC_PACKAGE_VERSION must be defined by the build"
#endif

ASC_API const char *asc_version_string(void)
{
	return ASC_PACKAGE_VERSION;
}
