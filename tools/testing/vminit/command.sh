# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # variables of the steps before and after
#
# A step of tools/testing/asc-vm-init (busybox sh, sourced): the module under
# test inserted, the command run chrooted into the host root on the ports
# out and err, its leftover processes killed, the module removed; the
# statuses in insmod_rc, cmd_rc and rmmod_rc ("-" for what did not run),
# between the kernel log's markers "asc-vm: begin" and "asc-vm: end".

# Leftover processes of the command would keep the module busy.
leftovers() {
	for d in /proc/[0-9]*; do
		[ "${d#/proc/}" = 1 ] && continue
		[ -e "$d/exe" ] && return 0
	done
	return 1
}

# The host's kmod when there is one: its messages name host paths, and it
# calls the module's init once (busybox insmod retries a failed init_module).
# Absolute paths: this busybox runs its own applets for bare names.
host() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot /newroot "$@"
}
insmod=insmod
rmmod=rmmod
if [ -n "$ASC_VM_KO" ]; then
	for p in $(host /bin/sh -c 'command -v insmod; command -v rmmod' 2>/dev/null); do
		case $p in
		/*/insmod) insmod="host $p" ;;
		/*/rmmod) rmmod="host $p" ;;
		esac
	done
fi

# Everything from here on goes to the console too, where a hung or dying
# guest still leaves a trace; the kernel log is scanned from the marker on.
echo 7 >/proc/sys/kernel/printk
echo "asc-vm: begin" >/dev/kmsg

insmod_rc=-
cmd_rc=-
rmmod_rc=-
if [ -n "$ASC_VM_KO" ]; then
	case $insmod in
	host*) ko=$ASC_VM_KO ;;
	*) ko=/newroot$ASC_VM_KO ;;
	esac
	# shellcheck disable=SC2086
	$insmod "$ko" $ASC_VM_MODULE_ARGS 2>"$err"
	insmod_rc=$?
	if [ "$insmod_rc" -ne 0 ]; then
		echo "asc-vm: insmod $ASC_VM_KO $ASC_VM_MODULE_ARGS failed" >"$err"
	fi
fi
if [ "$insmod_rc" = - ] || [ "$insmod_rc" -eq 0 ]; then
	env -i /bin/busybox chroot /newroot /bin/sh "$run/cmd.sh" \
		</dev/null >"$out" 2>"$err"
	cmd_rc=$?
	if leftovers; then
		kill -KILL -1 2>/dev/null
		n=0
		while leftovers && [ $n -lt 100 ]; do
			usleep 20000
			n=$((n + 1))
		done
	fi
	if [ -n "$ASC_VM_KO" ]; then
		$rmmod "$ASC_VM_KO_NAME" 2>"$err"
		rmmod_rc=$?
		if [ "$rmmod_rc" -ne 0 ]; then
			echo "asc-vm: rmmod $ASC_VM_KO_NAME failed" >"$err"
		fi
	fi
fi
echo "asc-vm: end" >/dev/kmsg
