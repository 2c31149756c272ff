# SPDX-License-Identifier: GPL-2.0
"""The image QEMU boots: an uncompressed vmlinux when the kernel can.

A kernel with a PVH entry point (CONFIG_PVH) boots from its ELF vmlinux
directly, which skips the decompressor: seconds under TCG.  A kernel built
here has its vmlinux beside the image; for a packaged one, the kernel's own
scripts/extract-vmlinux unpacks it from the image once, into the cache.
"""

import glob
import os
import subprocess
import tempfile

from .util import VMDIR, atomic_write, file_stamp, locked, msg, read_text

SCRIPT = "scripts/extract-vmlinux"


def _version_key(path):
    """Sort key of a linux-source-X.Y tarball by its version."""
    name = os.path.basename(path).split(".tar")[0]
    return [int(p) for p in name.rsplit("-", 1)[-1].split(".")
            if p.isdigit()]


def _from_tarball():
    """scripts/extract-vmlinux from the newest Debian linux-source-*
    tarball, unpacked once into the cache; None without a tarball."""
    tarballs = glob.glob("/usr/src/linux-source-*.tar.xz")
    if not tarballs:
        return None
    tarball = max(tarballs, key=_version_key)
    source = os.path.basename(tarball)[:-len(".tar.xz")]
    cached = os.path.join(VMDIR, source, SCRIPT)
    stamp = cached + ".stamp"
    with locked(os.path.join(VMDIR, "extract-vmlinux.lock"),
                "extract-vmlinux"):
        if (os.path.isfile(cached)
                and read_text(stamp) == file_stamp(tarball)):
            return cached
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with tempfile.TemporaryDirectory(dir=VMDIR) as tmp:
            subprocess.run(["tar", "-xJf", tarball, "-C", tmp,
                            "%s/%s" % (source, SCRIPT)], check=True)
            os.chmod(os.path.join(tmp, source, SCRIPT), 0o755)
            os.rename(os.path.join(tmp, source, SCRIPT), cached)
        atomic_write(stamp, file_stamp(tarball))
    return cached


def extract_vmlinux(kernel):
    """The path of an extract-vmlinux script: the kernel's own source
    tree's when at hand, else Debian's linux-source tarball's; or None."""
    for candidate in (os.path.join(kernel.build, SCRIPT),
                      os.path.join(kernel.build, "source", SCRIPT)):
        if os.access(candidate, os.X_OK):
            return candidate
    try:
        return _from_tarball()
    except (OSError, subprocess.CalledProcessError) as e:
        msg("cannot unpack extract-vmlinux: %s" % e)
        return None


def _is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def _extract(kernel, out):
    """Unpack the vmlinux of KERNEL's image into OUT; False on failure."""
    script = extract_vmlinux(kernel)
    if not script:
        return False
    fd, tmp = tempfile.mkstemp(dir=VMDIR, prefix="vmlinux.")
    try:
        with os.fdopen(fd, "wb") as f:
            rc = subprocess.run([script, kernel.image], stdout=f,
                                check=False).returncode
        if rc != 0 or not _is_elf(tmp):
            return False
        os.chmod(tmp, 0o644)
        os.rename(tmp, out)
        return True
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def boot_image(kernel):
    """What QEMU's -kernel gets: an uncompressed vmlinux of KERNEL (its
    own, or one cached in build/vm/) when it has a PVH entry point, else
    its image."""
    if not kernel.enabled("PVH"):
        return kernel.image
    if kernel.vmlinux and os.path.isfile(kernel.vmlinux):
        return kernel.vmlinux
    out = os.path.join(VMDIR, "vmlinux-" + kernel.release)
    stamp = file_stamp(kernel.image)
    with locked(out + ".lock", "the vmlinux of " + kernel.release):
        if os.path.isfile(out) and read_text(out + ".stamp") == stamp:
            return out
        if not _extract(kernel, out):
            msg("cannot extract the vmlinux of %s; booting it compressed"
                % kernel.image)
            return kernel.image
        atomic_write(out + ".stamp", stamp)
    return out
