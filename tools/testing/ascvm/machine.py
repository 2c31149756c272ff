# SPDX-License-Identifier: GPL-2.0
"""The QEMU machine for a kernel, the accelerator and the command line."""

import os
import re
import stat
import subprocess

from .util import RunnerError, read_text

# Modules the initramfs loads (with their dependencies) unless the kernel
# has them built in; the machine's virtio transport goes first.
GUEST_MODULES = ("9pnet_virtio", "9p", "virtio_console")

# Boot time under TCG: acpi=noirq spares the ACPI interrupt links, notests
# the crypto self-tests; ACPI itself stays for the second CPU and the HPET.
# no_timer_check: on a loaded host the boot's check that the timer
# interrupt arrives through the IO-APIC can miss its window, and the kernel
# then panics ("IO-APIC + timer doesn't work!"; seen with six guests and
# other work on two cores).
CMDLINE = ("console=ttyS0 loglevel=3 quiet panic=-1 log_buf_len=4M",
           "cryptomgr.notests mitigations=off 8250.nr_uarts=1 no_timer_check",
           "i8042.noaux i8042.nopnp i8042.dumbkbd")

FSOPTS = "security_model=none,multidevs=remap"


class Machine:
    """How QEMU runs a kernel: machine options, the suffix of its virtio
    device names, the transport module, extra kernel parameters, CPUs."""

    def __init__(self, args, virtio, transport, cmdline="", cpus=2):
        self.args = args
        self.virtio = virtio
        self.transport = transport
        self.cmdline = cmdline
        self.cpus = cpus

    @property
    def guest_modules(self):
        """The modules the initramfs loads, in order."""
        return (self.transport,) + GUEST_MODULES


def host_tsc_khz(cpuinfo=None, cpufreq="/sys/devices/system/cpu/cpufreq"):
    """The rate in kHz of the host's TSC, which TCG's vCPUs count at, or
    None: known when the TSC is constant and its rate known to the kernel
    (tsc_known_freq) and no cpufreq driver changes the "cpu MHz" that
    /proc/cpuinfo reports (a virtual machine's, as on CI), which is then
    the TSC's."""
    if cpuinfo is None:
        cpuinfo = read_text("/proc/cpuinfo", "")
    flags = re.search(r"^flags\s*:(.*)$", cpuinfo, re.M)
    mhz = re.search(r"^cpu MHz\s*:\s*([0-9]+(?:\.[0-9]+)?)$", cpuinfo, re.M)
    if not flags or not mhz or os.path.isdir(cpufreq) and os.listdir(cpufreq):
        return None
    if not {"constant_tsc", "tsc_known_freq"} <= set(flags.group(1).split()):
        return None
    return int(round(float(mhz.group(1)) * 1000)) or None


def machine_for(kernel):
    """A kernel with PCI gets the "pc" machine and virtio-pci devices (the
    Debian kernels); one without gets "microvm" with virtio-mmio devices
    that QEMU adds to the kernel command line, and its CPUs from an MP
    table (the debug and KCSAN kernels, spared ACPI and PCI)."""
    if kernel.enabled("PCI"):
        return Machine(["-machine", "pc"], "pci", "virtio_pci")
    if kernel.enabled("VIRTIO_MMIO_CMDLINE_DEVICES"):
        # microvm has no HPET and no ACPI PM timer, and the kernel
        # distrusts the TSC of an emulated CPU without constant_tsc: time
        # would come from jiffies, losing ticks under TCG.  The TSC that
        # QEMU gives every vCPU is the host's, one clock.  Nor has it a
        # keyboard controller or a PCI reset port to reboot with: a triple
        # fault resets it, and -no-reboot then ends QEMU.
        #
        # One CPU: on two, the trace ring buffer of this kernel under TCG
        # now and then stamps an event earlier than one another CPU
        # recorded before it, and the tests that check the order of trace
        # events across threads fail.  On one CPU the buffer keeps the
        # order the events happened in; threads still interleave
        # (CONFIG_PREEMPT).  A KCSAN kernel gets two: a data race is two
        # accesses at the same time, which takes two CPUs, and the tests
        # run there (stress, soak, copy stalls) do not look at the trace.
        #
        # And no reference to calibrate the TSC against but the PIT, which
        # a loaded host makes miss its window: the kernel then marks the
        # TSC unstable and keeps time in jiffies (trace events 4 ms
        # apart).  Where the host knows its TSC's rate, the guest is told.
        cmdline = "tsc=reliable reboot=t"
        khz = host_tsc_khz()
        if khz:
            cmdline += " tsc_early_khz=%d" % khz
        return Machine(["-machine",
                        "microvm,acpi=off,x-option-roms=off,rtc=on"],
                       "device", "virtio_mmio", cmdline=cmdline,
                       cpus=2 if kernel.enabled("KCSAN") else 1)
    raise RunnerError("kernel %s has neither PCI nor virtio-mmio command-line"
                      " devices" % kernel.name)


def kvm_usable(qemu):
    """KVM on hardware virtualisation (kvm_intel or kvm_amd).  Other KVM
    flavours (kvm_pvm in nested sandboxes) only boot specially built
    guests."""
    try:
        if not stat.S_ISCHR(os.stat("/dev/kvm").st_mode):
            return False
    except OSError:
        return False
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False
    if not any(os.path.isdir("/sys/module/" + m)
               for m in ("kvm_intel", "kvm_amd")):
        return False
    if not re.search(r"\b(vmx|svm)\b", read_text("/proc/cpuinfo", "")):
        return False
    probe = subprocess.run([qemu, "-machine", "none", "-accel", "kvm",
                            "-nodefaults", "-display", "none",
                            "-monitor", "stdio"], input=b"quit\n",
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
    return probe.returncode == 0


# Multi-threaded TCG (one host thread per vCPU) in QEMU before 8.1 could
# translate a page of guest code while another vCPU was writing it and keep
# the stale translation (fixed upstream by "accel/tcg: Always lock pages
# before translation").  A guest kernel that patches its text with int3
# (static keys: every tracepoint enabled or disabled) then runs an int3
# already patched away: 6.12 oopses ("Oops: int3", seen at sched_switch's
# key in __schedule and at our tracepoints), 6.1 loops for ever on it.  On
# such a QEMU, guests with more than one vCPU run them on one thread.
MTTCG_FIXED = (8, 1)


def qemu_version(qemu):
    """QEMU's version as a tuple of ints, (0,) when it does not say."""
    try:
        out = subprocess.run([qemu, "-version"], capture_output=True,
                             text=True, check=False).stdout
    except OSError:
        return (0,)
    found = re.search(r"version (\d+)\.(\d+)", out)
    return tuple(int(n) for n in found.groups()) if found else (0,)


def tcg_threads(accel, cpus, version):
    """ACCEL (accelerator()'s options) for a guest of CPUS vCPUs on a QEMU
    of VERSION: multi-threaded TCG only where it is safe."""
    if accel[:2] != ["-accel", "tcg"] or cpus < 2 or version >= MTTCG_FIXED:
        return accel
    return ["-accel", "tcg,thread=single"] + accel[2:]


def accelerator(mode, qemu):
    """QEMU's accelerator options and name for MODE (auto, kvm, tcg)."""
    if mode == "auto":
        mode = "kvm" if kvm_usable(qemu) else "tcg"
    elif mode == "kvm" and not kvm_usable(qemu):
        raise RunnerError("KVM is not usable here (/dev/kvm)")
    if mode == "kvm":
        return ["-accel", "kvm", "-cpu", "host"], "KVM"
    return ["-accel", "tcg", "-cpu", "max"], "TCG"


def kernel_cmdline(kernel, machine):
    """The kernel command line."""
    words = [CMDLINE[0]]
    if kernel.enabled("ACPI"):
        words.append("acpi=noirq")
    words += CMDLINE[1:]
    if machine.cmdline:
        words.append(machine.cmdline)
    return " ".join(words)


def qemu_args(kernel, machine, accel, boot, initrd, run):
    """QEMU's arguments: the machine, the kernel, the host root read-only
    and the run directory RUN read-write over virtio-9p, the console into
    RUN/console.log and the command's stdout and stderr on virtio-serial
    ports backed by the FIFOs RUN/stdout.{in,out} and RUN/stderr.{in,out}."""
    v = machine.virtio
    return ["-nodefaults", "-no-user-config", "-display", "none",
            "-no-reboot"] + machine.args + accel + [
        "-smp", str(machine.cpus), "-m", "1G",
        "-kernel", boot, "-initrd", initrd,
        "-append", kernel_cmdline(kernel, machine),
        "-serial", "file:%s/console.log" % run,
        "-fsdev", "local,id=root,path=/,readonly=on," + FSOPTS,
        "-device", "virtio-9p-%s,fsdev=root,mount_tag=hostroot" % v,
        "-fsdev", "local,id=run,path=%s,%s" % (run, FSOPTS),
        "-device", "virtio-9p-%s,fsdev=run,mount_tag=ascrun" % v,
        "-device", "virtio-serial-%s,id=vser" % v,
        "-chardev", "pipe,id=out,path=%s/stdout" % run,
        "-device", "virtserialport,bus=vser.0,chardev=out,name=asc.stdout",
        "-chardev", "pipe,id=err,path=%s/stderr" % run,
        "-device", "virtserialport,bus=vser.0,chardev=err,name=asc.stderr",
    ]
