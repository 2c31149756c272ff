# SPDX-License-Identifier: GPL-2.0
"""The module under test: built for the kernel with `make module`, or a
file the caller gives."""

import os
import shutil
import subprocess
import sys

from .util import TOP, RunnerError, pkg_owning, pkg_versions


def build_module(kernel):
    """Build asc_event.ko for KERNEL with the top Makefile (which holds a
    lock, so that runs at once for one kernel build it one after the
    other) and return its path."""
    if not os.path.isdir(kernel.build):
        raise RunnerError("no headers for %s (%s); run tools/scripts/asc-install-deps"
                          % (kernel.release, kernel.build))
    cmd = ["make", "-s", "--no-print-directory", "-C", TOP, "module",
           "KERNEL_RELEASE=" + kernel.release, "KDIR=" + kernel.build]
    try:
        rc = subprocess.run(cmd, stdout=sys.stderr, check=False).returncode
    except OSError as e:
        rc = e
    if rc != 0:
        raise RunnerError("building the module for %s failed" % kernel.release)
    ko = os.path.join(TOP, "build", "driver", kernel.release, "asc_event.ko")
    if not os.path.isfile(ko):
        raise RunnerError("make module did not produce " + ko)
    return ko


def given_module(path):
    """The absolute path of a module file the caller gives."""
    if not os.path.isfile(path):
        raise RunnerError("no module file " + path)
    return os.path.realpath(path)


def module_name(ko):
    """The name the kernel knows the module KO by (for rmmod)."""
    return os.path.basename(ko).split(".ko")[0].replace("-", "_")


def compiler_package(kernel):
    """The Debian package of the compiler that built KERNEL (and so builds
    the module), or None."""
    text = kernel.config("CC_VERSION_TEXT") or ""
    words = text.strip('"').split(" ")
    cc = words[0] if len(words) > 1 and words[0] else "gcc"
    path = shutil.which(cc)
    if not path:
        return None
    return pkg_owning(os.path.realpath(path), cc)


def host_packages(kernel, building):
    """The host's packages the run uses, with their versions."""
    packages = ["qemu-system-x86", "busybox-static", "kmod"]
    if building:
        cc = compiler_package(kernel)
        if cc:
            packages.append(cc)
    versions = pkg_versions(packages)
    return ", ".join("%s %s" % (p, versions.get(p, "unknown"))
                     for p in packages)
