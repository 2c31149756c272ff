# SPDX-License-Identifier: GPL-2.0
"""The installs on the host itself, as root, of asc-check-install: the
README's "Install" section word for word (its first block on the host,
its second in the guest, its third, the uninstall, on the host, which
must then be as it was before) and `make install-dkms` with its guest runs.
They hold a lock, so that two checkouts do not install at once, and run
only when asc-event is not installed already.
"""

import fcntl
import glob
import os
import subprocess
import time

LOCK = "/run/lock/asc-event-install.lock"
VM = "tools/testing/asc-vm"
GUEST = "tools/testing/asc-check-install-guest"
MAKE = ["make", "--no-print-directory"]
OURS = ("/lib/modules/*/updates/asc_event.ko",
        "/lib/modules/*/updates/dkms/asc_event.ko", "/usr/src/asc-event-*",
        "/var/lib/dkms/asc-event", "/var/lib/asc-event", "/usr/local/lib/libasc.*",
        "/usr/local/include/asc.h", "/usr/local/sbin/ascctl",
        "/etc/udev/rules.d/70-asc-event.rules",
        "/usr/local/share/doc/asc-event")

UNAME = """\
#!/bin/sh
[ "$*" = -r ] && { echo '%s'; exit 0; }
exec /bin/uname "$@"
"""
APT_GET = """\
#!/bin/sh
# apt-get install of packages that are all installed: say so, as apt-get
# would, without taking dpkg's lock; anything else: apt-get.
[ "$1" = install ] || exec /usr/bin/apt-get "$@"
for p; do
	case $p in install | -*) continue ;; esac
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
	[ "$s" = installed ] || exec /usr/bin/apt-get "$@"
done
shift
echo "apt-get stand-in: already installed: $*"
"""


def installed_here():
    """What of asc-event is installed on the host."""
    return [p for pattern in OURS for p in sorted(glob.glob(pattern))]


def readme_blocks(readme):
    """The command blocks of the "Install" section of the Markdown text
    README: its indented blocks, a blank line inside one keeping it whole."""
    blocks, on, inblock = [], False, False
    for line in readme.splitlines():
        if line.startswith("## "):
            on = line == "## Install"
            continue
        if not on:
            continue
        if line.startswith("    "):
            if not inblock:
                blocks.append([])
                inblock = True
            blocks[-1].append(line[4:])
        elif line:
            inblock = False
    return ["".join(x + "\n" for x in b) for b in blocks]


def stand_ins(bindir, release):
    """A directory for PATH where uname -r says RELEASE (the kernel the
    guest boots) and apt-get install of what is installed only checks."""
    os.makedirs(bindir, exist_ok=True)
    for name, text in (("uname", UNAME % release), ("apt-get", APT_GET)):
        with open(os.path.join(bindir, name), "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(os.path.join(bindir, name), 0o755)
    return bindir


def lines_of(argv):
    """The output lines of ARGV, its errors dropped."""
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True,
                          errors="replace", check=False)
    return proc.stdout.splitlines()


def snapshot(releases):
    """What install and uninstall may touch on the host: the trees they
    write to (names, types, modes), what the test kernels' module indexes
    and the linker's cache say of us, the group.  Of /usr/src, the indexes
    and the cache only our part: other checkouts may install meanwhile."""
    trees = (["/usr/local", "/etc/udev"] + sorted(glob.glob("/usr/src/asc-event-*"))
             + ["/var/lib/dkms", "/var/lib/asc-event"])
    out = sorted(lines_of(["find"] + trees + [
        "(", "-path", "/var/lib/dkms/mok.key", "-o", "-path",
        "/var/lib/dkms/mok.pub", ")", "-prune", "-o", "-printf",
        "%p %y %m\\n"]), key=os.fsencode)
    for r in releases:
        d = "/lib/modules/" + r
        out += sorted(lines_of(["find", d, "-path", d + "/kernel", "-prune",
                                "-o", "-printf", "%p %y %m\\n"]),
                      key=os.fsencode)
        for index in ("modules.dep", "modules.alias"):
            try:
                with open(os.path.join(d, index), encoding="utf-8",
                          errors="replace") as f:
                    out += ["%s/modules.{dep,alias}: %s" % (d, x.rstrip("\n"))
                            for x in f if "asc_event" in x]
            except OSError:
                pass
    out += ["ldconfig -p: " + x for x in lines_of(["ldconfig", "-p"])
            if "libasc" in x]
    out.append("group asc: " + "".join(lines_of(["getent", "group", "asc"])))
    return out


class HostTests:
    """The host's install tests of the Install run RUN; DKMS too or not."""

    def __init__(self, run, dkms):
        self.inst = run
        self.c = run.c
        self.dkms = dkms
        self.releases = []
        self.before = []

    def same_as_before(self, notes):
        """A check body: the host is as it was before the installs."""
        after = snapshot(self.releases)
        if after == self.before:
            return True
        notes.append("before (<) and after (>):")
        diff = (["< " + x for x in self.before if x not in after]
                + ["> " + x for x in after if x not in self.before])
        notes.extend(diff[:40])
        return False

    def uninstall_quietly(self):
        """make uninstall, whatever it says."""
        subprocess.run(MAKE + ["-s", "uninstall"], cwd=self.inst.top,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)

    def readme_tests(self, kernel, release):
        """README.md's Install section, word for word."""
        c = self.c
        with open(os.path.join(self.inst.top, "README.md"),
                  encoding="utf-8") as f:
            blocks = readme_blocks(f.read())
        if len(blocks) != 3:
            c.not_ok("README.md, Install: 3 blocks of commands (host, "
                     "machine, uninstall), not %d" % len(blocks))
            return
        c.ok("README.md, Install: 3 blocks of commands")
        paths = []
        for i, text in enumerate(blocks, 1):
            paths.append(self.inst.path("readme.%d" % i))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write(text)
        bindir = stand_ins(self.inst.path("bin"), release)
        c.comment("".join("host$ " + x + "\n" for x in blocks[0].splitlines()))
        t0 = time.monotonic()
        c.check("README: the install commands run on the host",
                ["bash", "-ex", paths[0]],
                env=dict(os.environ, PATH=bindir + ":" + os.environ["PATH"]))
        c.comment("README install: %.1f s" % (time.monotonic() - t0))
        c.guest("README: the guest run", self.inst.path("guest-readme.log"),
                [VM, "--kernel", kernel, "--no-module", "--", GUEST, "readme",
                 paths[1], self.inst.path("asc-hello-staged")])
        c.comment("".join("host$ " + x + "\n" for x in blocks[2].splitlines()))
        c.check("README: the uninstall command runs on the host",
                ["bash", "-ex", paths[2]])
        c.check("README: after make uninstall the host is as before",
                self.same_as_before)

    def dkms_tests(self):
        """make install-dkms for the test kernels, a guest run on each."""
        c, version = self.c, self.inst.version
        t0 = time.monotonic()
        c.check("make install-dkms: dkms add, build, install for "
                + " ".join(self.releases),
                MAKE + ["install-dkms", "DKMS_KERNELS=" + " ".join(self.releases)])
        c.comment("make install-dkms for %d kernel(s): %.1f s"
                  % (len(self.releases), time.monotonic() - t0))
        for r in self.releases:
            c.check("dkms status: asc-event/%s installed for %s" % (version, r),
                    lambda notes, r=r: any(": installed" in x for x in lines_of(
                        ["dkms", "status", "-m", "asc-event", "-v", version,
                         "-k", r])))
        for i, k in enumerate(self.inst.kernels):
            c.guest("DKMS: the guest run on " + k,
                    self.inst.path("guest-dkms-%d.log" % i),
                    [VM, "--kernel", k, "--no-module", "--", GUEST, "dkms",
                     self.releases[i]])
        c.check("make uninstall after install-dkms", MAKE + ["uninstall"])
        c.check("after make uninstall the host is as before (DKMS's key "
                "aside)", self.same_as_before)

    def run(self):
        """The host's tests, under the lock, if nothing of ours is here."""
        c = self.c
        for k in self.inst.kernels:
            r = self.inst.release(k)
            if r is None:
                return
            if not os.path.isfile("/lib/modules/%s/build/Makefile" % r):
                c.not_ok("headers of kernel %s (%s) are installed" % (k, r))
                return
            self.releases.append(r)
        with open(LOCK, "w", encoding="utf-8") as lock:
            if not self.locked(lock, 1800):
                c.not_ok("lock " + LOCK)
                return
            found = installed_here()
            if found:
                c.comment("".join("installed: %s\n" % p for p in found))
                c.skip("install on the host, README, DKMS", "asc-event is "
                       "installed on this host; make uninstall (as root) first")
                return
            self.before = snapshot(self.releases)
            try:
                self.readme_tests(self.inst.kernels[0], self.releases[0])
                if installed_here():
                    self.uninstall_quietly()
                if self.dkms:
                    self.dkms_tests()
            except BaseException:
                # Whatever happened, leave the host as it was.
                self.uninstall_quietly()
                raise
            if installed_here():
                self.uninstall_quietly()

    @staticmethod
    def locked(lock, seconds):
        """Take the flock of the open file LOCK within SECONDS."""
        end = time.monotonic() + seconds
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() > end:
                    return False
                time.sleep(1)
