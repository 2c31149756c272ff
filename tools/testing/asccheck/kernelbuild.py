# SPDX-License-Identifier: GPL-2.0
"""tools/testing/kernels/asc-debug-kernel: build a kernel that
tools/testing/asc-vm boots (--kernel debug, --kernel kcsan), once.

The kernel comes from Debian's linux-source-6.1 tarball: `make
tinyconfig`, then tools/testing/kernels/guest-kernel.config and the
kernel's fragment merged over it (debug-kernel.config by default,
kcsan-kernel.config for the other).  Kconfig silently drops an option
whose dependencies are unmet, so after the merge every line of both
fragments is checked against the final .config.  A fragment's lines
"# make: VAR=VALUE" are passed to every make of the kernel build.

The build directory, build/kernel/<name>-<source version>-<sha>/, is a
full O= kernel build tree with the modules directory installed under its
mod/; <name> is the fragment's file name without -kernel.config, <sha>
that of guest-kernel.config and the fragment together.  The source is
unpacked once per source version into build/kernel/src-<version>/ and
must stay.  A second run finds the finished build and does nothing.  The
kernel release is <version>-asc-<name>-<first 8 hex digits of the sha>.
Documentation/reliability.rst says what each kernel is for.

Exit status: 0 when the kernel is built; 1 when the build or the check of
the configuration failed; 2 on a usage error.
"""

import fcntl
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

PROG = "asc-debug-kernel"
DEFAULT_SOURCE = "/usr/src/linux-source-6.1.tar.xz"
MAKEVAR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_./-]*$")
SET = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$")
UNSET = re.compile(r"^# (CONFIG_[A-Za-z0-9_]+) is not set$")
TOOLS = ("make", "gcc", "bc", "bison", "flex", "depmod", "xz", "tar",
         "flock", "sha256sum")
PRODUCTS = ("vmlinux", "arch/x86/boot/bzImage", "Module.symvers",
            "scripts/mod/modpost")

USAGE = """\
usage: tools/testing/kernels/asc-debug-kernel [OPTIONS]

Build a kernel for tools/testing/asc-vm (--kernel debug by default), unless it is
built already, and print its build directory.  The kernel is tinyconfig,
then tools/testing/kernels/guest-kernel.config, then FRAGMENT.

Options:
  --source TARBALL   kernel source tarball (default $ASC_DEBUG_KERNEL_SOURCE
                     or /usr/src/linux-source-6.1.tar.xz)
  --config FRAGMENT  config fragment (default tools/testing/kernels/debug-kernel.config;
                     tools/testing/kernels/kcsan-kernel.config for --kernel kcsan)
  -j N               parallel jobs (default: nproc = %d)
  --info             print what the build is or would be, as NAME=VALUE
                     lines (dir, release, built, source, package, version,
                     base, fragment, fragment_sha256: the sha256 of base and
                     fragment together), and build nothing
  --prune            delete the kernel builds and unpacked sources of other
                     source versions, and the builds of fragments other than
                     the current tools/*-kernel.config, and build nothing
  -h, --help         show this help
"""


def missing_prerequisite():
    """What a kernel build needs and this machine lacks, or None."""
    for t in TOOLS:
        if not shutil.which(t):
            return "%s not found" % t
    if not os.path.isfile("/usr/include/gelf.h"):
        return "no libelf headers (objtool needs them)"
    return None


class Failed(Exception):
    """The build cannot go on: exit 1 with the message."""


class Usage(Exception):
    """A usage error: exit 2 with the message and the usage."""


def msg(text):
    """Print "asc-debug-kernel: TEXT" on stderr."""
    sys.stderr.write("%s: %s\n" % (PROG, text))
    sys.stderr.flush()


def parse_args(argv, jobs):
    """{source, config, jobs, mode} from ARGV (None where not given)."""
    opts = {"source": None, "config": None, "jobs": str(jobs), "mode": "build"}
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            opts["mode"] = "help"
            return opts
        if a in ("--source", "--config", "-j"):
            if not args:
                raise Usage("%s needs an argument" % a)
            opts["jobs" if a == "-j" else a[2:]] = args.pop(0)
        elif a.startswith(("--source=", "--config=")):
            key, _, value = a[2:].partition("=")
            opts[key] = value
        elif a.startswith("-j"):
            opts["jobs"] = a[2:]
        elif a in ("--info", "--prune"):
            opts["mode"] = a[2:]
        else:
            raise Usage("unknown argument '%s'" % a)
    if not re.fullmatch(r"[1-9][0-9]*", opts["jobs"]):
        raise Usage("bad -j '%s'" % opts["jobs"])
    return opts


def read(path):
    """The text of PATH."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def make_vars(*fragments):
    """The VAR=VALUE of the fragments' "# make:" lines; Failed on a bad one."""
    found = []
    for text in fragments:
        for line in text.splitlines():
            if line.startswith("# make:"):
                v = line[len("# make:"):].strip()
                if not MAKEVAR.match(v):
                    raise Failed("bad '# make:' line in a fragment: '%s'" % v)
                found.append(v)
    return found


def unmet(config, *fragments):
    """The options of the FRAGMENTS (texts; a later one's line wins) that
    the .config text CONFIG does not have as asked, one line each."""
    have = {}
    for line in config.splitlines():
        m = SET.match(line)
        if m:
            have[m.group(1)] = m.group(2)
    want = {}
    for text in fragments:
        for line in text.splitlines():
            m = SET.match(line)
            if m:
                want[m.group(1)] = m.group(2)
                continue
            m = UNSET.match(line)
            if m:
                want[m.group(1)] = "n"
    out = []
    for k, v in want.items():
        if v == "n":
            if k in have and have[k] != "n":
                out.append("%s off (got %s)" % (k, have[k]))
        elif k not in have:
            out.append("%s=%s (not set)" % (k, v))
        elif have[k] != v:
            out.append("%s=%s (got %s)" % (k, v, have[k]))
    return out


def release_of(makefile, localversion):
    """The release a kernel Makefile's text builds, with LOCALVERSION."""
    def var(name, strip=True):
        m = re.search(r"^%s =%s(.*)$" % (name, " " if strip else "[ ]*"),
                      makefile, re.M)
        return m.group(1) if m else ""
    return "%s.%s.%s%s%s" % (var("VERSION"), var("PATCHLEVEL"),
                             var("SUBLEVEL"), var("EXTRAVERSION", False),
                             localversion)


def output(argv):
    """ARGV's standard output, or "" when it fails."""
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, check=False)
    return proc.stdout if proc.returncode == 0 else ""


def package_of(path):
    """(the Debian package that owns PATH, its version), "" for each that
    dpkg does not know."""
    owner = output(["dpkg-query", "-S", path]).split("\n")[0]
    package = owner.split(":", 1)[0] if ":" in owner else ""
    version = (output(["dpkg-query", "-W", "-f=${Version}", package])
               if package else "")
    return package, version


def sha256(*paths):
    """The sha256 of the files PATHS, one after another."""
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


class Build:
    """What the build of one kernel is: its identity and directories."""

    def __init__(self, top, source, fragment):
        self.top = top
        self.root = os.path.join(top, "build", "kernel")
        self.base = os.path.join(top, "tools", "testing", "kernels",
                                 "guest-kernel.config")
        for path, what in ((source, "kernel source %s; run "
                            "tools/scripts/asc-install-deps (linux-source-6.1)"),
                           (fragment, "config fragment %s"),
                           (self.base, "config fragment %s")):
            if not os.access(path, os.R_OK):
                raise Failed("no " + what % path)
        self.source = os.path.realpath(source)
        self.fragment = os.path.realpath(fragment)
        name = os.path.basename(self.fragment)
        name = name[:-len(".config")] if name.endswith(".config") else name
        self.name = name[:-len("-kernel")] if name.endswith("-kernel") else name
        if not re.fullmatch(r"[a-z0-9]+", self.name):
            raise Failed("cannot name a kernel after %s: want "
                         "NAME-kernel.config, NAME of a-z0-9"
                         % os.path.basename(self.fragment))
        self.makevars = make_vars(read(self.base), read(self.fragment))
        self.package, self.version = package_of(self.source)
        if not self.package or not self.version:
            self.package = "none"
            self.version = "sha256-" + sha256(self.source)[:12]
        self.key = re.sub(r"[^A-Za-z0-9.+_-]", "_", self.version)
        self.sha = self.fragments_sha(self.fragment)
        self.localversion = "-asc-%s-%s" % (self.name, self.sha[:8])
        self.srcdir = os.path.join(self.root, "src-" + self.key)
        self.dir = os.path.join(self.root, "%s-%s-%s" % (self.name, self.key,
                                                         self.sha[:12]))
        self.stamp = os.path.join(self.dir, "asc-debug-kernel.stamp")
        self.log = os.path.join(self.dir, "build.log")

    def fragments_sha(self, fragment):
        """The sha256 of guest-kernel.config and FRAGMENT together."""
        return sha256(self.base, fragment)

    def rel(self, path):
        """PATH from the top of the tree."""
        return os.path.relpath(path, self.top)

    def stamp_text(self):
        """What a finished build records."""
        return "source=%s\nversion=%s\nfragment_sha256=%s\n" % (
            self.source, self.version, self.sha)

    def built(self):
        """Whether the build is finished (its stamp says exactly this)."""
        try:
            stamp = read(self.stamp).strip()
        except OSError:
            return False
        return stamp == self.stamp_text().strip() and os.path.isfile(
            os.path.join(self.dir, "include/config/kernel.release"))

    def release(self):
        """The kernel release of the build, predicted from the source when
        it is not built yet."""
        if self.built():
            return read(os.path.join(
                self.dir, "include/config/kernel.release")).strip()
        if os.path.isfile(os.path.join(self.srcdir, ".unpacked")):
            makefile = read(os.path.join(self.srcdir, "Makefile"))
        else:
            first = output(["sh", "-c", 'tar -tf "$1" | head -n 1', "-",
                            self.source]).split("/")[0]
            proc = subprocess.run(["tar", "-xOf", self.source,
                                   "--occurrence=1", first + "/Makefile"],
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, check=False)
            if proc.returncode != 0:
                raise Failed("cannot read the Makefile of " + self.source)
            makefile = proc.stdout.decode("utf-8", "replace")
        return release_of(makefile, self.localversion)

    def info(self):
        """The NAME=VALUE lines of --info."""
        return ["dir=" + self.dir, "release=" + self.release(),
                "built=" + ("yes" if self.built() else "no"),
                "source=" + self.source, "package=" + self.package,
                "version=" + self.version, "base=" + self.base,
                "fragment=" + self.fragment, "fragment_sha256=" + self.sha]

    def prune(self):
        """Delete the builds and sources no current fragment names."""
        keep = {self.dir, self.srcdir}
        for f in glob.glob(os.path.join(self.top, "tools", "testing",
                                        "kernels", "*-kernel.config")):
            if f == self.base:
                continue
            n = os.path.basename(f)[:-len("-kernel.config")]
            keep.add(os.path.join(self.root, "%s-%s-%s" % (
                n, self.key, self.fragments_sha(f)[:12])))
        for d in sorted(glob.glob(os.path.join(self.root, "*-*"))):
            if os.path.isdir(d) and d not in keep:
                msg("removing " + d)
                shutil.rmtree(d)

    def kmake(self, *args):
        """make in the source tree into the build directory, its output in
        the log; Failed with the end of the log."""
        with open(self.log, "a", encoding="utf-8") as log:
            status = subprocess.run(["make", "-C", self.srcdir, "O=" + self.dir]
                                    + self.makevars + list(args), stdout=log,
                                    stderr=subprocess.STDOUT,
                                    check=False).returncode
        if status:
            msg("make %s failed; end of %s:" % (" ".join(args),
                                                self.rel(self.log)))
            sys.stderr.write("".join(x + "\n" for x in
                                     read(self.log).splitlines()[-40:]))
            raise Failed(None)

    def unpack(self):
        """Unpack the source, once per version, atomically."""
        if os.path.isfile(os.path.join(self.srcdir, ".unpacked")):
            return
        msg("unpacking %s into %s" % (self.source, self.rel(self.srcdir)))
        tmp = self.srcdir + ".tmp"
        for d in (self.srcdir, tmp):
            shutil.rmtree(d, ignore_errors=True)
        os.makedirs(tmp)
        if subprocess.run(["tar", "-xf", self.source, "-C", tmp,
                           "--strip-components=1"], check=False).returncode:
            raise Failed("cannot unpack " + self.source)
        if not (os.path.isfile(os.path.join(tmp, "Makefile")) and
                os.path.isfile(os.path.join(tmp, "scripts/kconfig/"
                                            "merge_config.sh"))):
            raise Failed("%s is not a kernel source tarball" % self.source)
        open(os.path.join(tmp, ".unpacked"), "w", encoding="utf-8").close()
        os.rename(tmp, self.srcdir)

    def configure(self):
        """tinyconfig, the fragments merged over it, and the check that
        Kconfig took every option."""
        msg("configuring: tinyconfig + %s + %s (sha256 %s)" % (
            self.rel(self.base), self.rel(self.fragment), self.sha[:12]))
        if self.makevars:
            msg("make variables: " + " ".join(self.makevars))
        config = os.path.join(self.dir, ".config")
        if os.path.exists(config):
            os.unlink(config)
        self.kmake("tinyconfig")
        parts = {"asc-guest.config": read(self.base),
                 "asc-%s.config" % self.name: read(self.fragment),
                 "asc-localversion.config":
                     'CONFIG_LOCALVERSION="%s"\n' % self.localversion}
        for name, text in parts.items():
            with open(os.path.join(self.dir, name), "w",
                      encoding="utf-8") as f:
                f.write(text)
        with open(self.log, "a", encoding="utf-8") as log:
            status = subprocess.run(
                [os.path.join(self.srcdir, "scripts/kconfig/merge_config.sh"),
                 "-m", "-O", self.dir, config]
                + [os.path.join(self.dir, n) for n in parts],
                cwd=self.dir, stdout=log, stderr=subprocess.STDOUT,
                check=False).returncode
        if status:
            raise Failed("merge_config.sh failed; see " + self.rel(self.log))
        self.kmake("olddefconfig")
        missing = unmet(read(config), read(self.base), read(self.fragment))
        if missing:
            msg("Kconfig did not take these options of %s and %s (unmet "
                "dependencies?):" % (self.rel(self.base),
                                     self.rel(self.fragment)))
            sys.stderr.write("".join("    %s\n" % m for m in missing))
            raise Failed(None)

    def build(self, jobs):
        """Build the kernel unless it is built; its build directory."""
        lack = missing_prerequisite()
        if lack:
            raise Failed(lack + "; run tools/scripts/asc-install-deps --all")
        os.makedirs(self.root, exist_ok=True)
        with open(os.path.join(self.root, ".lock"), "w",
                  encoding="utf-8") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                msg("waiting for another kernel build to finish")
                fcntl.flock(lock, fcntl.LOCK_EX)
            if not self.built():
                self._build(jobs)
        return self.dir

    def _build(self, jobs):
        start = time.monotonic()
        self.unpack()
        os.makedirs(self.dir, exist_ok=True)
        open(self.log, "w", encoding="utf-8").close()
        self.configure()
        want = self.release()
        msg("building %s with -j%s (log: %s)" % (want, jobs,
                                                 self.rel(self.log)))
        self.kmake("-j" + jobs, "all")
        shutil.rmtree(os.path.join(self.dir, "mod"), ignore_errors=True)
        self.kmake("INSTALL_MOD_PATH=" + os.path.join(self.dir, "mod"),
                   "modules_install")
        got = read(os.path.join(self.dir,
                                "include/config/kernel.release")).strip()
        if got != want:
            raise Failed("built release %s, expected %s" % (got, want))
        for f in PRODUCTS + ("mod/lib/modules/%s/modules.dep" % got,
                             "mod/lib/modules/%s/modules.builtin" % got):
            if not os.path.exists(os.path.join(self.dir, f)):
                raise Failed("the build did not produce " + f)
        with open(self.stamp + ".new", "w", encoding="utf-8") as f:
            f.write(self.stamp_text())
        os.replace(self.stamp + ".new", self.stamp)
        msg("built %s in %d s" % (got, time.monotonic() - start))


def main(argv, top):
    """asc-debug-kernel ARGV in the tree TOP; the exit status."""
    jobs = len(os.sched_getaffinity(0))
    try:
        opts = parse_args(argv, jobs)
        if opts["mode"] == "help":
            sys.stdout.write(USAGE % jobs)
            return 0
        build = Build(top, opts["source"] or os.environ.get(
            "ASC_DEBUG_KERNEL_SOURCE") or DEFAULT_SOURCE,
                      opts["config"] or os.path.join(
                          top, "tools", "testing", "kernels",
                          "debug-kernel.config"))
        if opts["mode"] == "info":
            print("\n".join(build.info()))
        elif opts["mode"] == "prune":
            build.prune()
        else:
            print(build.build(opts["jobs"]), flush=True)
        return 0
    except Usage as e:
        msg(str(e))
        sys.stderr.write(USAGE % jobs)
        return 2
    except Failed as e:
        if e.args and e.args[0]:
            msg(e.args[0])
        return 1
