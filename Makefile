# SPDX-License-Identifier: GPL-2.0
#
# asc-event top-level build.
#
#   make          the module (for the default test kernel), libasc, tools, selftests
#   make run      set-up, build, the vadd demo in a QEMU guest and its timeline
#   make check    set-up, build checks, library tests and selftests in the guest
#   make check-all the same on every test kernel, plus the long tests
#
# KERNEL picks the test kernel the module is built for (see tools/asc-vm
# --help); on a real machine, `make module KERNEL_RELEASE=$(uname -r)`.
# All output goes to build/.

TOP := $(CURDIR)
BUILD := $(TOP)/build
KERNEL ?= 6.1
# The package version: libasc, the module, the install; written only here.
VERSION := 0.3.0
ifeq ($(origin KERNEL_RELEASE),undefined)
KERNEL_RELEASE = $(shell $(TOP)/tools/asc-vm --kernel $(KERNEL) --print-release)
KDIR ?= $(shell $(TOP)/tools/asc-vm --kernel $(KERNEL) --print-kdir)
else
KDIR ?= /lib/modules/$(KERNEL_RELEASE)/build
endif
MODULE_DIR = $(BUILD)/driver/$(KERNEL_RELEASE)

.PHONY: all deps deps-all module module-clean module-locked module-clean-locked lib tools selftests check check-all run clean

all: module lib tools selftests

deps:
	@$(TOP)/tools/asc-install-deps

deps-all:
	@$(TOP)/tools/asc-install-deps --all

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
	$(MAKE) -C lib TOP=$(TOP) BUILD=$(BUILD)/lib all pkgconfig-test

tools: lib
	$(MAKE) -C tools TOP=$(TOP) BUILD=$(BUILD)/tools

selftests:
	$(MAKE) -C selftests TOP=$(TOP) OUTPUT=$(BUILD)/selftests

check: deps
	@$(TOP)/tools/asc-check

check-all: deps-all
	@$(TOP)/tools/asc-check --all

# The demo, then the demo again under `ascctl trace` (8 tiles, so that the
# picture stays readable): its timeline lands in build/timeline/.
run: deps
	@$(MAKE) --no-print-directory all
	@rm -f $(BUILD)/timeline/vadd.json $(BUILD)/timeline/vadd.svg
	$(TOP)/tools/asc-vm --kernel $(KERNEL) --output $(BUILD)/timeline -- sh -c \
		'$(BUILD)/tools/asc-vadd && $(BUILD)/tools/ascctl trace \
		 -o "$$ASC_VM_SCRATCH/vadd" -- $(BUILD)/tools/asc-vadd -q -n 256k'
	@echo "timeline: $(BUILD)/timeline/vadd.json (open in https://ui.perfetto.dev)"
	@echo "timeline: $(BUILD)/timeline/vadd.svg (open in a web browser)"

clean:
	rm -rf $(BUILD)
