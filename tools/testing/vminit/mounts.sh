# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # variables of the steps before and after
#
# A step of tools/testing/asc-vm-init (busybox sh, sourced): the 9p/virtio
# modules, the host root read-only at /newroot and the run directory,
# the config of the run (ASC_VM_*; run), and the host root made ready for
# the chroot: /proc, /sys, /dev, /tmp, /run, the paths of "binds" and the
# run directory at its host path.

# Modules are listed dependencies first, already uncompressed.
while read -r m; do
	[ -n "$m" ] || continue
	insmod "/lib/modules/$m" || die "cannot insert $m"
done </etc/asc-vm-modules

opts=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o "$opts,ro,cache=loose" hostroot /newroot ||
	die "cannot mount the host root (9p tag hostroot)"
mount -t 9p -o "$opts,cache=mmap" ascrun /ascrun ||
	die "cannot mount the run directory (9p tag ascrun)"
[ -r /ascrun/config ] || die "no config in the run directory"
# shellcheck source=/dev/null
. /ascrun/config
run=$ASC_VM_RUN

# A non-recursive bind of the host root, to reach host paths that the tmpfs
# mounts below hide.
mount --bind /newroot /hostroot || die "cannot bind the host root"
mount -t proc proc /newroot/proc || die "cannot mount /proc"
mount -t sysfs sysfs /newroot/sys || die "cannot mount /sys"
mount -t devtmpfs devtmpfs /newroot/dev || die "cannot mount /dev"
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /newroot/dev/shm
mount -t debugfs debugfs /newroot/sys/kernel/debug 2>/dev/null
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /newroot/tmp || die "cannot mount /tmp"
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs /newroot/run || die "cannot mount /run"
while read -r p; do
	[ -n "$p" ] || continue
	if ! mkdir -p "/newroot$p" || ! mount --bind "/hostroot$p" "/newroot$p"; then
		die "cannot make $p visible"
	fi
done </ascrun/binds
if ! mkdir -p "/newroot$run" || ! mount --move /ascrun "/newroot$run"; then
	die "cannot mount the run directory at $run"
fi
ln -s /proc/self/fd /newroot/dev/fd 2>/dev/null
ln -s /proc/self/fd/0 /newroot/dev/stdin 2>/dev/null
ln -s /proc/self/fd/1 /newroot/dev/stdout 2>/dev/null
ln -s /proc/self/fd/2 /newroot/dev/stderr 2>/dev/null
hostname asc-vm
