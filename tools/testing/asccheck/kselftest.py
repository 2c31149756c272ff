# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-kselftest-tree [--kernel VERSION]: the selftests as
the kernel's own kselftest machinery builds, installs and runs them
(`make check-all`; Documentation/reliability.rst).

The kselftest part of Debian's linux-source-6.1 (or $ASC_KSELFTEST_SOURCE)
is unpacked once into build/kselftest-tree/NAME/ (afresh from a newer
tarball); selftests/config must name only options its Kconfig files
define.  selftests/ is copied in as tools/testing/selftests/drivers/
asc_event and built and installed by the kernel's lib.mk, without a
compiler warning, its kselftest-list.txt in the order of the standalone
build.  A guest of VERSION (default 6.1) runs the installed
run_kselftest.sh, whose TAP passes through, then the tree's make
run_tests with the device hidden, where every program must run and skip.

Prints TAP; exit status 0 when everything passed, 1 otherwise, 2 on a
usage error.  The build's log is build/kselftest-tree/build.log.
"""

import os
import re
import shutil
import subprocess
import sys

from . import tap

TARGET = "drivers/asc_event"
HIDDEN = "/nonexistent/asc_event"
DEFAULT_SOURCE = "/usr/src/linux-source-6.1.tar.xz"
LONG_RUNS = ("asc_event_soak", "asc_event_fuzz", "asc_event_faults",
             "asc_event_reload")
DEFINED = re.compile(r"^[ \t]*(?:menu)?config ([A-Za-z0-9_]+)[ \t\r]*$", re.M)
DIAGNOSTIC = re.compile(r"(warning|error):")
SHOWN = re.compile(r"(warning|error|Error)")


def guest(top, tree):
    """In the guest: both runs, their output for the host to check."""
    install = os.path.join(top, "build", "kselftest-tree", "install")
    # Through a pipe: the runner opens /dev/stdout, which the guest's
    # console refuses a second time.
    proc = subprocess.Popen([install + "/run_kselftest.sh", "-c", TARGET],
                            stdout=subprocess.PIPE)
    with proc.stdout:
        for chunk in proc.stdout:
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
    proc.wait()
    env = dict(os.environ, ASC_EVENT_DEV=HIDDEN)
    env.pop("ASC_EVENT_KO", None)
    proc = subprocess.Popen(["make", "--no-print-directory", "-C",
                             tree + "/tools/testing/selftests",
                             "TARGETS=" + TARGET,
                             "ASC_EVENT_UAPI=" + top + "/uapi", "run_tests"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env)
    with proc.stdout:
        for raw in proc.stdout:
            sys.stdout.write("# run_tests: " + raw.decode("utf-8", "replace"))
            sys.stdout.flush()
    proc.wait()
    return 0


def defined_options(tree):
    """The config symbols the Kconfig files under TREE define."""
    found = set()
    for root, _, names in os.walk(tree):
        for n in names:
            if n.startswith("Kconfig"):
                with open(os.path.join(root, n), encoding="utf-8",
                          errors="replace") as f:
                    found.update(DEFINED.findall(f.read()))
    return found


def config_options(path):
    """The options selftests/config sets, in order."""
    with open(path, encoding="utf-8") as f:
        return re.findall(r"^CONFIG_([A-Za-z0-9_]*)=", f.read(), re.M)


def count(lines, prefix, within):
    """(results, failures) among LINES that start with PREFIX, read as TAP
    once it is cut off, whose text starts with WITHIN."""
    report = tap.read([x[len(prefix):] for x in lines if x.startswith(prefix)])
    mine = [r for r in report.results if r.text.startswith(within)]
    return len(mine), sum(1 for r in mine if r.failed)


class Tree:
    """One run: the tree of the tarball SOURCE under TOP's build/."""

    def __init__(self, top, source, out=None):
        self.top = top
        self.source = source
        self.name = os.path.basename(source)
        if self.name.endswith(".tar.xz"):
            self.name = self.name[:-len(".tar.xz")]
        self.work = os.path.join(top, "build", "kselftest-tree")
        self.tree = os.path.join(self.work, self.name)
        self.install = os.path.join(self.work, "install")
        self.w = tap.Writer(out, prefix="kselftest tree: ", dash=False)

    def result(self, ok, text):
        """One result, "ok N kselftest tree: TEXT"."""
        self.w.result(ok, text)

    def unpack(self):
        """Unpack the kselftest part of the source, once."""
        stamp = os.path.join(self.tree, ".unpacked")
        if not os.access(self.source, os.R_OK):
            self.w.comment("%s: not found; run tools/scripts/asc-install-deps"
                           % self.source)
            self.result(False, "unpack " + self.source)
            return False
        if (os.path.exists(stamp) and os.path.getmtime(self.source)
                <= os.path.getmtime(stamp)):
            return True
        self.w.comment("unpacking the kselftest part of " + self.source)
        shutil.rmtree(self.tree, ignore_errors=True)
        os.makedirs(self.work, exist_ok=True)
        n = self.name
        if subprocess.run(["tar", "-xJf", self.source, "-C", self.work,
                           "--wildcards", n + "/tools/testing/selftests",
                           n + "/scripts/subarch.include", n + "/*Kconfig*"],
                          check=False).returncode:
            self.result(False, "unpack " + self.source)
            return False
        open(stamp, "w", encoding="utf-8").close()
        return True

    def config(self):
        """Every option selftests/config names exists in this kernel."""
        opts = config_options(os.path.join(self.top, "selftests", "config"))
        defined = defined_options(self.tree)
        bad = [o for o in opts if o not in defined]
        if bad:
            self.w.comment("options that %s does not define: %s"
                           % (self.name, " ".join(bad)))
        self.result(not bad and bool(opts), "selftests/config names %d "
                    "options, each one %s defines" % (len(opts), self.name))

    def build(self):
        """Build and install as the kernel does; whether it did cleanly."""
        ksft = os.path.join(self.tree, "tools", "testing", "selftests")
        shutil.rmtree(os.path.join(ksft, TARGET), ignore_errors=True)
        shutil.rmtree(self.install, ignore_errors=True)
        shutil.copytree(os.path.join(self.top, "selftests"),
                        os.path.join(ksft, TARGET), symlinks=True)
        log = os.path.join(self.work, "build.log")
        with open(log, "w", encoding="utf-8") as f:
            status = subprocess.run(
                ["make", "--no-print-directory", "-C", ksft,
                 "TARGETS=" + TARGET, "ASC_EVENT_UAPI=" + self.top + "/uapi",
                 "INSTALL_PATH=" + self.install, "install"],
                stdout=f, stderr=subprocess.STDOUT, check=False).returncode
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        clean = status == 0 and not any(DIAGNOSTIC.search(x) for x in lines)
        if not clean:
            from .verdicts import grep_context  # pylint: disable=import-outside-toplevel
            for line in grep_context(lines, SHOWN, 2, 4)[:40]:
                print("#   " + line)
        self.result(clean, "make -C tools/testing/selftests TARGETS=%s install "
                    "(%s, lib.mk)" % (TARGET, self.name))
        return clean

    def installed(self):
        """What emit_tests listed and what was installed; the tests' count."""
        subprocess.run(["make", "--no-print-directory", "-s", "-C",
                        os.path.join(self.top, "selftests"), "TOP=" + self.top,
                        os.path.join(self.top, "build", "selftests",
                                     "kselftest-list.txt")],
                       stdout=subprocess.DEVNULL, check=False)
        with open(os.path.join(self.top, "build", "selftests",
                               "kselftest-list.txt"), encoding="utf-8") as f:
            want = [TARGET + ":" + x[len("asc_event:"):].rstrip("\n")
                    for x in f if x.startswith("asc_event:")]
        try:
            with open(os.path.join(self.install, "kselftest-list.txt"),
                      encoding="utf-8") as f:
                got = f.read().splitlines()
        except OSError:
            got = []
        bad = []
        if got != want:
            bad.append("kselftest-list.txt differs: " + " ".join(got))
        for t in [x.split(":", 1)[1] for x in want] + list(LONG_RUNS):
            if not os.access(os.path.join(self.install, TARGET, t), os.X_OK):
                bad.append(t + " not installed;")
        for f in ("config", "settings"):
            if not os.path.exists(os.path.join(self.install, TARGET, f)):
                bad.append(f + " not installed;")
        if bad:
            self.w.comment(" ".join(bad))
        self.result(not bad, "install: %d tests in kselftest-list.txt "
                    "(emit_tests), the long runs, config, settings" % len(want))
        return len(want)

    def run_guest(self, kernel, ntests, launcher):
        """Both runs in a guest of KERNEL, checked.  One virtual CPU:
        what is checked is kselftest's machinery; the programs' runs on
        two are the long heads' (on two, TCG takes about twice the CPU,
        and the tracepoint toggling of asc_event_map five times the
        time)."""
        glog = os.path.join(self.work, "guest.log")
        proc = subprocess.Popen([os.path.join(self.top, "tools", "testing",
                                              "asc-vm"), "--kernel", kernel,
                                 "--cpus", "1", "--timeout", "2400", "--",
                                 launcher, "--guest", self.tree],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = []
        with proc.stdout, open(glog, "wb") as tee:
            for raw in proc.stdout:
                sys.stdout.buffer.write(raw)
                sys.stdout.flush()
                tee.write(raw)
                lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
        status = proc.wait()
        if status:
            self.result(False, "the guest run on %s (exit status %d)"
                        % (kernel, status))
        within = "selftests: %s: " % TARGET
        total, fails = count(lines, "", within)
        inner = len(tap.read([x[2:] for x in lines
                              if x.startswith("# ")]).results)
        self.result(total == ntests and fails == 0,
                    "run_kselftest.sh -c %s on %s: %d of %d tests passed (%d "
                    "results inside)" % (TARGET, kernel, total - fails,
                                         ntests, inner))
        ran, _ = count(lines, "# run_tests: ", within)
        self.result(ran == ntests, "make run_tests ran %d of the %d tests (the "
                    "device hidden: all skip)" % (ran, ntests))


def main(argv, top, launcher):
    """asc-kselftest-tree ARGV in the tree TOP (LAUNCHER: the script, which
    the guest runs with --guest); the exit status."""
    if argv[:1] == ["--guest"]:
        return guest(top, argv[1]) if len(argv) == 2 else 2
    kernel = "6.1"
    if argv:
        if len(argv) != 2 or argv[0] != "--kernel":
            sys.stderr.write("usage: %s [--kernel VERSION]\n" % sys.argv[0])
            return 2
        kernel = argv[1]
    run = Tree(top, os.environ.get("ASC_KSELFTEST_SOURCE") or DEFAULT_SOURCE)
    if not run.unpack():
        return 1
    run.config()
    if not run.build():
        return 1
    ntests = run.installed()
    run.run_guest(kernel, ntests, launcher)
    return 1 if run.w.failures else 0
