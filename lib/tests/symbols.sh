#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# symbols.sh LIBSO SONAME HEADER LIBA: HEADER declares the API; the shared
# library exports exactly the functions HEADER declares, nothing else; its soname is SONAME; every
# global symbol of the static archive is in the asc_ namespace.  TAP output,
# exit 0 when all pass.  Uses $NM and $READELF (default nm, readelf).

set -u

[ $# -eq 4 ] || { echo "usage: $0 LIBSO SONAME HEADER LIBA" >&2; exit 2; }
libso=$1 soname=$2 header=$3 liba=$4
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
echo "1..5"

# Function declarations start a line: "type *asc_name(" or "type asc_name(".
sed -n 's/^[a-z][a-z0-9_ ]*[ *]\(asc_[a-z0-9_]*\)(.*/\1/p' "$header" |
	sort -u > "$tmp/declared"
"$NM" -D --defined-only "$libso" | awk '{ print $NF }' | sort -u > "$tmp/exported"
"$NM" -D --defined-only "$libso" | awk '$2 != "T" { print }' > "$tmp/not-text"

# The API fixed by the issue that introduced libasc (ABI 0.1), then what
# ABI 0.2 added for pipe roles and checked mode, then what ABI 1.1 added
# (the modes, the core runtime), then ABI 1.2 (launches), ABI 1.3 (cancel), ABI 1.4 (the software sync),
# ABI 1.5 (the SyncAll of the AIVs), ABI 1.6 (local memory, TQue, TQueBind,
# TBuf, and the call sites of the asc_core_*() calls), ABI 1.7 (the memory
# checks' global buffers);
# more may be
# added, none may go without a new ABI_MAJOR.
for f in asc_pipe_open asc_pipe_close asc_pipe_reset asc_alloc_event_id \
	 asc_fetch_event_id asc_release_event_id asc_set_flag asc_wait_flag \
	 asc_wait_flag_timeout asc_event_ids asc_hard_event_name \
	 asc_hard_event_from_name \
	 asc_pipe_bind asc_pipe_set_checked asc_pipe_checked \
	 asc_pipe_id_name asc_pipe_id_from_name asc_hard_event_src_pipe \
	 asc_hard_event_dst_pipe asc_pipe_reset_leftovers \
	 asc_pipe_set_mode asc_pipe_mode asc_core_run asc_core_issue \
	 asc_core_set_flag asc_core_wait_flag asc_core_pipe_barrier \
	 asc_core_alloc_event_id asc_core_fetch_event_id \
	 asc_core_release_event_id asc_core_reset asc_core_pipe \
	 asc_launch_run asc_core_block_idx asc_core_block_num \
	 asc_core_sub_block_idx asc_core_sub_block_num asc_core_type \
	 asc_core_cross_set_flag asc_core_cross_wait_flag asc_core_sync_all \
	 asc_core_cancel asc_core_ib_set asc_core_ib_wait asc_core_sync_all_gm \
	 asc_core_sync_all_aiv \
	 asc_core_local_mem asc_local_sub asc_que_events asc_que_bind_events \
	 asc_core_tque asc_core_tque_bind asc_core_tbuf asc_core_init_buffer \
	 asc_core_alloc_tensor asc_core_enque asc_core_deque \
	 asc_core_deque_tensor asc_core_free_tensor asc_core_tbuf_get \
	 asc_core_tbuf_get_with_offset asc_core_tpipe_init \
	 asc_core_tpipe_destroy \
	 asc_core_issue_at asc_core_set_flag_at asc_core_wait_flag_at \
	 asc_core_pipe_barrier_at asc_core_alloc_event_id_at \
	 asc_core_fetch_event_id_at asc_core_release_event_id_at \
	 asc_core_reset_at asc_core_cross_set_flag_at \
	 asc_core_cross_wait_flag_at asc_core_sync_all_at \
	 asc_core_sync_all_aiv_at asc_core_ib_set_at asc_core_ib_wait_at \
	 asc_core_sync_all_gm_at asc_core_tque_at asc_core_tque_bind_at \
	 asc_core_tbuf_at asc_core_init_buffer_at asc_core_alloc_tensor_at \
	 asc_core_enque_at asc_core_deque_at asc_core_deque_tensor_at \
	 asc_core_free_tensor_at asc_core_tbuf_get_at \
	 asc_core_tbuf_get_with_offset_at asc_core_tpipe_init_at \
	 asc_core_tpipe_destroy_at asc_core_gm_buffer; do
	echo "$f"
done | sort > "$tmp/required"
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

exit $fail
