# SPDX-License-Identifier: GPL-2.0
"""The kernels the runner boots and where each one's files are.

A kernel is one row of TABLE: its name (--kernel), its kind and the kind's
arguments.  A new kernel is one more row; a new kind of kernel is one more
function in KINDS that returns a Kernel or raises Unavailable.
"""

import glob
import os
import re
import subprocess

from .util import TOP, msg, pkg_owning, pkg_versions, read_text, rel

TABLE = (
    # name      kind      arguments
    ("6.1", "debian", ("6.1", "amd64")),
    ("6.12", "debian", ("6.12", "amd64")),
    ("6.12-rt", "debian", ("6.12", "rt-amd64")),
    ("debug", "local", ("tools/testing/kernels/asc-debug-kernel",)),
    ("kcsan", "local", ("tools/testing/kernels/asc-debug-kernel", "--config",
                        "tools/testing/kernels/kcsan-kernel.config")),
)


class Unavailable(Exception):
    """A kernel of the table that cannot be booted here; RELEASE is its
    release (uname -r) and BUILD its build directory when they are known
    all the same (a kernel not built yet)."""

    def __init__(self, reason, release=None, build=None):
        super().__init__(reason)
        self.release = release
        self.build = build


class Kernel:
    """One bootable kernel and the files around it.

    release   the kernel release (uname -r in the guest)
    image     the bootable image
    vmlinux   its uncompressed vmlinux when at hand, else None
    modroot   the root of its /lib/modules tree (modprobe -d)
    build     its build directory (headers) for out-of-tree modules
    desc      what it comes from, with versions (printed with each run)
    """

    def __init__(self, name, release, image, modroot, build, config_path,
                 desc, vmlinux=None):
        self.name = name
        self.release = release
        self.image = image
        self.vmlinux = vmlinux
        self.modroot = modroot
        self.build = build
        self.config_path = config_path
        self.desc = desc
        self._config = None

    @property
    def moddir(self):
        """Its modules directory (modules.dep, kernel/...)."""
        return os.path.join(self.modroot, "lib", "modules", self.release)

    def config(self, option):
        """The value of CONFIG_OPTION in its .config, or None."""
        if self._config is None:
            self._config = {}
            text = read_text(self.config_path, "")
            for line in text.splitlines():
                m = re.match(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$", line)
                if m:
                    self._config[m.group(1)] = m.group(2)
        return self._config.get("CONFIG_" + option)

    def enabled(self, option):
        """Whether CONFIG_OPTION=y."""
        return self.config(option) == "y"


def names():
    """The kernel names, comma-separated."""
    return ", ".join(row[0] for row in TABLE)


def _version_key(release):
    """A sort key that orders releases as sort -V does for these names."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p)
            for p in re.findall(r"\d+|\D+", release)]


def debian_kernel(name, series, flavour, build=False):
    """The newest installed Debian image /boot/vmlinuz-SERIES.*-FLAVOUR
    with its modules (for FLAVOUR amd64, not rt-amd64 or cloud-amd64)."""
    del build  # Debian's kernels are installed, not built.
    found = []
    for path in glob.glob("/boot/vmlinuz-%s.*-%s" % (series, flavour)):
        release = path[len("/boot/vmlinuz-"):]
        if flavour == "amd64" and release.endswith(("-rt-amd64",
                                                    "-cloud-amd64")):
            continue
        if not os.path.isfile(path):
            continue
        if not os.path.isfile("/lib/modules/%s/modules.dep" % release):
            continue
        found.append(release)
    if not found:
        raise Unavailable("linux-image-%s.*-%s is not installed; run "
                          "tools/scripts/asc-install-deps --all (as root)"
                          % (series, flavour))
    release = max(found, key=_version_key)
    image = "/boot/vmlinuz-" + release
    package = (pkg_owning(image, "linux-image-" + release)
               or "linux-image-" + release)
    headers = "linux-headers-" + release
    versions = pkg_versions([package, headers])
    desc = "%s %s" % (package, versions.get(package, "unknown"))
    if headers in versions:
        desc += ", %s %s" % (headers, versions[headers])
    else:
        desc += ", no " + headers
    return Kernel(name, release, image, "/",
                  "/lib/modules/%s/build" % release,
                  "/boot/config-" + release, desc)


def _builder_info(builder):
    """The NAME=VALUE lines that BUILDER --info prints (BUILDER: the
    command as a list), as a dict."""
    proc = subprocess.run(builder + ["--info"], stdout=subprocess.PIPE,
                          text=True, cwd=TOP, check=False)
    info = {}
    for line in proc.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            info[key] = value
    return info


def local_kernel(name, arg, *builder_args, build=False):
    """A kernel built in an O= directory, modules installed under DIR/mod.

    ARG is a builder script (relative to the top of the tree) that builds
    the kernel when run with BUILDER_ARGS (in the top directory, where
    relative paths among them start) and describes it when run with them
    and --info (dir, release, built, package, version, fragment,
    fragment_sha256); with BUILD it builds a kernel not built yet.  ARG may
    also be the build directory of a kernel built by hand."""
    path = arg if os.path.isabs(arg) else os.path.join(TOP, arg)
    builder = None
    built = True
    if os.path.isfile(path) and os.access(path, os.X_OK):
        builder = " ".join([rel(path)] + list(builder_args))
        command = [path] + list(builder_args)
        info = _builder_info(command)
        if not info.get("dir") or not info.get("release"):
            raise Unavailable("%s --info failed" % builder)
        release = info["release"]
        directory = info["dir"]
        built = info.get("built") == "yes"
        if not built and build:
            msg("kernel %s is not built; building it with %s (minutes)"
                % (name, builder))
            if subprocess.run(command, stdout=subprocess.DEVNULL, cwd=TOP,
                              check=False).returncode != 0:
                raise Unavailable("%s failed" % builder, release,
                                  directory)
            built = True
            release = read_text(os.path.join(
                directory, "include/config/kernel.release"), "").strip()
        desc = "%s %s + %s sha256:%s" % (
            info.get("package", ""), info.get("version", ""),
            rel(info.get("fragment", "")),
            info.get("fragment_sha256", "")[:12])
    else:
        directory = path
        release = read_text(os.path.join(
            directory, "include/config/kernel.release"), "").strip()
        built = bool(release)
        desc = "local build"
    kernel = Kernel(name, release,
                    os.path.join(directory, "arch/x86/boot/bzImage"),
                    os.path.join(directory, "mod"), directory,
                    os.path.join(directory, ".config"),
                    desc + " in " + rel(directory),
                    vmlinux=os.path.join(directory, "vmlinux"))
    if not built or not os.path.isfile(kernel.image):
        if builder:
            reason = ("not built; %s builds it (a run with --kernel %s does"
                      " too)" % (builder, name))
        else:
            reason = "not built (no %s)" % kernel.image
        raise Unavailable(reason, release or None, directory)
    return kernel


KINDS = {"debian": debian_kernel, "local": local_kernel}


def lookup(name, build=False):
    """The Kernel called NAME; KeyError when the table has no such name,
    Unavailable when it cannot be booted here.  With BUILD a kernel that
    the runner can build is built first."""
    for row_name, kind, args in TABLE:
        if row_name != name:
            continue
        kernel = KINDS[kind](name, *args, build=build)
        if not os.access(kernel.image, os.R_OK):
            raise Unavailable("cannot read " + kernel.image, kernel.release,
                              kernel.build)
        return kernel
    raise KeyError(name)


def table_lines():
    """The table for --list: each kernel's kind, release and status."""
    fmt = "%-8s %-7s %-30s %s"
    lines = [fmt % ("KERNEL", "KIND", "RELEASE", "STATUS")]
    for name, kind, _ in TABLE:
        try:
            kernel = lookup(name)
            release, status = kernel.release, "available: " + kernel.desc
        except Unavailable as e:
            release, status = e.release or "-", str(e)
        lines.append(fmt % (name, kind, release, status))
    return lines
