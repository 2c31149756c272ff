# SPDX-License-Identifier: GPL-2.0
"""The command line of tools/testing/asc-vm and the order of a run's steps."""

import os
import re
import shutil
import sys
import traceback

from . import bootimage, guest, kernels, machine, modfinder, module, verdict
from .initramfs import initramfs
from .rundir import RunDir, guest_environment
from .util import (EXIT_RUNNER, EXIT_USAGE, TOP, RunnerError, UsageError,
                   msg)

USAGE = """\
usage: tools/testing/asc-vm [OPTIONS] -- COMMAND [ARGS...]
       tools/testing/asc-vm [--kernel VERSION] --print-release | --print-kdir
       tools/testing/asc-vm --list

Boot a kernel in QEMU, insmod the asc_event module built for it, run COMMAND
from the host filesystem (read-only, same working directory), rmmod the
module and check the kernel log.

Options:
  --kernel VERSION     kernel to boot (default 6.1); one of: %(kernels)s
  --module-args ARGS   module parameters for insmod, e.g. "event_ids=4"
  --no-module          do not build or load the module
  --module FILE        load FILE instead of building the module
  --output DIR         copy the files of $ASC_VM_SCRATCH to DIR after the run
  --timeout SECONDS    wall-clock limit for the guest (default 600)
  --cpus N             virtual CPUs of the guest, 1 to 64 (default
                       $ASC_VM_CPUS, else 2, 1 on debug: its trace order
                       needs one)
  --accel MODE         auto (KVM if usable, else TCG), kvm or tcg
                       (default $ASC_VM_ACCEL or auto)
  --print-release      print the release (uname -r) of the kernel and exit
  --print-kdir         print the kernel build directory that out-of-tree
                       modules build against, and exit
  --list               list the kernels and whether each is available
  -h, --help           show this help

Kernels: 6.1, 6.12 and 6.12-rt are Debian's packages (tools/scripts/asc-install-deps
--all installs them); debug (KASAN, lockdep, kmemleak, gcov...) and kcsan
(KCSAN, two CPUs) are built from linux-source-6.1 by tools/testing/kernels/asc-debug-kernel,
which a run with --kernel debug or kcsan calls first when the kernel is not
built yet.

In the guest COMMAND runs as root with HOME=/tmp, ASC_VM=1,
ASC_VM_SCRATCH (a writable directory, also visible on the host),
ASC_EVENT_KO and ASC_VM_MODULE_ARGS.  /tmp and /run are tmpfs.

On a kernel with kmemleak (debug) the guest scans for leaks after COMMAND
and rmmod; a suspected leak fails the run and its report is printed.  On a
kernel with gcov (debug) the module is built with gcov's counters and the
guest copies its coverage data (.gcda and .gcno files) into
$ASC_VM_SCRATCH/gcov/ after rmmod (tools/testing/asc-coverage reads them).

Runs at once are safe: each has its own run directory under build/vm/, and
the module build and the caches there (initramfs, vmlinux) are locked.

Exit status: COMMAND's; 1 if insmod or rmmod failed, the kernel log shows
BUG/WARNING/Oops/KASAN/KCSAN/... or kmemleak found a leak; 2 usage; 124 timeout;
125 runner or guest failure.  A COMMAND that exits 4 (kselftest's skip) or
77 (automake's) is reported as skipped and its status passed through.
ASC_VM_KEEP=1 keeps the run directory under build/vm/.
"""

# Options that take a value, and the attribute each sets.
VALUE_OPTIONS = {"--kernel": "kernel", "--module-args": "module_args",
                 "--module": "module", "--output": "output",
                 "--timeout": "timeout", "--accel": "accel",
                 "--cpus": "cpus"}
PRINT_OPTIONS = {"--print-release": "release", "--print-kdir": "kdir",
                 "--list": "list"}


def usage():
    """The usage text."""
    return USAGE % {"kernels": kernels.names()}


class Options:
    """The parsed command line."""

    def __init__(self, environ):
        self.kernel = "6.1"
        self.module_args = ""
        self.no_module = False
        self.module = ""
        self.output = ""
        self.timeout = "600"
        self.cpus = environ.get("ASC_VM_CPUS") or ""
        self.accel = environ.get("ASC_VM_ACCEL") or "auto"
        self.print = None
        self.help = False
        self.command = []


def parse(argv, environ):
    """Options from ARGV: options first, then COMMAND (after "--" or at the
    first word that is not an option)."""
    opts = Options(environ)
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if arg in ("-h", "--help"):
            opts.help = True
            return opts
        if name in VALUE_OPTIONS and eq:
            setattr(opts, VALUE_OPTIONS[name], value)
        elif arg in VALUE_OPTIONS:
            if i + 1 >= len(argv):
                raise UsageError("option %s needs an argument" % arg)
            i += 1
            setattr(opts, VALUE_OPTIONS[arg], argv[i])
        elif arg == "--no-module":
            opts.no_module = True
        elif arg in PRINT_OPTIONS:
            opts.print = PRINT_OPTIONS[arg]
        elif arg == "--":
            i += 1
            break
        elif arg.startswith("-"):
            raise UsageError("unknown option '%s'" % arg)
        else:
            break
        i += 1
    opts.command = argv[i:]
    return opts


def check(opts):
    """Usage errors a run cannot start with."""
    if not opts.command:
        raise UsageError("no command given")
    if not re.fullmatch(r"[1-9][0-9]*", opts.timeout):
        raise UsageError("bad --timeout '%s'" % opts.timeout)
    if opts.cpus and not (re.fullmatch(r"[1-9][0-9]?", opts.cpus) and
                          int(opts.cpus) <= 64):
        raise UsageError("bad --cpus '%s'" % opts.cpus)
    if opts.accel not in ("auto", "kvm", "tcg"):
        raise UsageError("bad --accel '%s'" % opts.accel)
    if opts.no_module and (opts.module or opts.module_args):
        raise UsageError("--no-module excludes --module and --module-args")


def resolve(name, build=False, release_only=False):
    """The kernel NAME; with RELEASE_ONLY also one that cannot be booted
    but whose release is known (a kernel not built yet): then the
    Unavailable, which has its release and build directory."""
    try:
        return kernels.lookup(name, build=build)
    except KeyError:
        raise UsageError("unknown kernel '%s' (known: %s)"
                         % (name, kernels.names())) from None
    except kernels.Unavailable as e:
        if release_only and e.release:
            return e
        raise RunnerError("kernel %s: %s" % (name, e)) from None


def print_info(opts):
    """--list, --print-release and --print-kdir."""
    if opts.command:
        what = "--list" if opts.print == "list" else "--print-" + opts.print
        raise UsageError("%s takes no command" % what)
    if opts.print == "list":
        print("\n".join(kernels.table_lines()))
        return 0
    kernel = resolve(opts.kernel, release_only=True)
    print(kernel.release if opts.print == "release" else kernel.build)
    return 0


def find_qemu():
    """QEMU, after a check for the host programs a run needs."""
    qemu = shutil.which("qemu-system-x86_64")
    if not qemu:
        raise RunnerError("qemu-system-x86_64 not found; run "
                          "tools/scripts/asc-install-deps")
    if not shutil.which("cpio"):
        raise RunnerError("cpio not found; run tools/scripts/asc-install-deps")
    return qemu


class Boot:
    """What a run boots: QEMU with its accelerator, the kernel on its
    machine, the image QEMU loads and the initramfs."""

    def __init__(self, qemu, accel, kernel, cpus=""):
        self.qemu = qemu
        self.accel = accel
        self.kernel = kernel
        self.machine = machine.machine_for(kernel)
        if cpus:
            self.machine.cpus = int(cpus)
        self.accel = machine.tcg_threads(accel, self.machine.cpus,
                                         machine.qemu_version(qemu))
        if self.accel != accel:
            msg("TCG on one thread for %d vCPUs (this QEMU's multi-threaded "
                "TCG can run guest code already patched away)"
                % self.machine.cpus)
        self.image = bootimage.boot_image(kernel)
        self.initrd = initramfs(kernel.release, modfinder.module_files(
            kernel, self.machine.guest_modules))

    def command(self, run):
        """QEMU's command line for the run directory RUN."""
        return [self.qemu] + machine.qemu_args(
            self.kernel, self.machine, self.accel, self.image, self.initrd,
            run)


def run(opts, environ):
    """Boot, run the command, judge: the exit status."""
    qemu = find_qemu()
    kernel = resolve(opts.kernel, build=True)
    accel, accel_name = machine.accelerator(opts.accel, qemu)
    msg("kernel %s: %s from %s; %s" % (opts.kernel, kernel.release,
                                       kernel.desc, accel_name))
    building = not opts.module and not opts.no_module
    msg("host: " + module.host_packages(kernel, building))

    ko = None
    if opts.module:
        ko = module.given_module(opts.module)
    elif building:
        ko = module.build_module(kernel)
    boot = Boot(qemu, accel, kernel, opts.cpus)

    rundir = RunDir()
    try:
        return run_in(rundir, opts, environ, boot, ko)
    finally:
        rundir.close(keep=environ.get("ASC_VM_KEEP") == "1")


def run_in(rundir, opts, environ, boot, ko):
    """The part of run() that has a run directory: prepare it for the
    guest, boot, copy the scratch files out, judge."""
    cwd = os.getcwd()
    rundir.write_binds([cwd, TOP, os.path.dirname(ko) if ko else ""])
    rundir.write_config(ko, module.module_name(ko) if ko else "",
                        opts.module_args)
    env = guest_environment(environ, rundir.scratch, ko, opts.module_args)
    rundir.write_command(env, cwd, opts.command)
    rundir.make_fifos(("stdout", "stderr"))

    forwarder = guest.Forwarder([(rundir.file("stdout.out"), 1),
                                 (rundir.file("stderr.out"), 2)])
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        status = guest.run_qemu(boot.command(rundir.path),
                                rundir.file("qemu.log"), forwarder,
                                int(opts.timeout))
    finally:
        forwarder.close()

    if opts.output:
        try:
            rundir.copy_scratch(opts.output)
        except OSError as e:
            raise RunnerError("cannot copy the scratch directory to %s (%s)"
                              % (opts.output, e)) from None
    return verdict.verdict(rundir, boot.kernel, status, int(opts.timeout))


def main(argv, environ=None):
    """tools/testing/asc-vm ARGV: the exit status."""
    environ = os.environ if environ is None else environ
    guest.catch_signals()
    try:
        opts = parse(argv, environ)
        if opts.help:
            sys.stdout.write(usage())
            return 0
        if opts.print:
            return print_info(opts)
        check(opts)
        return run(opts, environ)
    except UsageError as e:
        msg(str(e))
        sys.stderr.write(usage())
        return EXIT_USAGE
    except RunnerError as e:
        msg(str(e))
        return EXIT_RUNNER
    except guest.Interrupted as e:
        return e.status
    except Exception:  # pylint: disable=broad-except
        # A bug of the runner is a runner failure, not the command's.
        traceback.print_exc()
        msg("internal error")
        return EXIT_RUNNER
