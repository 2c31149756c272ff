# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # variables of the steps before and after
#
# A step of tools/testing/asc-vm-init (busybox sh, sourced): the devices of
# the virtio-serial ports asc.stdout and asc.stderr (out, err), after the
# marker that tells the host the guest is ready.

# port NAME: the device of the port NAME.  The ports appear asynchronously,
# after the host has announced them.
port() {
	n=0
	while [ $n -lt 1000 ]; do
		for f in /sys/class/virtio-ports/*/name; do
			[ -r "$f" ] || continue
			read -r name <"$f"
			if [ "$name" = "$1" ]; then
				d=${f%/name}
				d=/dev/${d##*/}
				[ -c "$d" ] && { echo "$d"; return 0; }
			fi
		done
		usleep 10000
		n=$((n + 1))
	done
	return 1
}
echo "asc-vm: ready" >/dev/kmsg
out=$(port asc.stdout) || die "no virtio port asc.stdout"
err=$(port asc.stderr) || die "no virtio port asc.stderr"
