# SPDX-License-Identifier: GPL-2.0
"""asc-vm: run one command in a QEMU guest with the asc_event module loaded.

tools/testing/asc-vm is the entry point; this package does the work, one job per
module:

    cli        the command line, the usage text and the order of the steps
    kernels    the kernels the runner knows and where each one's files are
    bootimage  the image QEMU boots (an uncompressed vmlinux when it can)
    modfinder  the guest's 9p/virtio modules, from modprobe --show-depends
    initramfs  the busybox initramfs, cached per kernel release
    machine    the QEMU machine, accelerator and command line for a kernel
    module     building the asc_event module for the kernel
    rundir     the per-run directory the guest shares with the host
    guest      running QEMU: output forwarding, timeout, signals
    verdict    reading the guest's results and the exit status
    util       messages, errors, locks, atomic files, dpkg queries
"""
