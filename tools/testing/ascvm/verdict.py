# SPDX-License-Identifier: GPL-2.0
"""What a run comes to: the guest's results, the kernel log's findings,
the messages and the exit status."""

import re
import shutil
import sys

from asccheck.tap import KSFT_SKIP

from .util import EXIT_RUNNER, EXIT_TIMEOUT, msg, read_text

# Kernel log lines after the "asc-vm: begin" marker that fail a run.  A
# KCSAN report has one: "BUG: KCSAN: data-race in A / B".
BAD_LOG = re.compile(r"BUG:|WARNING:|Oops|general protection|KASAN|UBSAN|"
                     r"KCSAN|lockdep|circular locking|blocked for more than|"
                     r"kmemleak|Call Trace")
KCSAN_REPORT = re.compile(r"BUG: KCSAN: ")
BEGIN = "asc-vm: begin"
# Exit statuses that mean "skipped": kselftest's KSFT_SKIP (the tree's TAP
# reader, asccheck/tap.py, knows it too) and automake's.
SKIP_STATUSES = {KSFT_SKIP: "kselftest's KSFT_SKIP", 77: "automake's skip"}
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b.")


def _err(text):
    sys.stderr.write(text)
    sys.stderr.flush()


def since_begin(text):
    """The lines of the kernel log TEXT from the begin marker on."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if BEGIN in line:
            return lines[i:]
    return []


def print_log(run):
    """The kernel log since the module went in, or all of the console's if
    the guest did not save it."""
    dmesg = read_text(run.file("dmesg"), "")
    if dmesg:
        msg("---- guest kernel log (from the start of the test) ----")
        _err("".join(line + "\n" for line in since_begin(dmesg)))
        kmemleak = read_text(run.file("kmemleak"), "")
        if kmemleak:
            msg("---- kmemleak ----")
            _err(kmemleak)
    else:
        msg("---- guest console ----")
        console = read_text(run.file("console.log"), "")
        _err(ANSI.sub("", console.replace("\r", "")))
        qemu = read_text(run.file("qemu.log"), "")
        if qemu:
            msg("---- qemu ----")
            _err(qemu)
    msg("---- end of log ----")


def read_result(run):
    """The guest's result file as a dict (insmod, cmd, rmmod: a status or
    "-" when that step did not run; kmemleak), or None when the guest did
    not get that far."""
    text = read_text(run.file("result"))
    if text is None:
        return None
    result = {"insmod": "-", "cmd": "-", "rmmod": "-", "kmemleak": "absent"}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key in result:
            result[key] = value
    return result


def _failed(status):
    return status not in ("-", "0")


def _kmemleak_findings(run, kernel, result):
    """kmemleak's part of the findings: "on" when the guest scanned after
    rmmod.  A kernel built with it where it did not work (disabled at boot
    when its pool runs out, say) fails the run rather than passing it
    unchecked."""
    if result["kmemleak"] == "on":
        report = read_text(run.file("kmemleak"), "")
        leaks = len(re.findall(r"^unreferenced object", report, re.M))
        msg("kmemleak: %d suspected leaks" % leaks)
        if report:
            return ["kmemleak: %d suspected memory leaks" % leaks]
    elif kernel.enabled("DEBUG_KMEMLEAK") and result["cmd"] != "-":
        return ["kmemleak: the kernel has it but the guest could not scan "
                "(%s)" % result["kmemleak"]]
    return []


def verdict(run, kernel, qemu_status, limit):
    """Print what the run came to and return the exit status: the
    command's; 1 if insmod or rmmod failed or the kernel log shows a
    problem; 124 on timeout; 125 if the guest died."""
    if qemu_status == EXIT_TIMEOUT:
        print_log(run)
        msg("timeout: the guest did not finish within %d s" % limit)
        return EXIT_TIMEOUT
    result = read_result(run)
    if result is None:
        print_log(run)
        if "Kernel panic" in read_text(run.file("console.log"), ""):
            msg("the guest kernel panicked")
        else:
            msg("the guest died before the command finished (qemu status "
                "%d)" % qemu_status)
        # A full disk is one way to lose the result: say how full it is.
        free = shutil.disk_usage(run.path).free
        msg("%d MiB free on the disk of the run directory" % (free >> 20))
        return EXIT_RUNNER

    dmesg = read_text(run.file("dmesg"), "")
    bad = [line for line in since_begin(dmesg) if BAD_LOG.search(line)]
    msg("kernel log: %d findings" % len(bad))
    if kernel.enabled("KCSAN"):
        msg("KCSAN: %d reports" % sum(1 for line in bad
                                       if KCSAN_REPORT.search(line)))
    bad += _kmemleak_findings(run, kernel, result)

    status = 0
    why = []
    skipped = None
    if _failed(result["insmod"]):
        why.append("insmod failed")
        status = 1
    if _failed(result["cmd"]):
        cmd = int(result["cmd"]) if result["cmd"].isdigit() else 1
        if cmd in SKIP_STATUSES:
            skipped = cmd
        else:
            why.append("command exited with status %d" % cmd)
            status = cmd
    if _failed(result["rmmod"]):
        why.append("rmmod failed")
        status = status or 1
    if bad:
        why.append("the kernel log shows problems")
        status = status or 1

    if why:
        if skipped is not None:
            why.insert(0, "command skipped (status %d)" % skipped)
        print_log(run)
        if bad:
            msg("kernel log problems:")
            _err("".join("    %s\n" % line for line in bad))
        msg("FAIL: " + "; ".join(why))
        return status
    if skipped is not None:
        msg("SKIP: command exited with status %d (%s)"
            % (skipped, SKIP_STATUSES[skipped]))
        return skipped
    return 0

