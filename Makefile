# SPDX-License-Identifier: GPL-2.0
#
# asc-event top-level build.
#
#   make          the module (for the default test kernel), libasc, tools, selftests
#   make run      set-up, build, the vadd demo in a QEMU guest and its timeline
#   make check    set-up, build checks, library tests and selftests in the guest
#   make check-all the same on every test kernel, plus the long tests
#   make check-kcsan  the KCSAN lane: data-race tests on a KCSAN kernel
#   make mutate   mutation testing: the selftests against small driver bugs
#   make check-pyasc PYASC=DIR  pyasc's own kernel files, unmodified, in a guest
#   make bench    the benchmark in a QEMU guest (Documentation/performance.rst)
#   make install  the module for KERNEL_RELEASE, libasc, ascctl, the udev
#                 rule and group, man pages and examples (PREFIX, DESTDIR)
#   make install-dkms  the same, the module through DKMS for every kernel
#   make uninstall     removes what either installed
#
# KERNEL picks the test kernel the module is built for (see tools/testing/asc-vm
# --help); on a real machine, `make module KERNEL_RELEASE=$(uname -r)`.
# All output goes to build/.

TOP := $(CURDIR)
BUILD := $(TOP)/build
KERNEL ?= 6.1
# The package version: libasc, the module, the install; written only here.
VERSION := 0.3.0
ifeq ($(origin KERNEL_RELEASE),undefined)
# Asked of the runner once, when first needed (each answer costs a Python
# start): targets that need no kernel never ask.
KERNEL_RELEASE = $(eval KERNEL_RELEASE := $(shell $(TOP)/tools/testing/asc-vm --kernel $(KERNEL) \
	--print-release))$(KERNEL_RELEASE)
ifeq ($(origin KDIR),undefined)
KDIR = $(eval KDIR := $(shell $(TOP)/tools/testing/asc-vm --kernel $(KERNEL) --print-kdir))$(KDIR)
endif
else
KDIR ?= /lib/modules/$(KERNEL_RELEASE)/build
endif
MODULE_DIR = $(BUILD)/driver/$(KERNEL_RELEASE)

.PHONY: all deps deps-all module module-clean module-locked module-clean-locked lib tools selftests man
.PHONY: check check-all check-kcsan check-pyasc mutate bench run clean install install-dkms install-common uninstall

all: module lib tools selftests man

deps:
	@$(TOP)/tools/scripts/asc-install-deps

deps-all:
	@$(TOP)/tools/scripts/asc-install-deps --all

# Kbuild builds an external module next to its sources; give it a directory
# of links per kernel release so that build/ holds every object.  Builds for
# one kernel release take turns (flock on $(MODULE_DIR).lock): two at once
# would race on the links and on Kbuild's dependency files.
MODULE_LOCKED = flock $(MODULE_DIR).lock $(MAKE) --no-print-directory \
	KERNEL_RELEASE=$(KERNEL_RELEASE) KDIR=$(KDIR)

module:
	@test -n "$(KERNEL_RELEASE)" || { echo "no kernel for KERNEL=$(KERNEL)" >&2; exit 1; }
	@mkdir -p $(MODULE_DIR)
	+@$(MODULE_LOCKED) module-locked

module-clean:
	+@test ! -d $(MODULE_DIR) || $(MODULE_LOCKED) module-clean-locked

# Internal: run with the lock held.
module-locked:
	@rm -f $(MODULE_DIR)/*.[ch] $(MODULE_DIR)/Kbuild
	@ln -s $(TOP)/driver/*.[ch] $(TOP)/driver/Kbuild $(MODULE_DIR)/
	$(MAKE) -C $(KDIR) M=$(MODULE_DIR) ASC_TOP=$(TOP) modules

module-clean-locked:
	$(MAKE) -C $(KDIR) M=$(MODULE_DIR) ASC_TOP=$(TOP) clean

lib:
	$(MAKE) -C lib TOP=$(TOP) BUILD=$(BUILD)/lib all pkgconfig-test device-tests

tools: lib
	$(MAKE) -C tools TOP=$(TOP) BUILD=$(BUILD)/tools

selftests:
	$(MAKE) -C selftests TOP=$(TOP) OUTPUT=$(BUILD)/selftests

man:
	$(MAKE) -C Documentation TOP=$(TOP) BUILD=$(BUILD)/man

# Where `make install` puts things; the directories of Makefiles below take
# them from here.  With DESTDIR the files go under it and nothing else
# happens (no depmod, dkms, groupadd, ldconfig or udevadm), and uninstall
# also removes the directories it leaves empty there.  Without, install
# notes in STATEDIR the directories it had to create (and driver/ whether
# it created the group), so that uninstall removes those and no others.
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/asc-event
UDEVRULESDIR ?= /etc/udev/rules.d
# The Python package asc: where Debian's python3 looks, /usr/lib/python3/
# dist-packages for PREFIX=/usr, else PREFIX/lib/python3.X/dist-packages.
PYTHON3 ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYTHONDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages)
STATEDIR := /var/lib/asc-event
INSTALL_VARS = TOP=$(TOP) VERSION=$(VERSION) DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) \
	LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR) SBINDIR=$(SBINDIR) MANDIR=$(MANDIR) \
	DOCDIR=$(DOCDIR) UDEVRULESDIR=$(UDEVRULESDIR) STATEDIR=$(STATEDIR) \
	PYTHONDIR=$(PYTHONDIR)
INSTALL_DIRS = $(LIBDIR)/pkgconfig $(INCLUDEDIR) $(SBINDIR) $(MANDIR)/man3 $(PYTHONDIR) \
	$(MANDIR)/man4 $(MANDIR)/man8 $(DOCDIR)/examples/modprobe.d \
	$(DOCDIR)/examples/modules-load.d $(UDEVRULESDIR) /usr/src

install: module install-common
	$(MAKE) -C driver $(INSTALL_VARS) KERNEL_RELEASE=$(KERNEL_RELEASE) \
		KO=$(MODULE_DIR)/asc_event.ko install-module

install-dkms: install-common
	$(MAKE) -C driver $(INSTALL_VARS) install-dkms

install-common: lib tools man
	@test -n "$(DESTDIR)" || { set -e; mkdir -p $(STATEDIR); \
		for d in $(INSTALL_DIRS); do \
			while [ ! -d "$$d" ]; do echo "$$d"; d=$${d%/*}; done; \
		done | sort -u - $(wildcard $(STATEDIR)/created-dirs) > $(STATEDIR)/dirs.new; \
		mv $(STATEDIR)/dirs.new $(STATEDIR)/created-dirs; }
	$(MAKE) -C lib $(INSTALL_VARS) BUILD=$(BUILD)/lib install
	test -n "$(DESTDIR)" || ldconfig
	$(MAKE) -C tools $(INSTALL_VARS) BUILD=$(BUILD)/tools install
	$(MAKE) -C Documentation $(INSTALL_VARS) BUILD=$(BUILD)/man install
	$(MAKE) -C driver $(INSTALL_VARS) install-files

uninstall:
	$(MAKE) -C driver $(INSTALL_VARS) uninstall
	$(MAKE) -C Documentation $(INSTALL_VARS) BUILD=$(BUILD)/man uninstall
	$(MAKE) -C tools $(INSTALL_VARS) BUILD=$(BUILD)/tools uninstall
	$(MAKE) -C lib $(INSTALL_VARS) BUILD=$(BUILD)/lib uninstall
	test -n "$(DESTDIR)" || ldconfig
	@test -n "$(DESTDIR)" || test ! -f $(STATEDIR)/created-dirs || { \
		sort -r $(STATEDIR)/created-dirs | while read -r d; do \
			rmdir "$$d" 2>/dev/null && echo "rmdir $$d"; \
		done; rm -f $(STATEDIR)/created-dirs; rmdir $(STATEDIR); }
	@test -z "$(DESTDIR)" || for d in $(addprefix $(DESTDIR),$(INSTALL_DIRS)) \
		$(DESTDIR)/lib/modules/*; do \
		while [ "$$d" != "$(DESTDIR)" ] && [ "$$d" != "$(DESTDIR:%/=%)" ] && \
		      [ "$${d%/*}" != "$$d" ]; do \
			rmdir "$$d" 2>/dev/null; d=$${d%/*}; \
		done; \
	done

check: deps
	@$(TOP)/tools/testing/asc-check

check-all: deps-all
	@$(TOP)/tools/testing/asc-check --all

# Each mutant of tools/testing/mutants.txt, a small bug put into a copy of the
# driver, must make a selftest fail (Documentation/reliability.rst); not
# part of check or check-all.  MUTATE_ARGS passes options, such as
# MUTATE_ARGS="-k -j2" or a mutant's name.
mutate: deps
	@$(TOP)/tools/testing/asc-mutate --kernel $(KERNEL) $(MUTATE_ARGS)

# The KCSAN lane alone (Documentation/reliability.rst): the kcsan kernel is
# built first when it is not (some 11 minutes on two idle cores), then the
# data-race tests run on it.  Not part of check-all, whose CI time it would
# take past 45 minutes; ASC_CHECK_KCSAN=1 make check-all runs it there too.
check-kcsan: deps-all lib tools selftests
	@$(TOP)/tools/testing/asc-vm --kernel kcsan --timeout 900 -- $(TOP)/tools/testing/asc-check-kcsan-guest

# pyasc's own kernel files (tools/testing/pyasc-kernels.txt) from a pyasc
# checkout, unmodified, on the Python package in a guest
# (Documentation/python.rst); not part of check or check-all, which have
# no pyasc checkout.  deps-all: the tutorials need python3-torch.
# PYASC_ARGS=--all tries every file against the list.
check-pyasc: deps-all
	@test -n "$(PYASC)" || { echo "make check-pyasc PYASC=DIR: DIR is a pyasc checkout" >&2; exit 2; }
	@$(MAKE) --no-print-directory module lib
	@$(TOP)/tools/testing/asc-check-pyasc $(PYASC_ARGS) $(PYASC)

# The benchmark of Documentation/performance.rst in a guest, after the
# commit it measures; not part of check or check-all (which run it only
# with --quick, as a test that it runs).  BENCH_ARGS passes options, such
# as BENCH_ARGS=--quick or BENCH_ARGS="-r 9".
bench: deps
	@$(MAKE) --no-print-directory module lib
	@$(MAKE) --no-print-directory -C tools TOP=$(TOP) BUILD=$(BUILD)/tools \
		$(BUILD)/tools/asc-bench
	@echo "# commit $$(git -C $(TOP) rev-parse --short HEAD)$$(git -C $(TOP) diff --quiet HEAD || \
		echo ' with changes not committed')"
	$(TOP)/tools/testing/asc-vm --kernel $(KERNEL) -- $(BUILD)/tools/asc-bench $(BENCH_ARGS)

# The demo, then the demo again under `ascctl trace` (8 tiles, so that the
# picture stays readable): its timeline lands in build/timeline/.
run: deps
	@$(MAKE) --no-print-directory all
	@rm -f $(BUILD)/timeline/vadd.json $(BUILD)/timeline/vadd.svg
	$(TOP)/tools/testing/asc-vm --kernel $(KERNEL) --output $(BUILD)/timeline -- sh -c \
		'$(BUILD)/tools/asc-vadd && $(BUILD)/tools/ascctl trace \
		 -o "$$ASC_VM_SCRATCH/vadd" -- $(BUILD)/tools/asc-vadd -q -n 256k'
	@echo "timeline: $(BUILD)/timeline/vadd.json (open in https://ui.perfetto.dev)"
	@echo "timeline: $(BUILD)/timeline/vadd.svg (open in a web browser)"

clean:
	rm -rf $(BUILD)
