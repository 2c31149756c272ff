# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-check-install [--no-dkms | --no-host] [KERNEL...]: the
man pages and the installs, as TAP.

KERNEL: the test kernels, default 6.1; debug, which is no installed
kernel, is left out (with debug alone the DESTDIR tests take 6.1).
--no-dkms leaves out the host's DKMS build and its guest runs, not the
DESTDIR install-dkms; --no-host (`make check`) every install on the host.
Documentation/reliability.rst says what each part checks.  Exit status 1
if anything failed.
"""

import glob
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time

from . import hostinstall
from .checks import Checks
from .manpages import ManTests, declared

VM = "tools/testing/asc-vm"
MAKE = ["make", "--no-print-directory"]


def files(top_dir):
    """The files and links under TOP_DIR, relative, sorted."""
    found = []
    for root, dirs, names in os.walk(top_dir):
        for n in names + [d for d in dirs
                          if os.path.islink(os.path.join(root, d))]:
            found.append(os.path.relpath(os.path.join(root, n), top_dir))
    return sorted(found, key=os.fsencode)


def python_version():
    """The system Python's version, as make install's dist-packages has it."""
    proc = subprocess.run(["/usr/bin/python3", "-c", "import sys; print("
                           "'%d.%d' % sys.version_info[:2])"],
                          stdout=subprocess.PIPE, text=True, check=False)
    return proc.stdout.strip()


class Install:
    """The install tests of one run: TOP, its WORK directory, the KERNELS."""

    def __init__(self, top, kernels, out=None):
        self.top = top
        self.kernels = kernels
        self.c = Checks(top, out)
        self.work = os.path.join(top, "build", "check-install")
        with open(os.path.join(top, "Makefile"), encoding="utf-8") as f:
            self.version = next(line.split(":=", 1)[1].strip() for line in f
                                if line.startswith("VERSION := "))
        self.pyver = python_version()

    def path(self, name):
        """NAME in the work directory."""
        return os.path.join(self.work, name)

    def release(self, kernel):
        """The release of KERNEL, or None."""
        ok, out = self.c.command([VM, "--kernel", kernel, "--print-release"])
        return out.strip() if ok else None

    # ---- DESTDIR -----------------------------------------------------------

    def userspace_files(self):
        """What install and install-dkms both install, PREFIX /usr/local,
        made from the sources rather than from the install."""
        real = os.path.basename(os.path.realpath(
            os.path.join(self.top, "build", "lib", "libasc.so")))
        lib = ["libasc.a", "libasc.so", real.rsplit(".", 2)[0], real,
               "pkgconfig/libasc.pc"]
        doc = "usr/local/share/doc/asc-event/examples/"
        dist = "usr/local/lib/python%s/dist-packages/asc/" % self.pyver
        py = sorted(glob.glob(os.path.join(self.top, "lib", "python", "asc",
                                           "*.py")))
        return (["etc/udev/rules.d/70-asc-event.rules",
                 "usr/local/include/asc.h"]
                + ["usr/local/lib/" + f for f in lib]
                + ["usr/local/sbin/ascctl", doc + "asc-hello.c",
                   doc + "modprobe.d/asc-event.conf",
                   doc + "modules-load.d/asc-event.conf"]
                + ["usr/local/share/man/man3/%s.3" % f
                   for f in declared(self.top) + ["libasc"]]
                + ["usr/local/share/man/man4/asc_event.4",
                   "usr/local/share/man/man8/ascctl.8"]
                + [dist + os.path.basename(f) for f in py]
                + [dist + "_install.py",
                   dist + "_speedups" + sysconfig.get_config_var("EXT_SUFFIX")])

    @staticmethod
    def same_files(expected, stage):
        """A check body: STAGE holds exactly the EXPECTED files."""
        def body(notes):
            want = sorted(expected, key=os.fsencode)
            got = files(stage)
            if want == got:
                return True
            notes.append("expected (<) and installed (>):")
            notes.extend("< " + f for f in want if f not in got)
            notes.extend("> " + f for f in got if f not in want)
            return False
        return body

    def refused(self, message, argv):
        """A check body: ARGV fails, saying MESSAGE."""
        def body(notes):
            passed, out = self.c.command(argv)
            if passed:
                notes.append("succeeded")
                return False
            said = [line for line in out.splitlines() if message in line]
            notes.extend(said or out.splitlines()[-20:])
            return bool(said)
        return body

    @staticmethod
    def empty_dir(path):
        """A check body: nothing is left in PATH."""
        def body(notes):
            left = files(path) + [d for d in (os.path.relpath(
                os.path.join(r, x), path) for r, ds, _ in os.walk(path)
                for x in ds)]
            if not left:
                return True
            notes.append("left in %s:" % path)
            notes.extend(sorted(set(left))[:20])
            return False
        return body

    def staged_program(self, stage, out):
        """A check body: the installed example compiled with what
        pkg-config says of the staged libasc.pc, an rpath into STAGE."""
        def body(notes):
            env = dict(os.environ,
                       PKG_CONFIG_LIBDIR=stage + "/usr/local/lib/pkgconfig",
                       PKG_CONFIG_SYSROOT_DIR=stage)
            passed, flags = self.c.command(["pkg-config", "--cflags", "--libs",
                                            "libasc"], env=env)
            if not passed:
                notes.append(flags)
                return False
            notes.append("pkg-config --cflags --libs libasc: " + flags.strip())
            passed, text = self.c.command(
                ["cc", "-Wall", "-Wextra", "-Werror", "-pthread", "-o", out,
                 stage + "/usr/local/share/doc/asc-event/examples/asc-hello.c"]
                + flags.split() + ["-Wl,-rpath," + stage + "/usr/local/lib"])
            notes.append(text)
            return passed
        return body

    def destdir_tests(self, rel):
        """make install and install-dkms into a DESTDIR, each exactly what
        it should install, refusing each other, and their uninstall."""
        c, stage, dstage = self.c, self.path("stage"), self.path("stage-dkms")
        for d in (stage, dstage):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        expected = self.userspace_files() + [
            "lib/modules/%s/updates/asc_event.ko" % rel]
        t0 = time.monotonic()
        c.check("make install DESTDIR=STAGE",
                MAKE + ["install", "DESTDIR=" + stage, "KERNEL_RELEASE=" + rel])
        c.comment("make install DESTDIR: %d files in %.1f s"
                  % (len(files(stage)), time.monotonic() - t0))
        c.check("make install DESTDIR: exactly the expected files",
                self.same_files(expected, stage))
        c.check("make install DESTDIR: the module has no debugging "
                "information", self.no_debug_info(
                    "%s/lib/modules/%s/updates/asc_event.ko" % (stage, rel)))
        c.check("a program builds with pkg-config against the DESTDIR install",
                self.staged_program(stage, self.path("asc-hello-staged")))
        c.check("make install-dkms refuses while make install's module is "
                "there", self.refused(
                    "updates/asc_event.ko is installed: make uninstall first",
                    MAKE + ["install-dkms", "DESTDIR=" + stage]))

        src = "usr/src/asc-event-%s/" % self.version
        driver = sorted(os.path.relpath(p, self.top) for p in glob.glob(
            os.path.join(self.top, "driver", "*.[ch]")))
        expected = self.userspace_files() + [
            src + "dkms.conf", src + "uapi/linux/asc_event.h"] + [
                src + f for f in ["driver/Kbuild"] + driver]
        c.check("make install-dkms DESTDIR=STAGE",
                MAKE + ["install-dkms", "DESTDIR=" + dstage])
        c.comment("make install-dkms DESTDIR: %d files" % len(files(dstage)))
        c.check("make install-dkms DESTDIR: exactly the expected files",
                self.same_files(expected, dstage))
        c.check("dkms.conf has the version of the top-level Makefile (%s)"
                % self.version, self.has_line(
                    os.path.join(dstage, src, "dkms.conf"),
                    'PACKAGE_VERSION="%s"' % self.version))
        c.check("make install refuses while a DKMS copy is there",
                self.refused("asc-event-%s is installed for DKMS: uninstall "
                             "it first" % self.version,
                             MAKE + ["install", "DESTDIR=" + dstage,
                                     "KERNEL_RELEASE=" + rel]))
        c.check("make uninstall DESTDIR=STAGE after install-dkms",
                MAKE + ["uninstall", "DESTDIR=" + dstage])
        c.check("make uninstall DESTDIR: nothing left of install-dkms",
                self.empty_dir(dstage))

    def no_debug_info(self, module):
        """A check body: MODULE has no .debug_info section."""
        def body(notes):
            passed, out = self.c.command(["readelf", "-S", module])
            if not passed:
                notes.append(out)
            return passed and "debug_info" not in out
        return body

    @staticmethod
    def has_line(path, line):
        """A check body: the file PATH has LINE."""
        def body(notes):
            try:
                with open(path, encoding="utf-8") as f:
                    return line in f.read().splitlines()
            except OSError as e:
                notes.append(str(e))
                return False
        return body

    def destdir_uninstall(self):
        """make uninstall of the DESTDIR install."""
        self.c.check("make uninstall DESTDIR=STAGE after install",
                     MAKE + ["uninstall", "DESTDIR=" + self.path("stage")])
        self.c.check("make uninstall DESTDIR: nothing left of install",
                     self.empty_dir(self.path("stage")))


def main(argv, top):
    """asc-check-install ARGV in the tree TOP; the exit status."""
    dkms = host = True
    if argv[:1] == ["--no-dkms"]:
        dkms, argv = False, argv[1:]
    elif argv[:1] == ["--no-host"]:
        dkms = host = False
        argv = argv[1:]
    kernels = [k for k in argv or ["6.1"] if k != "debug"] or ["6.1"]
    # Leave the host as it was whatever happens: a SIGTERM unwinds too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.chdir(top)
    run = Install(top, kernels)
    shutil.rmtree(run.work, ignore_errors=True)
    os.makedirs(run.work)
    print("TAP version 13", flush=True)
    ManTests(run.c, run.work).run()
    rel0 = run.release(kernels[0])
    run.destdir_tests(rel0)
    if host and os.geteuid() == 0:
        hostinstall.HostTests(run, dkms).run()
    else:
        if host:
            run.c.skip("install on the host, README, DKMS", "not root")
        # The module make install DESTDIR built: asc-vm would build it again.
        run.c.check("a program built against the DESTDIR install with "
                    "pkg-config runs in the guest",
                    [VM, "--kernel", kernels[0], "--module",
                     "build/driver/%s/asc_event.ko" % rel0, "--",
                     run.path("asc-hello-staged")])
    run.destdir_uninstall()
    run.c.plan()
    return 1 if run.c.failures else 0
