# SPDX-License-Identifier: GPL-2.0
"""The kernel modules the guest's initramfs loads, found by modprobe.

modprobe --show-depends, pointed at the target kernel's modules tree
(-d ROOT -S RELEASE) and at no configuration (-C /dev/null), prints the
insmod lines that loading a module takes, dependencies first, and
"builtin NAME" for a module built into the kernel.
"""

import os
import shutil
import subprocess

from .util import RunnerError


def _modprobe():
    """modprobe, also where the caller's PATH lacks the sbin directories."""
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    found = shutil.which("modprobe", path=path)
    if not found:
        raise RunnerError("modprobe not found; run tools/scripts/asc-install-deps "
                          "(kmod)")
    return found


def module_files(kernel, names):
    """The module files that loading NAMES (in order) takes on KERNEL, each
    once, dependencies first; built-in modules need none."""
    cmd = [_modprobe(), "-a", "--show-depends", "-C", "/dev/null",
           "-d", kernel.modroot, "-S", kernel.release, "--"] + list(names)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, check=False)
    if proc.returncode != 0:
        raise RunnerError("cannot find the 9p/virtio modules of %s in %s: %s"
                          % (kernel.release, kernel.moddir,
                             proc.stderr.strip()))
    files = []
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "insmod" and words[1] not in files:
            files.append(words[1])
    return files
