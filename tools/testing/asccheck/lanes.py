# SPDX-License-Identifier: GPL-2.0
"""The steps and guest lanes of a check, each a function of the Check it
belongs to that prints to its job's log and returns an exit status.
Documentation/reliability.rst says what each runs and why.
"""

import fcntl
import os
import re
import shutil
import subprocess
import sys
import time

from . import jobs
from .verdicts import grep_context, has_diagnostic, read_lines

VM = "tools/testing/asc-vm"
GUEST = "tools/testing/asc-check-guest"
KERNEL_BUILDER = "tools/testing/kernels/asc-debug-kernel"
KCSAN_CONFIG = "tools/testing/kernels/kcsan-kernel.config"
DIAGNOSTIC_WORD = re.compile(r"(warning|error)")


def python():
    """The system's Python, which the tests of ascctl use."""
    return "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) \
        else "python3"


def kernel_line(number, name, ok, seconds=None):
    """The TAP line of the build of the kernel NAME, with its time."""
    text = "%s: kernel builds (or is built)" % name
    if ok:
        return "ok %d %s, %.0f s" % (number, text, seconds)
    return "not ok %d %s" % (number, text)


class Check:
    """One run of the check: TOP, the LOGS directory, MODE ("quick" or
    "all"), the KERNELS and the module each one's guests load (KO)."""

    def __init__(self, top, mode, kernels):
        self.top = top
        self.mode = mode
        self.kernels = kernels
        self.logs = os.path.join(top, "build", "check")
        self.ko = {}

    def log(self, name):
        """The path of the log NAME in build/check/."""
        return os.path.join(self.logs, name)

    def run(self, argv, **kwargs):
        """Run ARGV in the top directory; its exit status."""
        sys.stdout.flush()
        return subprocess.run(argv, cwd=self.top, check=False,
                              **kwargs).returncode

    def output(self, argv):
        """ARGV's standard output, stripped, or None when it fails."""
        proc = subprocess.run(argv, cwd=self.top, stdout=subprocess.PIPE,
                              text=True, check=False)
        return proc.stdout.strip() if proc.returncode == 0 else None

    def release(self, kernel):
        """The release of KERNEL (asc-vm --print-release), or None."""
        return self.output([VM, "--kernel", kernel, "--print-release"])

    def vm(self, kernel, *args):
        """The runner's command line for a guest of KERNEL with its module."""
        return [VM, "--kernel", kernel, "--module",
                self.ko.get(kernel) or ""] + list(args)

    # ---- host steps --------------------------------------------------------

    def ascctl_offline(self):
        """ascctl trace -i on a saved trace, its JSON and SVG checked; the
        spans', the launches' and the rule's saved traces."""
        out = self.log("ascctl-offline")
        os.makedirs(out, exist_ok=True)
        ascctl = "build/tools/ascctl"
        tests = "tools/ascctl/tests/"
        steps = [
            [ascctl, "trace", "-i", tests + "ascctl-offline.trace",
             "-o", out + "/out"],
            [python(), tests + "ascctl-offline.py", out + "/out.json",
             out + "/out.svg"],
            [python(), tests + "ascctl-spans.py", ascctl, out + "/spans"],
            [python(), tests + "ascctl-launches.py", ascctl,
             out + "/launches"],
            [python(), tests + "ascctl-launch-rule.py", ascctl,
             out + "/rule"],
        ]
        for argv in steps:
            status = self.run(argv)
            if status:
                return status
        return 0

    def ascctl_review(self):
        """ascctl on what an outside review found it mishandled."""
        return self.run(["python3", "tools/ascctl/tests/ascctl-saved-traces.py",
                         "build/tools/ascctl", self.log("ascctl-review")])

    def module_ko(self, kernel):
        """Build the module the guests of KERNEL load; its path or None."""
        rel = self.release(kernel)
        if rel is None:
            return None
        log = self.log("module-%s.log" % kernel)
        with open(log, "w", encoding="utf-8") as f:
            status = self.run(["make", "--no-print-directory", "-s", "module",
                               "KERNEL=" + kernel], stdout=f,
                              stderr=subprocess.STDOUT)
        if status:
            for line in read_lines(log)[-20:]:
                print("    " + line, file=sys.stderr)
            return None
        return os.path.join(self.top, "build", "driver", rel, "asc_event.ko")

    # ---- jobs --------------------------------------------------------------

    def module_gate(self, kernel):
        """The module with W=1 and sparse, in a directory of its own; a
        failed build is cleaned, so that the next shows the warnings again."""
        if kernel == "debug" and not self.debug_kernel():
            print("error: the debug kernel did not build "
                  "(build/check/debug-kernel.log)")
            return 1
        rel = self.release(kernel)
        if rel is None:
            return 1
        out = os.path.join(self.top, "build", "check-module", rel)
        os.makedirs(out, exist_ok=True)
        make = ["make", "--no-print-directory", "module", "KERNEL=" + kernel,
                "MODULE_DIR=" + out]
        proc = subprocess.Popen(make + ["W=1", "C=1"], cwd=self.top,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        with open(out + ".log", "wb") as tee:
            for chunk in proc.stdout:
                sys.stdout.buffer.write(chunk)
                tee.write(chunk)
        sys.stdout.flush()
        if proc.wait() or has_diagnostic(out + ".log"):
            self.run(make[:2] + ["-s", "module-clean"] + make[3:],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return 1
        return 0

    def debug_build(self):
        """The background job: build the debug kernel, niced; its log's
        .rc and .ms say when it ended, for the jobs that wait for it."""
        log = self.log("debug-kernel.log")
        t0 = time.monotonic()
        status = self.run(["nice", "-n", "10", KERNEL_BUILDER],
                          stdin=subprocess.DEVNULL)
        with open(log + ".ms.tmp", "w", encoding="utf-8") as f:
            f.write("%d\n" % round((time.monotonic() - t0) * 1000))
        os.replace(log + ".ms.tmp", log + ".ms")
        with open(log + ".rc.tmp", "w", encoding="utf-8") as f:
            f.write("%d\n" % status)
        os.replace(log + ".rc.tmp", log + ".rc")
        return status

    def debug_kernel(self):
        """Wait for the debug kernel's build; whether it built cleanly."""
        log = self.log("debug-kernel.log")
        return jobs.wait_for(log) == 0 and not has_diagnostic(log)

    def debug_seconds(self):
        """How long the debug kernel's build took."""
        lines = read_lines(self.log("debug-kernel.log.ms"))
        return int(lines[0]) / 1000 if lines else 0

    def guest_ko(self, kernel, part):
        """In a job of a long run: the module the guests of KERNEL load.
        The debug kernel's jobs wait for its build and build the module
        under a lock; the head run says so in two TAP lines."""
        if kernel != "debug":
            return True
        head = part == "head"
        if not self.debug_kernel():
            if head:
                log = ["# " + x for x in read_lines(self.log("debug-kernel.log"))]
                for line in grep_context(log, DIAGNOSTIC_WORD, 2, 4)[:60]:
                    print(line)
                for line in log[-20:]:
                    print(line)
            print(kernel_line(1, "debug", False), flush=True)
            return False
        with open(self.log("module-debug.lock"), "w",
                  encoding="utf-8") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.ko["debug"] = self.module_ko("debug")
        if head:
            print(kernel_line(1, "debug", True, self.debug_seconds()))
            if self.ko["debug"]:
                print("ok 2 debug: module builds for the guests")
        if not self.ko["debug"]:
            print("not ok 2 debug: module builds for the guests", flush=True)
            return False
        sys.stdout.flush()
        return True

    def head_parts(self, kernel):
        """What the long head of KERNEL runs after --long-head: the
        userspace at scale (every example's every site, the torch tests)
        on the first kernel listed but debug, which is 6.1, the quick
        examples and no torch on the others; on debug only the parts that
        drive the module (Documentation/reliability.rst)."""
        if kernel == "debug":
            return ["--selftests", "--programs", "--ascctl"]
        first = [k for k in self.kernels if k != "debug"][:1]
        return [] if kernel in first else ["--no-torch", "--quick-examples"]

    def long_run(self, kernel, part):
        """A long guest run of check-all: --long-head or --long-tail."""
        out = self.log("out-" + kernel + ("" if part == "head" else "-" + part))
        if not self.guest_ko(kernel, part):
            return 1
        args = [GUEST, "--long-" + part]
        if part == "head":
            args += self.head_parts(kernel)
        return self.run(self.vm(kernel, "--timeout", "1800", "--output", out,
                                "--", *args))

    def ids4_run(self, kernel):
        """The event-ID tests with event_ids=4, then libasc's device tests
        (the quick run and debug: the fast path's test) with
        ASC_NO_FASTPATH=1."""
        off = "--libasc" if self.mode == "all" and kernel != "debug" \
            else "--fastpath"
        script = ("env ASC_EXPECT_EVENT_IDS=4 %s asc_event_ids asc_event_pool;"
                  " r=$?\n ASC_NO_FASTPATH=1 %s \"$1\" || r=1; exit $r"
                  % (GUEST, GUEST))
        return self.run(self.vm(kernel, "--module-args", "event_ids=4",
                                "--output", self.log("out-ids4-" + kernel),
                                "--", "sh", "-c", script, "-", off))

    def ids4_lane(self, kernel):
        """check-all's event_ids=4 guest of KERNEL."""
        if not self.guest_ko(kernel, "ids4"):
            return 1
        return self.ids4_run(kernel)

    def kcsan_lane(self):
        """The KCSAN lane: the kcsan kernel built (or found built), niced,
        then the data-race tests in a guest with two CPUs."""
        log = self.log("kcsan-kernel.log")
        t0 = time.monotonic()
        with open(log, "w", encoding="utf-8") as f:
            status = self.run(["nice", "-n", "10", KERNEL_BUILDER, "--config",
                               KCSAN_CONFIG], stdout=f,
                              stderr=subprocess.STDOUT)
        seconds = time.monotonic() - t0
        if status or has_diagnostic(log):
            for line in read_lines(log)[-20:]:
                print("# " + line)
            print(kernel_line(1, "kcsan", False), flush=True)
            return 1
        print(kernel_line(1, "kcsan", True, seconds), flush=True)
        self.ko["kcsan"] = self.module_ko("kcsan")
        if not self.ko["kcsan"]:
            print("not ok 2 kcsan: module builds", flush=True)
            return 1
        return self.run(self.vm("kcsan", "--timeout", "900", "--",
                                "tools/testing/asc-check-kcsan-guest"))


def clean_dir(path):
    """PATH, emptied and made."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
