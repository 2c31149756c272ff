# SPDX-License-Identifier: GPL-2.0
"""Checks that print TAP: each a name and a body, ok when the body passes,
its output (the end of it) as comments when it does not.

A body is a command (an argument list) or a function of a Notes list,
which it fills with what it has to say, returning whether it passed.
"""

import subprocess

from . import tap


class Checks(tap.Writer):
    """A tap.Writer that runs checks in the directory TOP."""

    def __init__(self, top, out=None):
        super().__init__(out)
        self.top = top

    def command(self, argv, **kwargs):
        """Run ARGV; (passed, its output)."""
        proc = subprocess.run(argv, cwd=self.top, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", check=False, **kwargs)
        return proc.returncode == 0, proc.stdout

    def check(self, name, body, **kwargs):
        """One check: NAME ok when BODY passes; the end of what it said as
        comments when it does not.  Whether it passed."""
        if callable(body):
            notes = []
            passed = bool(body(notes))
            text = "\n".join(notes)
        else:
            passed, text = self.command(body, **kwargs)
        if passed:
            self.ok(name)
        else:
            lines = text.rstrip("\n").split("\n")[-40:] if text else []
            for line in lines:
                self._print(("# " + line).rstrip() if line else "# ")
            self.not_ok(name)
        return passed

    def guest(self, name, log, argv):
        """Run ARGV (a guest run printing TAP), its output in LOG; its
        results count as ours, the rest shows as comments, and a run that
        failed without a failure of its own fails once, as NAME."""
        with open(log, "w", encoding="utf-8") as f:
            status = subprocess.run(argv, cwd=self.top, stdout=f,
                                    stderr=subprocess.STDOUT,
                                    check=False).returncode
        report = tap.read_file(log)
        results = {r.index: r for r in report.results}
        for i, line in enumerate(report.lines):
            r = results.get(i)
            if r is None:
                self._print("# " + line)
            else:
                self.result(r.ok, r.text[2:] if r.text.startswith("- ")
                            else r.text)
        if status != 0 and report.failed == 0:
            self.not_ok("%s (exit status %d)" % (name, status))
