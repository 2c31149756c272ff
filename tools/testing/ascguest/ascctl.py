# SPDX-License-Identifier: GPL-2.0
"""ascctl in the guest: status, dump, unload refused while a TPipe is
open, unload, load; the fetch_event_id hazard (asc-fetch-hazard) and the
hand-written ID that a queue holds (asc-queue-hazard).

Each test is a function of a steps.Steps, run by steps.run_tap().
"""

import os
import re
import shlex
import subprocess

from . import PYTHON, TOP, build

ASCCTL = build("tools", "ascctl")
HOLDER = os.path.join(TOP, "tools", "ascctl", "tests", "ascctl-launch-holder.py")
DEADLOCK = "asc_event: deadlock in TPipe"


def has(pattern, text):
    """Whether a line of TEXT matches the regular expression PATTERN."""
    return re.search(pattern, text, re.M) is not None


def dump():
    """What ascctl dump prints to stdout ("" when it fails)."""
    p = subprocess.run([ASCCTL, "dump"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=False)
    return p.stdout.decode(errors="replace")


def module_args():
    """The module's parameters of the run, split as insmod's."""
    return shlex.split(os.environ.get("ASC_VM_MODULE_ARGS", ""))


def status_and_dump(s):
    """status of the live module; dump of an open TPipe, unload refused."""
    out = s.exits(0, [ASCCTL, "status"])
    s.check("status: live", has(r"^state +live$", out))
    s.check("status: parameters", has(r"^checked +Y$", out))
    s.check("status: counters", has(r"^tpipes_open +0$", out))
    fd = os.open("/dev/asc_event", os.O_RDWR)
    try:
        s.until("no TPipe in ascctl dump", lambda: has("^tpipe: ", dump()), 50)
        out = s.exits(0, [ASCCTL, "dump"])
        s.check("dump: mode", has(r"^mode: checked$", out))
        s.check("dump: owner", has(r"^owner: .*\[[0-9]+\] uid 0$", out))
        out = s.exits(1, [ASCCTL, "unload"])
        s.check("unload refused while in use", "in use" in out)
    finally:
        os.close(fd)


def launch_dump(s):
    """dump of a mix launch held open: a core's line, the launch's."""
    with s.background([PYTHON, HOLDER, "30"]):
        s.until("no launch in ascctl dump", lambda: has("^launches:$", dump()), 100)
        out = s.exits(0, [ASCCTL, "dump"])
        s.check("dump: a core's launch line",
                has(r"^launch: [0-9]+ core 2 \(AIV 1\) of 3$", out))
        s.check("dump: the launch, its cores and TPipes",
                has(r"^launch [0-9]+ \(3 cores, 3 open\): core 0 \(AIC 0\) TPipe [0-9]+, "
                    r"core 1 \(AIV 0\) TPipe [0-9]+, core 2 \(AIV 1\) TPipe [0-9]+$", out))


def unload_load(s):
    """unload, status of no module, load with a parameter, load again."""
    s.exits(0, [ASCCTL, "unload"])
    out = s.exits(3, [ASCCTL, "status"])
    s.check("status: not loaded", has(r"^state +not loaded$", out))
    s.exits(0, [ASCCTL, "load", "event_ids=4"])
    out = s.exits(0, [ASCCTL, "status"])
    s.check("load: the parameter took", has(r"^event_ids +4$", out))
    s.exits(0, [ASCCTL, "unload"])
    s.exits(0, [ASCCTL, "load"] + module_args())
    out = s.exits(1, [ASCCTL, "load"])
    s.check("second load refused", "already loaded" in out)


def cycle(s):
    """ascctl load, unload, status and dump; leaves the module loaded."""
    try:
        status_and_dump(s)
        launch_dump(s)
        unload_load(s)
    finally:
        if not os.path.isdir("/sys/module/asc_event"):
            s.say(s.run([ASCCTL, "load"] + module_args())[1])


def dmesg():
    """The kernel log."""
    return subprocess.run(["dmesg"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          check=False).stdout.decode(errors="replace")


def last_report(log):
    """The last deadlock report of the kernel log LOG: its first line
    and the four after it."""
    lines = log.splitlines()
    starts = [i for i, line in enumerate(lines) if DEADLOCK in line]
    return "\n".join(lines[starts[-1]:starts[-1] + 5]) if starts else ""


def fetch_hazard(s):
    """The fetch_event_id hazard: EBUSY for the second set, EDEADLK for
    both waits and a deadlock report in the kernel log; with --alloc a
    clean run."""
    hazard = build("tools", "asc-fetch-hazard")
    n0 = dmesg().count(DEADLOCK)
    out = s.exits(1, [hazard])
    s.check("second set: EBUSY", has(r"set_flag\(V_MTE3, .*EBUSY", out))
    s.check("both waits: EDEADLK",
            len([1 for line in out.splitlines() if re.search(r"wait_flag\(.*EDEADLK", line)]) == 2)
    log = dmesg()
    s.say(last_report(log))
    s.check("deadlock report in the kernel log", log.count(DEADLOCK) > n0)
    s.exits(0, [hazard, "--alloc"])


def queue_hazard(s):
    """The source article's warning: a hand-written ID a queue holds.  In
    checked mode EADDRINUSE naming the queue, unchecked the detector's
    possible double set; with --alloc a clean run."""
    hazard = build("tools", "asc-queue-hazard")
    out = s.exits(1, [hazard])
    s.check("the queue that holds the ID is named", "the ID is held by queue inQueueX" in out)
    s.check("EADDRINUSE", "Address already in use (EADDRINUSE)" in out)
    out = s.exits(1, [hazard, "--unchecked"])
    s.check("unchecked: a possible double set of MTE2_V 0",
            has(r"^possible double set: MTE2 sets MTE2_V id 0", out))
    out = s.exits(0, [hazard, "--alloc"])
    s.check("--alloc: clean and verified", "asc-queue-hazard: clean run, z = x * s verified" in out)
