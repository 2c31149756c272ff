# SPDX-License-Identifier: GPL-2.0
"""asc-check-examples [--all] [EXAMPLE...]: the ported kernels of
tools/examples/, run in the test guest (they need the device).

Each one must compute the right result in checked mode and, with strict
IDs (-S), pass when it uses only allocated and fetched IDs and fail with
ENOENT when it writes IDs by hand; mmad-pingpong -u, with catlass's line
314 as it is, and sigmoid -n 100000, ops-nn's two-buffer path with its
fetched MTE2_V ID, must report a possible double set; duplicate -w,
pyasc's tiling as written, must end with exit status 3 and the memory
check's "out of bounds:" line of core 8, the lowest that fails: its
2048-byte copy from the start of its 252-byte block (the overlap), past
the end of z.  Then, for every sync call it lists (-l), the run without
that call (-s SITE) must end with
exit status 3 and a report of the detector: a missing sync or wait, a
possible double set or a deadlock (within a core or across the cores of
a launch), or of a queue (a deleted enque, deque or free_tensor); this for every third site of mod-pingpong (the 1st, 4th,
...), and with --all (`make check-all`) for every site of every example;
without --all, each PipeBarrier<PIPE_V> of add-rms-norm, whose deletion
must be a missing sync within V.  No line a run prints may hold a host
address (a 0x number but an offset in a memory, "UB+0x400").
--all also runs sync-all-reduce on a launch of 64 AIVs (-c64).  Last, the
worked example of Documentation/libasc.rst must run, and without its
wait for MTE2_V report what the text shows; its launch example must run
and add up right; README.md's C example must run.  Prints TAP, one
result per run (a run still going after RUN_TIMEOUT seconds is killed and
fails, and the runs after it go on); the exit status is 1 if anything
failed.
"""

import os
import re
import subprocess

from . import TOP, build
from .steps import status
from .tap import Tap

# Each example, and whether it writes IDs by hand (strict mode refuses).
EXAMPLES = [("mod-pingpong", "alloc"), ("mmad-pingpong", "hand"),
            ("amp-update-scale", "hand"), ("add-rms-norm", "alloc"),
            ("sync-all-reduce", "alloc"), ("mix-matmul-epilogue", "alloc"),
            ("lerp", "alloc"), ("sigmoid", "alloc"), ("duplicate", "alloc")]
# Other sizes: tails, fewer tiles than buffers, one tile or block; for
# mix-matmul-epilogue 1, 2 (the default) and 8 AI cores, a core with no
# tile, short tiles; for sync-all-reduce 1 and 2 AIVs, with --all 64
# (7 pipes each: issue 10's 64 x 7 run).
OTHERS = {
    "mod-pingpong": ["-n1", "-n7 -t3", "-n1000 -t1000 -v1"],
    "mmad-pingpong": ["-m16 -n96 -k16", "-m96 -n16 -k112"],
    "add-rms-norm": ["-n1", "-n4099 -e0.5"],
    "mix-matmul-epilogue": ["-b1", "-b8", "-b8 -m256 -n64 -k64", "-b2 -m16 -n16 -k16",
                            "-b1 -m48 -n80 -k112"],
    "sync-all-reduce": ["-c1", "-c2"],
    "lerp": ["-n1", "-n33", "-c1", "-c3 -n77777", "-u3072 -n5000"],
    "sigmoid": ["-t128 -n1"],
    "duplicate": ["-n1", "-n20000 -c4", "-n1000 -t100", "-n8192 -w"],
}
LONG_OTHERS = {"sync-all-reduce": ["-c64"]}
# The examples whose sync calls are each deleted in turn, and how many
# sites apart: the quick run and --all.
DELETING = (["mod-pingpong"], 3)
DELETING_ALL = ([e for e, _ in EXAMPLES], 1)
FINDING = re.compile(r"^%s: (missing sync|missing wait|possible double set|deadlock|"
                     r"error: deadlock across the cores of the launch|queue|in use): ")
FIRST_FINDING = re.compile(r"^%s: (missing|possible|deadlock|error: deadlock|queue|in use)")
ADDR = re.compile(r"0x[0-9a-f]*")
# A run that hangs is one failure, and the runs after it still run.
RUN_TIMEOUT = 600
# A host address in a report: a hex number not right after "UB+" and the like.
HOST_ADDR = re.compile(r"(?<![A-Za-z0-9]\+)\b0x[0-9a-f]+")


class Options:
    """What a run does: EXAMPLES (name, kind) in order, LONG (--all),
    DELETING (the examples whose sites are deleted), EVERY (one site in
    how many)."""

    def __init__(self, args):
        self.long = bool(args) and args[0] == "--all"
        if self.long:
            args = args[1:]
        self.examples = [e for e in EXAMPLES if not args or e[0] in args]
        self.deleting, self.every = DELETING_ALL if self.long else DELETING

    def others(self, name):
        """The other sizes NAME runs with, each a list of options."""
        extra = LONG_OTHERS.get(name, []) if self.long else []
        return [o.split() for o in OTHERS.get(name, []) + extra]


def sites(listing, every):
    """The sites of -l's LISTING to delete, one in EVERY from the first:
    (site, call) each."""
    found = []
    for i, line in enumerate(listing.splitlines()):
        site, _, call = line.strip().partition(" ")
        if i % every == 0 and site:
            found.append((site, call.strip()))
    return found


def doc_report(text):
    """The report of the worked example as Documentation/libasc.rst TEXT
    shows it, addresses as ADDR."""
    return [ADDR.sub("ADDR", m.group(1), count=1)
            for m in re.finditer(r"^   (missing sync: .*)$", text, re.M)]


def report(out):
    """The "missing sync" lines of a run's output OUT, addresses as ADDR."""
    return [ADDR.sub("ADDR", line, count=1) for line in out.splitlines()
            if line.startswith("missing sync: ")]


class Runner:
    """The runs of one asc-check-examples, on TAP."""

    def __init__(self, tap):
        self.tap = tap
        self.out = ""

    def run(self, want, what, cmd):
        """CMD must exit with WANT within RUN_TIMEOUT seconds: its result;
        its output in OUT."""
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT, check=False)
        except subprocess.TimeoutExpired as e:
            self.out = (e.output or b"").decode(errors="replace")
            self.out += "still running after %d s: killed\n" % RUN_TIMEOUT
            return self.result(False, what)
        self.out = p.stdout.decode(errors="replace")
        rc = status(p.returncode)
        if rc != want:
            self.out += "exit status %d, expected %d\n" % (rc, want)
        hosts = [line for line in self.out.splitlines() if HOST_ADDR.search(line)]
        if hosts:
            self.out += "host addresses in the report:\n" + "\n".join(hosts) + "\n"
        return self.result(rc == want and not hosts, what)

    def result(self, ok, what):
        """One result; the output of the run when it failed."""
        if not ok:
            self.tap.comment(self.out)
        self.tap.result(ok, what)
        return ok

    def fail(self, what, why):
        """A check of the last run's output failed: WHY, then WHAT."""
        self.out += why + "\n"
        self.result(False, what)

    def example(self, opts, name, kind):
        """Every run of the example NAME."""
        prog = build("tools", "examples", name)
        self.run(0, "%s: verified in checked mode" % name, [prog])
        self.tap.comment(self.out)
        for o in opts.others(name):
            self.run(0, "%s %s: verified" % (name, " ".join(o)), [prog] + o)
        if kind == "hand":
            self.run(1, "%s: strict IDs refuse its hand-written IDs" % name, [prog, "-S"])
            if "No such file or directory" not in self.out:
                self.fail("%s: ENOENT" % name, "no ENOENT in the report")
        else:
            self.run(0, "%s: verified with strict IDs" % name, [prog, "-S"])
        if name == "mmad-pingpong":
            # catlass's own line 314: MTE1_M with EVENT_ID0 for every part.
            self.run(3, "%s -u: the original MTE1_M, a possible double set" % name, [prog, "-u"])
            if not re.search("^%s: possible double set: MTE1 sets MTE1_M id 0 " % name,
                             self.out, re.M):
                self.fail("%s -u: MTE1_M" % name, "not the double set of MTE1_M")
        if name == "sigmoid":
            # ops-nn's two-buffer path reuses its fetched MTE2_V ID: the
            # source article's hazard, in a public operator.
            self.run(3, "%s -n 100000: the fetched MTE2_V, a possible double set" % name,
                     [prog, "-n", "100000"])
            if not re.search("^%s: possible double set: MTE2 sets MTE2_V id 0 " % name,
                             self.out, re.M):
                self.fail("%s -n 100000: MTE2_V" % name, "not the double set of MTE2_V")
        if name == "duplicate":
            self.as_written(name, prog)
        if name in opts.deleting:
            self.deletions(opts, name, prog)
        elif name == "add-rms-norm":
            self.barrier_deletions(name, prog)

    def as_written(self, name, prog):
        """duplicate -w, pyasc's tiling of 1000 floats on 16 cores: a core
        copies 2048 bytes from its 252-byte block's start (the overlap),
        and the copies of cores 8 to 15 run past z's 4000 bytes: the
        report names core 8, the lowest, on every run."""
        self.run(3, "%s -w: pyasc's tiling, out of bounds of z" % name, [prog, "-w"])
        m = re.search(r'^%s: out of bounds: #\d+ data_copy\(z_gm\[i \* tile_length:\], '
                      r'z_local\) on MTE3 of core (\d+) writes "z_gm" at "z" \[(\d+)\+2048\], '
                      r'past its 4000 bytes at duplicate\.c:\d+: Bad address$' % name,
                      self.out, re.M)
        if not m:
            self.fail("%s -w: the out of bounds of z" % name, "not the copy past the end of z")
        elif (int(m.group(1)) != 8 or int(m.group(2)) != 252 * 8
              or not re.search(r"^%s: core 8 \(AIV 8\):$" % name, self.out, re.M)):
            self.fail("%s -w: the lowest core's copy" % name,
                      "not core 8's copy from the start of its 252-byte block")
        self.tap.comment(m.group(0) if m else "")

    def deletions(self, opts, name, prog):
        """The runs of NAME without one of its sync calls each."""
        p = subprocess.run([prog, "-l"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, check=False)
        if p.returncode != 0:
            self.result(False, "%s: -l" % name)
            return
        finding = re.compile(FINDING.pattern % re.escape(name), re.M)
        first = re.compile(FIRST_FINDING.pattern % re.escape(name))
        for site, call in sites(p.stdout.decode(), opts.every):
            self.run(3, "%s without line %s, %s: reported" % (name, site, call),
                     [prog, "-s", site])
            if not finding.search(self.out):
                self.fail("%s without line %s: the detector's finding" % (name, site),
                          "no finding of the detector in the report")
            said = [line for line in self.out.splitlines() if first.match(line)]
            self.tap.comment(said[0] if said else "")

    def barrier_deletions(self, name, prog):
        """The runs of NAME without one of its PipeBarrier<PIPE_V> each: a
        missing sync within V."""
        p = subprocess.run([prog, "-l"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, check=False)
        barriers = [(site, call) for site, call in sites(p.stdout.decode(), 1)
                    if call.startswith("PipeBarrier")]
        if p.returncode != 0 or not barriers:
            self.result(False, "%s: -l lists its PipeBarrier<PIPE_V>" % name)
            return
        finding = re.compile(r"^%s: missing sync: V .*: one pipe, but pipelined: "
                             r"no pipe_barrier\(V\) between them(, and \d+ more like it( \([^)]*\))?)?$" % re.escape(name), re.M)
        for site, call in barriers:
            self.run(3, "%s without line %s, %s: reported" % (name, site, call),
                     [prog, "-s", site])
            if not finding.search(self.out):
                self.fail("%s without line %s: a missing sync within V" % (name, site),
                          "no missing sync within V in the report")

    def documented(self):
        """The worked example and the launch example of libasc.rst, and
        README.md's C example."""
        prog = build("tools", "examples", "doc-vadd")
        self.run(0, "libasc.rst's worked example runs", [prog])
        self.run(1, "libasc.rst's worked example without its wait: ENOLCK", [prog + "-nowait"])
        if not re.search(r"^vadd: No locks available$", self.out, re.M):
            self.fail("libasc.rst's worked example: ENOLCK", "not ENOLCK")
        with open(os.path.join(TOP, "Documentation", "libasc.rst")) as f:
            text = doc_report(f.read())
        if not text or report(self.out) != text:
            self.fail("libasc.rst's worked example: its report as the text shows it",
                      "the report differs from the text's:\n" + "\n".join(text))
        # Its launch example runs and its total is the plain sum.
        self.run(0, "libasc.rst's launch example runs, its total right",
                 [build("tools", "examples", "doc-launch")])
        self.run(0, "README.md's C example runs", [build("tools", "examples", "readme")])
        self.tap.comment(self.out)


def main(args, tap=None):
    """asc-check-examples ARGS, on TAP (a Tap of its own unless given):
    the exit status."""
    tap = tap or Tap()
    opts = Options(list(args))
    tap.write("TAP version 13")
    runner = Runner(tap)
    for name, kind in opts.examples:
        runner.example(opts, name, kind)
    runner.documented()
    tap.plan()
    return 1 if tap.failed else 0
