# SPDX-License-Identifier: GPL-2.0
"""ascctl trace in the guest: the vadd demo, a mix launch, threads with
odd names, the clean-up after a failing or interrupted command; with
--long the launches against the chip's rule and the other tracers
(trace-cmd, perf).

The checkers of tools/ascctl/tests/ read what was recorded; they run in
this process (steps.Steps.script), the programs traced in processes of
their own.  Each test is a function of a steps.Steps.
"""

import glob
import os
import shlex
import signal

from . import PYTHON, TOP, build, scratch
from .ascctl import ASCCTL
from .steps import Failed

TESTS = os.path.join(TOP, "tools", "ascctl", "tests")
VADD = build("tools", "asc-vadd")
TRACING = "/sys/kernel/tracing"


def checker(name):
    """The path of the checker NAME of tools/ascctl/tests/."""
    return os.path.join(TESTS, name)


def vadd(s):
    """The vadd demo under ascctl trace: JSON that parses, one track per
    pipe the demo uses, every hand-off and every tile in order; an SVG
    that is XML."""
    out = os.path.join(scratch(), "vadd")
    s.step("ascctl trace runs the demo", [ASCCTL, "trace", "-o", out, "--", VADD, "-q"])
    s.script("vadd-trace.py", checker("vadd-trace.py"), out + ".json", out + ".svg")


def launch(s):
    """A mix launch (one AIC and its two AIVs) under ascctl trace, read
    from the binary ring buffer: a group per core, each cross-core
    wait's arrows from the sets whose count it took."""
    out = os.path.join(scratch(), "mix")
    s.step("ascctl trace runs the mix example",
           [ASCCTL, "trace", "-o", out, "--", build("tools", "examples", "mix-matmul-epilogue"),
            "-b", "1", "-m", "64", "-n", "32", "-k", "32"])
    s.script("ascctl-launches.py", checker("ascctl-launches.py"), "mix", out + ".json",
             out + ".svg")


def no_instance():
    """Whether no tracefs instance of ascctl exists."""
    return not glob.glob(os.path.join(TRACING, "instances", "ascctl-*"))


def cleanup(s):
    """ascctl trace passes COMMAND's exit status through and leaves no
    tracefs instance behind when COMMAND fails or ascctl is interrupted."""
    d = scratch()
    s.exits(3, [ASCCTL, "trace", "-o", os.path.join(d, "exit3"), "--", "sh", "-c", "exit 3"],
            timeout=120)
    s.check("no instance left", no_instance())
    s.exits(127, [ASCCTL, "trace", "-o", os.path.join(d, "none"), "--", "/nonexistent/command"],
            timeout=120)
    s.check("no instance left", no_instance())
    started = os.path.join(d, "started")
    if os.path.exists(started):
        os.unlink(started)
    out = os.path.join(d, "int")
    with s.background([ASCCTL, "trace", "-o", out, "--", "sh", "-c",
                       ": >%s; exec sleep 30" % shlex.quote(started)]) as p:
        s.until("the traced command did not start", lambda: os.path.exists(started), 100)
        s.check("no instance while tracing", not no_instance())
        s.say("$ kill -INT <ascctl trace -- sleep 30>")
        p.send_signal(signal.SIGINT)
        r = s.wait(p, 120, "ascctl trace, 120 s after SIGINT")
    s.check("interrupted: exit status 130", r == 130)
    s.check("outputs written", all(os.path.isfile(out + x) and os.path.getsize(out + x) > 0
                                   for x in (".json", ".svg")))
    s.check("no instance left", no_instance())


def odd_names(s):
    """Threads named with bytes that are not UTF-8, '<&"' and an
    asc_event_ marker under ascctl trace: JSON and SVG that parse, names
    kept."""
    d = os.path.join(scratch(), "names")
    os.makedirs(d, exist_ok=True)
    names = checker("ascctl-names.py")
    out = os.path.join(d, "names")
    s.step("ascctl trace of renamed threads",
           [ASCCTL, "trace", "-o", out, "--", PYTHON, names, "run"])
    s.script("names in JSON and SVG", names, "check", out + ".json", out + ".svg")


def write(path, text):
    """Write TEXT to the tracefs file PATH, as echo does."""
    with open(path, "w") as f:
        f.write(text + "\n")


def record_launches(s, inst, trace):
    """ascctl-launch-modes.py under the tracefs instance INST, its
    trace into TRACE; empty when the launches failed."""
    text = ""
    try:
        write(os.path.join(inst, "set_event"), "asc_event:*")
        s.step("the launches run", [PYTHON, checker("ascctl-launch-modes.py")], timeout=300)
        write(os.path.join(inst, "tracing_on"), "0")
        with open(os.path.join(inst, "trace")) as f:
            text = f.read()
    except Exception as e:  # pylint: disable=broad-except  # said, then judged below
        s.say("FAIL: %s" % e)
        s.say("FAIL: the launches under tracefs")
    with open(trace, "w") as f:
        f.write(text)


def launch_rule(s):
    """ascctl-launch-modes.py (modes 0 and 1 on a mix launch, three
    SyncAll rounds on 8 cores) recorded as tracefs text through an
    instance of its own, as the recorded traces were: every arrow ascctl
    draws for it against the chip's rule."""
    inst = os.path.join(TRACING, "instances", "asc-launch-rule")
    trace = os.path.join(scratch(), "launch-modes.trace")
    s.say("$ mkdir " + inst)
    try:
        os.mkdir(inst)
    except OSError as e:
        raise Failed("a tracefs instance: %s" % e) from e
    try:
        record_launches(s, inst, trace)
    finally:
        write(os.path.join(inst, "set_event"), "")
        os.rmdir(inst)
    s.check("the launches' trace", os.path.getsize(trace) > 0)
    s.script("ascctl-launch-rule.py", checker("ascctl-launch-rule.py"), ASCCTL,
             os.path.join(scratch(), "launch-rule"), trace)


def tracers(s):
    """asc-vadd recorded by ascctl trace (binary ring buffer, ns times),
    by trace-cmd record (then trace-cmd report, and ascctl trace -i of
    its trace.dat) and by perf record (then perf script): each shows
    every set and consuming wait of the demo."""
    d = os.path.join(scratch(), "tracers")
    os.makedirs(d, exist_ok=True)

    def p(name):
        return os.path.join(d, name)

    with open(p("vadd.out"), "w") as f:
        s.step("ascctl trace -o ascctl -- asc-vadd",
               [ASCCTL, "trace", "-o", p("ascctl"), "--", VADD], stdout=f)
    s.step("trace-cmd record", ["trace-cmd", "record", "-q", "-b", "4096", "-C", "mono", "-e",
                                "asc_event", "-o", p("trace.dat"), VADD, "-q"])
    with open(p("report.txt"), "w") as f:
        s.step("trace-cmd report", ["trace-cmd", "report", "-i", p("trace.dat")], stdout=f)
    s.step("ascctl trace -i trace.dat", [ASCCTL, "trace", "-i", p("trace.dat"), "-o", p("dat")])
    s.step("perf record", ["perf", "record", "-q", "--no-buildid", "--no-buildid-cache", "-e",
                           "asc_event:*", "-o", p("perf.data"), VADD, "-q"])
    with open(p("script.txt"), "w") as f:
        s.step("perf script", ["perf", "script", "-i", p("perf.data")], stdout=f)
    s.script("every set and wait, per HardEvent", checker("ascctl-tracers.py"), p("vadd.out"),
             p("ascctl.json"), p("dat.json"), p("report.txt"), p("script.txt"))
