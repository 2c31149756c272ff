# SPDX-License-Identifier: GPL-2.0
#
# asc-event top-level build.
#
#   make          the module (for the default test kernel), libasc, tools, selftests
#   make run      set-up, build, the vadd demo in a QEMU guest and its timeline
#   make check    set-up, build checks, library tests and selftests in the guest
#   make check-all the same on every test kernel, plus the long tests
#   make mutate   mutation testing: the selftests against small driver bugs
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

.PHONY: all deps deps-all module module-clean lib tools selftests check check-all mutate run clean

all: module lib tools selftests

deps:
	@$(TOP)/tools/asc-install-deps

deps-all:
	@$(TOP)/tools/asc-install-deps --all

# Kbuild builds an external module next to its sources; give it a directory
# of links per kernel release so that build/ holds every object.
module:
	@test -n "$(KERNEL_RELEASE)" || { echo "no kernel for KERNEL=$(KERNEL)" >&2; exit 1; }
	@mkdir -p $(MODULE_DIR)
	@rm -f $(MODULE_DIR)/*.[ch] $(MODULE_DIR)/Kbuild
	@ln -s $(TOP)/driver/*.[ch] $(TOP)/driver/Kbuild $(MODULE_DIR)/
	$(MAKE) -C $(KDIR) M=$(MODULE_DIR) ASC_TOP=$(TOP) modules

module-clean:
	@test ! -d $(MODULE_DIR) || $(MAKE) -C $(KDIR) M=$(MODULE_DIR) ASC_TOP=$(TOP) clean

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

# Each mutant of tools/mutants.txt, a small bug put into a copy of the
# driver, must make a selftest fail (Documentation/reliability.rst); not
# part of check or check-all.  MUTATE_ARGS passes options, such as
# MUTATE_ARGS="-k -j2" or a mutant's name.
mutate: deps
	@$(TOP)/tools/asc-mutate --kernel $(KERNEL) $(MUTATE_ARGS)

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
