# SPDX-License-Identifier: GPL-2.0
"""The mutants file of `make mutate` (tools/testing/mutants.txt, whose
header describes its format): each mutant read, and checked against the
driver, the selftest programs and the documentation.
"""

import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))
DRIVER = os.path.join(TOP, "driver")
DOCS = os.path.join(TOP, "Documentation")


class DataError(Exception):
    """The mutants file is malformed or does not match the driver."""


class Mutant:
    """One mutant: where it applies, what it breaks, what should catch it."""

    def __init__(self, name, where):
        self.name = name
        self.where = where          # "mutants.txt:LINE", for messages
        self.file = None            # under driver/
        self.breaks = None
        self.doc = None             # (file, section title)
        self.tests = []             # selftest programs, 64-bit
        self.tests32 = []           # the same built with -m32
        self.old = []               # lines of the original snippet
        self.new = []               # lines of its replacement

    def apply(self, text):
        """The text of self.file with the mutant applied."""
        old = "\n" + "\n".join(self.old) + "\n"
        new = "\n" + "\n".join(self.new) + "\n" if self.new else "\n"
        pos = ("\n" + text).find(old)
        return text[:pos] + new[1:] + text[pos + len(old) - 1:]

    def describe(self):
        return "%s (%s: %s)" % (self.breaks, self.doc[0], self.doc[1])


def parse_mutants(path):
    """The mutants of @path, in order; raises DataError."""
    mutants, m = [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        where = "%s:%d" % (os.path.basename(path), no)
        if line[:1] in ("-", "+", "="):
            if m is None:
                raise DataError("%s: snippet line outside a mutant" % where)
            body = line[1:]
            if line[0] in "-=":
                m.old.append(body)
            if line[0] in "+=":
                m.new.append(body)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        value = value.strip()
        if not sep or not value:
            raise DataError("%s: expected 'key: value', got %r" % (where, line))
        if key == "mutant":
            m = Mutant(value, where)
            mutants.append(m)
        elif m is None:
            raise DataError("%s: '%s' before the first 'mutant:'" % (where, key))
        elif key == "file":
            m.file = value
        elif key == "breaks":
            m.breaks = value
        elif key == "doc":
            doc, _, section = value.partition(" ")
            m.doc = (doc, section.strip())
        elif key == "tests":
            m.tests = value.split()
        elif key == "tests-m32":
            m.tests32 = value.split()
        else:
            raise DataError("%s: unknown key '%s'" % (where, key))
    return mutants


def doc_sections(doc):
    """The section titles of Documentation/@doc (reStructuredText)."""
    with open(os.path.join(DOCS, doc), encoding="utf-8") as f:
        lines = f.read().split("\n")
    titles = set()
    for title, under in zip(lines, lines[1:]):
        if title.strip() and re.fullmatch(r"([=\-~^])\1{2,}", under) and \
                len(under) >= len(title.strip()):
            titles.add(title.strip())
    return titles


def check_mutants(mutants, programs):
    """Check every mutant against the driver and the docs; DataError if not."""
    names, errors = set(), []
    for m in mutants:
        def bad(msg, m=m):
            errors.append("%s: mutant %s: %s" % (m.where, m.name, msg))
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", m.name):
            bad("name must be lower-case letters, digits and dashes")
        if m.name in names:
            bad("name used twice")
        names.add(m.name)
        for what in ("file", "breaks", "doc"):
            if not getattr(m, what):
                bad("no '%s:'" % what)
        if not m.tests and not m.tests32:
            bad("no 'tests:'")
        for p in m.tests + m.tests32:
            if p not in programs and "asc_event_" + p not in programs:
                bad("no selftest program '%s'" % p)
        if m.doc:
            try:
                if m.doc[1] not in doc_sections(m.doc[0]):
                    bad("no section '%s' in Documentation/%s" % (m.doc[1], m.doc[0]))
            except OSError as e:
                bad("doc: %s" % e)
        if not m.old:
            bad("no original snippet ('-' or '=' lines)")
            continue
        if m.old == m.new:
            bad("the replacement is the original")
        if not m.file:
            continue
        try:
            with open(os.path.join(DRIVER, m.file), encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            bad(str(e))
            continue
        n = ("\n" + text).count("\n" + "\n".join(m.old) + "\n")
        if n != 1:
            bad("the original snippet occurs %d times in driver/%s (must be once)"
                % (n, m.file))
    if errors:
        raise DataError("\n".join(errors))
