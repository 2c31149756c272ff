# SPDX-License-Identifier: GPL-2.0
"""The man pages' tests of asc-check-install: they build, each renders
without a groff warning (tools/scripts/asc-man-render), a warning fails
the render, every function of libasc has its page, and the generator
refuses a function without a doc comment.  The reference
build/doc/libasc.rst, made from asc.h, has a section per function, a
libasc.rst that declares a function itself fails its generator, and
README.md and Documentation/ name only functions that exist."""

import concurrent.futures
import glob
import os
import re
import shutil
import subprocess

RENDER = "tools/scripts/asc-man-render"
DECLARED = re.compile(r"^[a-z][a-z0-9_ ]*[ *](asc_[a-z0-9_]*)\(", re.M)


def declared(top):
    """The functions lib/asc.h declares, in its order."""
    with open(os.path.join(top, "lib", "asc.h"), encoding="utf-8") as f:
        return DECLARED.findall(f.read())


def exported(top):
    """The functions build/lib/libasc.so exports."""
    proc = subprocess.run(["nm", "-D", "--defined-only", "build/lib/libasc.so"],
                          cwd=top, stdout=subprocess.PIPE, text=True,
                          check=False)
    return [w[2] for w in (line.split() for line in proc.stdout.splitlines())
            if len(w) == 3 and w[1] == "T"]


def pages(top):
    """The built pages of sections 3, 4 and 8, as paths from TOP."""
    return sorted(os.path.relpath(p, top) for p in glob.glob(
        os.path.join(top, "build", "man", "man*", "*.[348]")))


def title(page):
    """NAME(SECTION) of the page file PAGE."""
    name, _, section = os.path.basename(page).rpartition(".")
    return "%s(%s)" % (name, section)


class ManTests:
    """The man page checks, printed through CHECKS into WORK."""

    def __init__(self, checks, work):
        self.c = checks
        self.top = checks.top
        self.render_dir = os.path.join(work, "render")
        self.work = work

    def render(self, page):
        """asc-man-render of one page; (passed, what went wrong)."""
        subprocess.run([RENDER, self.render_dir, page], cwd=self.top,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        base = os.path.join(self.render_dir, os.path.basename(page))
        return self.rendered(base)

    @staticmethod
    def rendered(base):
        """What asc-man-render left for the page BASE: (passed, text)."""
        try:
            with open(base + ".out", encoding="utf-8",
                      errors="replace") as f:
                text = f.read()
            with open(base + ".rc", encoding="utf-8") as f:
                return f.read().strip() == "0", text
        except OSError as e:
            return False, str(e)

    def a_warning_fails(self, notes):
        """A page of ours with an undefined macro and string fails."""
        bad = os.path.join(self.render_dir, "asc-bad-page.3")
        with open(os.path.join(self.top, "build", "man", "man3",
                               "asc_alloc_event_id.3"),
                  encoding="utf-8") as f:
            text = f.read()
        text = text.replace("\n.SH NAME\n", "\n.asc_no_such_macro\n"
                            "\\*[asc_no_such_string]\n.SH NAME\n", 1)
        if "asc_no_such_macro" not in text:
            notes.append("could not add the macro")
            return False
        with open(bad, "w", encoding="utf-8") as f:
            f.write(text)
        passed, out = self.render(bad)
        if passed:
            notes.append("a page with undefined macros rendered without a "
                         "warning")
            return False
        notes.append(out)
        return ("macro 'asc_no_such_macro' not defined" in out
                and "'asc_no_such_string' not defined" in out)

    def every_function_has_a_page(self, notes):
        """What libasc.so exports and asc.h declares, each with a page
        whose NAME line names it; no page of nothing."""
        funcs = sorted(set(exported(self.top)) | set(declared(self.top)))
        if not funcs:
            notes.append("no functions found")
            return False
        bad = False
        man3 = os.path.join(self.top, "build", "man", "man3")
        for f in funcs:
            p = os.path.join("build", "man", "man3", f + ".3")
            try:
                with open(os.path.join(self.top, p), encoding="utf-8") as fp:
                    lines = fp.read().splitlines()
            except OSError:
                notes.append("no page for " + f)
                bad = True
                continue
            if not any(re.fullmatch(re.escape(f) + r" \\- .*", x)
                       for x in lines):
                notes.append("%s: no NAME line for %s" % (p, f))
                bad = True
        found = sorted(glob.glob(os.path.join(man3, "*.3")))
        for p in found:
            f = os.path.basename(p)[:-2]
            if f != "libasc" and f not in funcs:
                notes.append("stray page " + os.path.relpath(p, self.top))
                bad = True
        notes.append("%d functions, %d pages in man3" % (len(funcs),
                                                         len(found)))
        return not bad

    def undocumented_fails(self, notes):
        """asc.h with one more function and no doc comment: the generator
        must refuse it, naming it."""
        with open(os.path.join(self.top, "lib", "asc.h"),
                  encoding="utf-8") as f:
            text = f.read()
        line = "const char *asc_version_string(void);\n"
        if line not in text:
            notes.append("could not add a function")
            return False
        header = os.path.join(self.work, "asc.h")
        with open(header, "w", encoding="utf-8") as f:
            f.write(text.replace(line, line + "int asc_undocumented(struct "
                                 "asc_pipe *pipe);\n"))
        passed, out = self.c.command(["tools/scripts/asc-man-libasc", header,
                                      os.path.join(self.work, "man3")])
        if passed:
            notes.append("asc-man-libasc accepted an undocumented function")
            return False
        notes.append(out)
        return "no doc comment for asc_undocumented" in out

    def every_function_in_the_reference(self, notes):
        """build/doc/libasc.rst, made from asc.h, has a section for every
        function asc.h declares."""
        ref = "build/doc/libasc.rst"
        try:
            with open(os.path.join(self.top, ref), encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError:
            notes.append("no " + ref)
            return False
        sections = {t for t, u in zip(lines, lines[1:])
                    if re.fullmatch(r"-+", u) and len(u) == len(t)}
        funcs = declared(self.top)
        missing = [f for f in funcs if f + "()" not in sections]
        notes.extend("no section %s() in %s" % (f, ref) for f in missing)
        notes.append("%d functions, each a section of %s" % (len(funcs), ref))
        return not missing

    def a_second_reference_fails(self, notes):
        """libasc.rst with a function of asc.h declared in it (a copy that
        would drift from asc.h): the reference generator must refuse it."""
        doc = os.path.join(self.work, "doc", "Documentation", "libasc.rst")
        lib = os.path.join(self.work, "doc", "lib")
        os.makedirs(os.path.dirname(doc), exist_ok=True)
        os.makedirs(lib, exist_ok=True)
        shutil.copy(os.path.join(self.top, "lib", "asc.h"), lib)
        with open(os.path.join(self.top, "Documentation", "libasc.rst"),
                  encoding="utf-8") as f:
            text = f.read()
        decl = "   int asc_set_flag(struct asc_pipe *pipe, int event, int id);"
        text = re.sub(r"(?m)^Functions$", ".. code-block:: c\n\n%s\n\n"
                      "Functions" % decl, text)
        if decl not in text.splitlines():
            notes.append("could not add a declaration")
            return False
        with open(doc, "w", encoding="utf-8") as f:
            f.write(text)
        passed, out = self.c.command(["tools/scripts/asc-man-libasc", "--rst",
                                      doc, os.path.join(lib, "asc.h"),
                                      os.path.join(self.work, "doc",
                                                   "out.rst")])
        if passed:
            notes.append("asc-man-libasc --rst accepted a page declaring "
                         "asc_set_flag()")
            return False
        notes.append(out)
        return "declares asc_set_flag()" in out

    def docs_name_what_exists(self, notes):
        """Every asc_*() README.md and Documentation/ name is a function
        asc.h declares or a function of driver/."""
        texts = []
        for p in ["README.md"] + sorted(glob.glob(os.path.join(
                self.top, "Documentation", "*.rst"))):
            with open(os.path.join(self.top, p), encoding="utf-8") as f:
                texts.append(f.read())
        named = sorted({m[:-2] for t in texts
                        for m in re.findall(r"\basc_[a-z0-9_]*\(\)", t)},
                       key=os.fsencode)
        driver = []
        for p in sorted(glob.glob(os.path.join(self.top, "driver", "*.[ch]"))):
            with open(p, encoding="utf-8") as f:
                driver.append(f.read())
        funcs = set(declared(self.top))
        bad = False
        for f in named:
            if f in funcs or any(re.search(r"(?m)^[a-z].*[ *]%s\(" % f, t)
                                 for t in driver):
                continue
            notes.append("named but not declared in lib/asc.h nor defined in "
                         "driver/: %s()" % f)
            bad = True
        notes.append("%d functions named" % len(named))
        return not bad

    def run(self):
        """Every man page check."""
        self.c.check("man pages build",
                     ["make", "--no-print-directory", "-s", "man"])
        found = pages(self.top)
        # Two processes of eight pages each at a time; the results in order.
        chunks = [found[i:i + 8] for i in range(0, len(found), 8)]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda chunk: subprocess.run(
                [RENDER, self.render_dir] + chunk, cwd=self.top,
                check=False), chunks))
        for page in found:
            base = os.path.join(self.render_dir, os.path.basename(page))
            self.c.check("man page %s renders with man -l and groff -ww, no "
                         "warning" % title(page),
                         lambda notes, base=base: self._noted(notes, base))
        self.c.check("a man page with a groff warning fails the render check",
                     self.a_warning_fails)
        self.c.check("every function of libasc.so and asc.h has its man page",
                     self.every_function_has_a_page)
        self.c.check("a function without a doc comment fails the man page "
                     "generator", self.undocumented_fails)
        self.c.check("libasc.rst's reference has a section for every function "
                     "of asc.h", self.every_function_in_the_reference)
        self.c.check("a second copy of a declaration in libasc.rst fails the "
                     "reference generator", self.a_second_reference_fails)
        self.c.check("README.md and Documentation/ name only functions that "
                     "exist", self.docs_name_what_exists)

    def _noted(self, notes, base):
        passed, text = self.rendered(base)
        notes.append(text)
        return passed
