# SPDX-License-Identifier: GPL-2.0
"""The guest's initramfs: a static busybox, tools/testing/asc-vm-init as /init,
its steps (tools/testing/vminit/*.sh) in /lib/asc-vm-init/ and the 9p/virtio
modules, uncompressed, listed in load order in /etc/asc-vm-modules.

It is cached per kernel release in build/vm/initramfs-RELEASE.cpio beside
a checksum of everything it is made of; a run rebuilds it under a lock when
the checksum changed, and replaces it in one rename.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile

from .util import TOP, VMDIR, RunnerError, atomic_write, locked, read_text

BUSYBOX = "/bin/busybox"
INIT = os.path.join(TOP, "tools", "testing", "asc-vm-init")
STEPS = os.path.join(TOP, "tools", "testing", "vminit")
DIRS = ("bin", "dev", "etc", "proc", "sys", "tmp", "newroot", "hostroot",
        "ascrun", "lib/modules", "lib/asc-vm-init")
# How each compressed module suffix is uncompressed to stdout.
DECOMPRESS = {".xz": ["xz", "-dc"], ".zst": ["zstd", "-qdc"],
              ".gz": ["gzip", "-dc"]}


def _check_busybox(built=False):
    """A static busybox: it runs before any library is there.  Unless
    BUILT (a current initramfs was checked when it was built), ldd says
    it is static."""
    static = os.access(BUSYBOX, os.X_OK) and (built or subprocess.run(
        ["ldd", BUSYBOX], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, check=False).returncode != 0)
    if not static:
        raise RunnerError("no static %s; run tools/scripts/asc-install-deps "
                          "(busybox-static)" % BUSYBOX)


def _checksum(release, modules):
    """sha256 of what the initramfs is made of, including this code."""
    h = hashlib.sha256()
    h.update(("%s\n%s\n" % (release, "\n".join(modules))).encode())
    for path in [__file__, INIT, BUSYBOX] + _steps() + modules:
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def _steps():
    """The steps of /init, the files of tools/testing/vminit/, sorted."""
    return sorted(os.path.join(STEPS, n) for n in os.listdir(STEPS) if n.endswith(".sh"))


def _module_name(path):
    """The file name a module gets in the initramfs: no compression."""
    name = os.path.basename(path)
    for suffix in DECOMPRESS:
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


def _copy_module(path, dest):
    """Copy the module PATH to DEST, uncompressed."""
    for suffix, cmd in DECOMPRESS.items():
        if path.endswith(suffix):
            with open(dest, "wb") as out:
                subprocess.run(cmd + [path], stdout=out, check=True)
            return
    shutil.copyfile(path, dest)


def _populate(root, modules):
    """Lay out the initramfs tree in ROOT."""
    for d in DIRS:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    shutil.copy2(BUSYBOX, os.path.join(root, "bin", "busybox"))
    applets = subprocess.run([BUSYBOX, "--list"], stdout=subprocess.PIPE,
                             text=True, check=True).stdout.split()
    for applet in applets:
        if applet != "busybox":
            os.symlink("busybox", os.path.join(root, "bin", applet))
    shutil.copyfile(INIT, os.path.join(root, "init"))
    os.chmod(os.path.join(root, "init"), 0o755)
    for path in _steps():
        shutil.copyfile(path, os.path.join(root, "lib", "asc-vm-init", os.path.basename(path)))
    names = []
    for path in modules:
        name = _module_name(path)
        _copy_module(path, os.path.join(root, "lib", "modules", name))
        names.append(name + "\n")
    with open(os.path.join(root, "etc", "asc-vm-modules"), "w") as f:
        f.writelines(names)


def _archive(root, out):
    """Write the tree ROOT as a newc cpio archive OUT, owned by root, its
    entries in C sort order so that the same tree gives the same bytes."""
    entries = ["."]
    for parent, dirs, files in os.walk(root):
        for name in dirs + files:
            entries.append("./" + os.path.relpath(os.path.join(parent, name),
                                                  root))
    listing = "".join(e + "\n" for e in sorted(entries)).encode()
    with open(out, "wb") as f:
        subprocess.run(["cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet"],
                       input=listing, stdout=f, cwd=root, check=True)


def initramfs(release, modules):
    """The path of a current initramfs for RELEASE with MODULES (module
    files in load order), built if needed."""
    _check_busybox(built=True)
    os.makedirs(VMDIR, exist_ok=True)
    out = os.path.join(VMDIR, "initramfs-%s.cpio" % release)
    total = _checksum(release, modules)
    with locked(out + ".lock", "the initramfs of " + release):
        if os.path.isfile(out) and read_text(out + ".sum") == total + "\n":
            return out
        _check_busybox()
        with tempfile.TemporaryDirectory(dir=VMDIR,
                                         prefix="initramfs.") as tmp:
            root = os.path.join(tmp, "root")
            _populate(root, modules)
            _archive(root, os.path.join(tmp, "initramfs.cpio"))
            os.rename(os.path.join(tmp, "initramfs.cpio"), out)
        atomic_write(out + ".sum", total + "\n")
    return out
