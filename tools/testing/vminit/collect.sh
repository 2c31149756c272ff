# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # variables of the steps before and after
#
# The last step of tools/testing/asc-vm-init (busybox sh, sourced): what the
# run leaves in the run directory, then the reboot that ends QEMU.
#
# On a kernel with gcov, the module's coverage counts go into the scratch
# directory's gcov/ (below).
#
# On a kernel with kmemleak (built without its automatic scans), two scans
# after the command and rmmod report what leaked: kmemleak reports an
# object only when it is unreferenced, at least 5 s old, and unchanged since
# the previous scan.  The kernel's boot leaks nothing, so there is no scan
# before the test (a scan takes over ten seconds under TCG with KASAN).
# kmemleak= says "on" when the scans worked, "absent" without kmemleak,
# else what failed.

# On a kernel with gcov (debug) the module's coverage counts: the .gcda
# files of its build directory under debugfs's gcov/, and the .gcno files
# the compiler wrote beside its objects on the host, into the scratch
# directory's gcov/ (tools/testing/asc-vm --output DIR copies them out).  The counts
# outlive rmmod (gcov_persist) and add up over reloads.
gcov=/newroot/sys/kernel/debug/gcov
if [ -n "$ASC_VM_KO" ] && [ -d "$gcov${ASC_VM_KO%/*}" ]; then
	mkdir -p "/newroot$run/scratch/gcov"
	for f in "$gcov${ASC_VM_KO%/*}"/*.gcda; do
		[ -e "$f" ] || continue
		n=${f##*/}
		n=${n%.gcda}
		cat "$f" >"/newroot$run/scratch/gcov/$n.gcda"
		cat "/newroot${ASC_VM_KO%/*}/$n.gcno" >"/newroot$run/scratch/gcov/$n.gcno"
	done
fi

kml=/newroot/sys/kernel/debug/kmemleak
kmemleak=absent
if [ -e "$kml" ]; then
	kmemleak=on
	t=$(date +%s)
	echo scan 2>/dev/null >"$kml" || kmemleak="'echo scan' failed"
	t=$((t + 6 - $(date +%s)))
	[ "$t" -le 0 ] || sleep "$t"
	echo scan 2>/dev/null >"$kml" || kmemleak="'echo scan' failed"
	cat "$kml" 2>/dev/null >"/newroot$run/kmemleak" || kmemleak="reading the report failed"
fi
dmesg >"/newroot$run/dmesg"
{
	echo "insmod=$insmod_rc"
	echo "cmd=$cmd_rc"
	echo "rmmod=$rmmod_rc"
	echo "kmemleak=$kmemleak"
} >"/newroot$run/result.new" && mv "/newroot$run/result.new" "/newroot$run/result"
sync
umount "/newroot$run"
reboot -f
