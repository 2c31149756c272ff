#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# symbols.sh LIBSO SONAME HEADER LIBA: HEADER declares every function of
# api-functions.txt (beside this script); the shared library exports
# exactly the functions HEADER declares, nothing else; its soname is
# SONAME; every global symbol of the static archive is in the asc_
# namespace; the functions of the fast path (asc_set_flag, asc_wait_flag,
# asc_wait_flag_timeout) each start at a multiple of 256 bytes and are no
# longer than that, so that none crosses a page in any program the
# library is linked into (ASC_HOT in pipe.c).  TAP output, exit 0 when all pass.  Uses $NM and $READELF
# (default nm, readelf).

set -u

[ $# -eq 4 ] || { echo "usage: $0 LIBSO SONAME HEADER LIBA" >&2; exit 2; }
libso=$1 soname=$2 header=$3 liba=$4
api=$(dirname "$0")/api-functions.txt
NM=${NM:-nm}
READELF=${READELF:-readelf}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

fail=0
n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=1
	fi
}

echo "TAP version 13"
echo "1..6"

# Function declarations start a line: "type *asc_name(" or "type asc_name(".
sed -n 's/^[a-z][a-z0-9_ ]*[ *]\(asc_[a-z0-9_]*\)(.*/\1/p' "$header" |
	sort -u > "$tmp/declared"
"$NM" -D --defined-only "$libso" | awk '{ print $NF }' | sort -u > "$tmp/exported"
"$NM" -D --defined-only "$libso" | awk '$2 != "T" { print }' > "$tmp/not-text"

grep -v '^#' "$api" | sort > "$tmp/required"
comm -23 "$tmp/required" "$tmp/declared" > "$tmp/undeclared"
[ ! -s "$tmp/undeclared" ]
rc=$?
sed 's/^/# not declared in asc.h: /' "$tmp/undeclared"
result $rc "asc.h declares the API ($(wc -l < "$tmp/declared") functions)"

comm -13 "$tmp/declared" "$tmp/exported" > "$tmp/leaked"
[ ! -s "$tmp/leaked" ] && [ ! -s "$tmp/not-text" ]
rc=$?
sed 's/^/# exported but not in asc.h: /' "$tmp/leaked"
sed 's/^/# exported non-function: /' "$tmp/not-text"
result $rc "libasc.so exports nothing but the API"

comm -23 "$tmp/declared" "$tmp/exported" > "$tmp/missing"
[ ! -s "$tmp/missing" ]
rc=$?
sed 's/^/# declared but not exported: /' "$tmp/missing"
result $rc "libasc.so exports every function of asc.h"

"$READELF" -d "$libso" | grep -F "(SONAME)" > "$tmp/soname"
grep -qF "[$soname]" "$tmp/soname"
rc=$?
sed 's/^/# /' "$tmp/soname"
result $rc "soname is $soname"

"$NM" -g --defined-only "$liba" | awk 'NF == 3 { print $3 }' |
	grep -v '^asc_' > "$tmp/foreign"
[ ! -s "$tmp/foreign" ]
rc=$?
sed 's/^/# global outside the asc_ namespace: /' "$tmp/foreign"
result $rc "libasc.a defines globals only in the asc_ namespace"

"$NM" -S --defined-only "$libso" |
	awk '$4 == "asc_set_flag" || $4 == "asc_wait_flag" ||
	     $4 == "asc_wait_flag_timeout" { print $4, $1, $2 }' > "$tmp/hot"
while read -r name start size; do
	[ $(( 0x$start % 256 )) -eq 0 ] && [ $(( 0x$size )) -le 256 ] ||
		echo "$name at 0x$start, 0x$size bytes"
done < "$tmp/hot" > "$tmp/split"
[ "$(wc -l < "$tmp/hot")" -eq 3 ] && [ ! -s "$tmp/split" ]
rc=$?
sed 's/^/# not in 256 aligned bytes: /' "$tmp/split"
result $rc "the fast path's three functions lie in 256 aligned bytes each"

exit $fail
