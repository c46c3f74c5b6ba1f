# mmckit: build, test and lab entry points. Everything built lands in build/.
CXX      ?= g++
# -g1: line tables and function names, for backtraces; the locals' debug
# information (-g) nearly doubled the library's and tools' compile time
# (build/unity/report.cpp: 60 s of CPU with -g, 32 s with -g1). For a
# debugging session: make CXXFLAGS="-O2 -g" (or -O0 -g).
CXXFLAGS ?= -O2 -g1
# Hardened as Debian builds its packages (dpkg-buildflags, hardening=+all):
# the binaries make check tests are the ones make deb packages.
HARDENING := -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Wformat -Werror=format-security
LDFLAGS  += -Wl,-z,relro -Wl,-z,now
CXXFLAGS += $(HARDENING) -std=c++20 -Wall -Wextra -Wpedantic -Ilibmmc -MMD -MP -I/usr/include/postgresql
# The results database (libmmc/report/store): SQLite, PostgreSQL's libpq,
# and OpenSSL's libcrypto for the bundles' content hashes.
LDLIBS   := -lfmt -lmnl -ludev -lblkid -luring -lsqlite3 -lpq -lcrypto
BUILD    := build
# Plain `make` builds what `make all` builds (every tool, the plugin, the
# unit tests' and the lab's binaries), as the README promises. Without this
# line make's default goal is the first target it reads, and the rules that
# $(eval ...) generates below (a directory's build/unity/DIR.cpp) come before
# `all:`, so plain make wrote one generated file and built no tool.
.DEFAULT_GOAL := all

LIB_SRC  := $(shell find libmmc -name '*.cpp' | sort)

# libmmc compiles one directory at a time, in every tree: a generated file
# per directory (build/unity/DIR.cpp) includes its sources, so the templates
# they share (fmt, nlohmann-json) are instantiated and optimised once per
# directory instead of once per file. From scratch on two idle cores, the
# native library took 122 s, against 249 s one object per file; the arm64
# cross tree took 262 s against 945-982 s (that at a higher load). Each
# directory compiles as one unit (scripts/unity-check). PER_FILE=1 compiles
# the native library one object per file instead, for quick rebuilds while
# editing a file. sql_postgres.cpp stays apart: the cross trees leave it out.
UNITY_LIB_SRC := $(filter-out %/sql_postgres.cpp,$(LIB_SRC))
UNITY_DIRS    := $(sort $(patsubst libmmc/%/,%,$(dir $(UNITY_LIB_SRC))))
unity_file     = $(BUILD)/unity/$(subst /,_,$(1)).cpp
unity_members  = $(foreach f,$(UNITY_LIB_SRC),$(if $(filter libmmc/$(1)/,$(dir $(f))),$(f:libmmc/%=%)))
UNITY_SRC     := $(foreach d,$(UNITY_DIRS),$(call unity_file,$(d)))

# Stamps: a file whose content is what its dependents were made from (a
# directory's list of sources, the compiler and its flags). Its rule runs on
# every build but writes the file only when the content changed, so make
# rebuilds exactly what depends on a change, and nothing is written while
# the Makefile is only read (make -n, make clean).
# $(call stamp,FILE,CONTENT): the recipe of such a rule.
stamp = @mkdir -p $(dir $(1)) && { printf '%s\n' $(2) | cmp -s - $(1) || printf '%s\n' $(2) >$(1); }
.PHONY: FORCE
HASH := \#
unity_lines = $(foreach m,$(call unity_members,$(1)),'$(HASH)include "$(m)"')
$(foreach d,$(UNITY_DIRS),$(eval $(call unity_file,$(d)): FORCE ; $$(call stamp,$$@,$$(call unity_lines,$(d)))))

# Text the library compiles in: the HTML report's style sheet is edited as
# CSS (libmmc/report/report.css) and becomes a header of one raw string in
# build/gen (scripts/embed-text), never in the source tree. Only the report
# module's objects look there, so the flags of every other object stay as
# they were ("private": the flags stamp, a prerequisite, keeps the global ones).
GEN      := $(BUILD)/gen
EMBEDDED := $(GEN)/report/report.css.h
$(GEN)/report/report.css.h: libmmc/report/report.css scripts/embed-text
	@mkdir -p $(dir $@)
	scripts/embed-text embedded_report_css $< >$@.tmp && mv $@.tmp $@
GEN_USERS := $(BUILD)/obj/unity/report.o $(BUILD)/obj/libmmc/report/html.o
$(GEN_USERS): private CPPFLAGS += -I$(GEN)
$(GEN_USERS): $(EMBEDDED)

ifdef PER_FILE
LIB_OBJ  := $(LIB_SRC:%.cpp=$(BUILD)/obj/%.o)
else
LIB_OBJ  := $(UNITY_SRC:$(BUILD)/unity/%.cpp=$(BUILD)/obj/unity/%.o) $(BUILD)/obj/libmmc/report/sql_postgres.o
endif
# Which of the two the library was archived from: a switch must archive it
# again, even from objects older than it.
LIB_LAYOUT := $(BUILD)/lib-layout
$(LIB_LAYOUT): FORCE ; $(call stamp,$@,'$(if $(PER_FILE),per-file,per-directory)')
LIB      := $(BUILD)/libmmc.a
TOOL_SRC := $(wildcard tools/*.cpp)
TOOLS    := $(TOOL_SRC:tools/%.cpp=$(BUILD)/bin/%)
# A tool may keep parts of its front end beside it, in a directory of its
# name (tools/mmc-probe/geometry.cpp: a subcommand's options and views);
# they are linked into that tool alone. $(call tool_parts,TOOL): its sources.
tool_parts = $(wildcard tools/$(1)/*.cpp)
TOOL_PART_SRC := $(foreach t,$(TOOL_SRC:tools/%.cpp=%),$(call tool_parts,$(t)))
# The tools' link rules name a tool's parts by its stem ($$* below).
.SECONDEXPANSION:
TEST_SRC := $(wildcard tests/unit/*.cpp)
# The test files compile twelve to a chunk (scripts/unit-chunk says why and
# how): from scratch, about a third of the CPU of one object per file, which
# was the largest part of the native build. PER_FILE=1 compiles them one by
# one, as it does the library. Files that are not tests (corpus.cpp, ...)
# compile alone either way.
TEST_FILES := $(sort $(wildcard tests/unit/*_test.cpp))
TEST_HELPERS := $(filter-out $(TEST_FILES),$(TEST_SRC))
TEST_CHUNK := 12
TEST_CHUNK_STARTS := $(shell seq 1 $(TEST_CHUNK) $(words $(TEST_FILES)))
test_chunk_members = $(wordlist $(1),$(shell expr $(1) + $(TEST_CHUNK) - 1),$(TEST_FILES))
test_chunk_file = $(BUILD)/unit-chunks/chunk$(1).cpp
$(foreach i,$(TEST_CHUNK_STARTS),$(eval $(call test_chunk_file,$(i)): FORCE ; @scripts/unit-chunk $$@ $(call test_chunk_members,$(i))))
ifdef PER_FILE
TEST_OBJ := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)
else
TEST_CHUNK_OBJ := $(foreach i,$(TEST_CHUNK_STARTS),$(BUILD)/obj/unit-chunks/chunk$(i).o)
TEST_OBJ := $(TEST_CHUNK_OBJ) $(TEST_HELPERS:%.cpp=$(BUILD)/obj/%.o)
# The wrappers' test classes derive from fixtures in the files' anonymous
# namespaces: GCC warns of that only in an included file, as here.
$(TEST_CHUNK_OBJ): CPPFLAGS += -iquote . -Itests/unit -Wno-subobject-linkage
endif
# The unit tests' own files compile at -Og without debug information: they
# are most of the native build's time (GoogleTest's macros expand to much
# code), and optimising test code buys nothing; the library they test is
# compiled as shipped. -Og rather than -O0 keeps _FORTIFY_SOURCE's checks
# (they need an optimising level) at about -O0's cost: the twelve chunks took
# 210 s of CPU at -O1, and the tests ran as fast (36 s) built either way.
# TEST_OPT="-O0 -g" to step through a test.
TEST_OPT ?= -Og
$(TEST_OBJ): CXXFLAGS := $(TEST_OPT) $(filter-out -O% -g%,$(CXXFLAGS))
UNIT     := $(BUILD)/tests/unit_tests
# Lab-only tools (tests/lab/tools): copied into the SD lab's guest beside the
# tools, never installed; e.g. mmc-lock, which password-locks the lab's card.
LAB_TOOL_SRC := $(wildcard tests/lab/tools/*.cpp)
LAB_TOOLS    := $(LAB_TOOL_SRC:tests/lab/tools/%.cpp=$(BUILD)/tests/lab-bin/%)
# The nbdkit plugin over the flash model: a shared object, so it and the few
# libmmc sources it needs are compiled again with -fPIC, apart from libmmc.a.
PLUGIN     := $(BUILD)/lib/nbdkit-mmcsim-plugin.so
PLUGIN_SRC := tools/nbdkit-mmcsim-plugin/nbdkit-mmcsim-plugin.cpp $(wildcard libmmc/sim/*.cpp) libmmc/cli/size.cpp libmmc/cli/input.cpp libmmc/simserve/card_file.cpp
ifdef PER_FILE
PLUGIN_OBJ := $(PLUGIN_SRC:%.cpp=$(BUILD)/pic/%.o)
else
# The flash model compiles as one unit here too (the library's build/unity/
# sim.cpp, again with -fPIC): 10 s of CPU against 36 s one object per file.
PLUGIN_OBJ := $(filter-out $(BUILD)/pic/libmmc/sim/%,$(PLUGIN_SRC:%.cpp=$(BUILD)/pic/%.o)) $(BUILD)/pic/unity/sim.o
endif

.PHONY: all check check-boards check-all unit deps fuzz clean
all: $(TOOLS) $(UNIT) $(PLUGIN) $(LAB_TOOLS)

# The flags the objects were compiled with: a change of compiler or flags
# recompiles everything, as make cannot see it in the files' times.
FLAGS_FILE := $(BUILD)/flags
FLAGS_NOW  := $(CXX) $(CPPFLAGS) $(CXXFLAGS) $(LDFLAGS)
$(FLAGS_FILE): FORCE ; $(call stamp,$@,'$(FLAGS_NOW)')
# The tests' level of optimisation likewise, for their objects only.
TEST_FLAGS_FILE := $(BUILD)/test-flags
$(TEST_FLAGS_FILE): FORCE ; $(call stamp,$@,'$(TEST_OPT)')
$(TEST_OBJ): $(TEST_FLAGS_FILE)

$(BUILD)/obj/%.o: %.cpp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/unit-chunks/%.o: $(BUILD)/unit-chunks/%.cpp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/unity/%.o: $(BUILD)/unity/%.cpp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ) $(LIB_LAYOUT)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $$(addprefix $(BUILD)/obj/,$$(subst .cpp,.o,$$(call tool_parts,$$*))) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS)
# A tool's objects are intermediates of the rule above: without this, a build
# from scratch deletes them, and the next make (e.g. make install) compiles them again.
.SECONDARY: $(TOOL_SRC:tools/%.cpp=$(BUILD)/obj/tools/%.o) $(TOOL_PART_SRC:%.cpp=$(BUILD)/obj/%.o)

$(BUILD)/pic/%.o: %.cpp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -fPIC -c $< -o $@

$(BUILD)/pic/unity/%.o: $(BUILD)/unity/%.cpp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -fPIC -c $< -o $@

$(PLUGIN): $(PLUGIN_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) -shared $(LDFLAGS) $^ -o $@ -lfmt

$(BUILD)/tests/lab-bin/%: $(BUILD)/obj/tests/lab/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS)
.SECONDARY: $(LAB_TOOL_SRC:%.cpp=$(BUILD)/obj/%.o)

$(UNIT): $(TEST_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS) -lgtest -lgtest_main -pthread

# make check: the unit tests, then the tool-level tests beside the SD and USB
# lab tests; one summary line at the end. make check-boards: the suites for
# the ARM boards (the eMMC and Pi labs, the armhf and arm64 packages), which
# build the cross trees they need (scripts/make-locked keeps two of them from
# building one tree at once). make check-all: both, in one run (the README's
# test command; its section on make check gives the times). CHECK_SUITES
# names other suites instead (the runner's own test uses it).
# Parallel by default, since a plain "make check" should not compile one file
# at a time; a -j given on the command line wins.
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))
# The tools come first; the unit tests compile in a lane of the run
# (CHECK_BUILD_UNIT), beside suites that mostly wait on a simulated card.
CHECK_FIRST := $(TOOLS) $(PLUGIN) $(LAB_TOOLS)
check:
	@$(MAKE) --no-print-directory $(JOBS) $(CHECK_FIRST)
	@CHECK_BUILD_UNIT=1 tests/run-all $(CHECK_SUITES)
check-boards:
	@$(MAKE) --no-print-directory $(JOBS) $(CHECK_FIRST)
	@tests/run-all --boards
check-all:
	@$(MAKE) --no-print-directory $(JOBS) $(CHECK_FIRST)
	@CHECK_BUILD_UNIT=1 tests/run-all --all

unit: $(UNIT)
	$(UNIT)

# Installs every Debian package the build, the tests and the lab need.
deps:
	scripts/install-deps

# Coverage-guided fuzzing (clang libFuzzer): the decoders and hex parser, the
# ios parser, the bundle reader and report views, the health file, mmc-sim's
# card files, udev's database, the device-tree, kernel-log and flashbench
# readers (scripts/fuzz lists them); FUZZ_SECONDS per harness.
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)

# Installation, like util-linux: every tool with its man page and completion
# files; mmc-sim's nbdkit plugin and presets where they exist. An installed
# tool finds those relative to its own directory (BINDIR/../lib/mmckit,
# BINDIR/../share/mmckit/sim/presets): keep BINDIR, LIBDIR and DATADIR under
# one PREFIX. The Debian package passes PREFIX=/usr and zsh's vendor directory.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
INSTALL     ?= install
TOOL_NAMES  := $(TOOL_SRC:tools/%.cpp=%)
MAN_PAGES   := $(wildcard man/*.[1-8])
BASH_COMPLETIONS := $(wildcard bash-completion/*)
ZSH_COMPLETIONS  := $(wildcard zsh/_*)

# $(call install_files,DIR): the tools built in DIR/bin, the plugins built in
# DIR/lib, and the architecture-independent files. Plugins and presets are
# looked for when the recipe runs, after the build.
define install_files
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 $(TOOL_NAMES:%=$(1)/bin/%) $(DESTDIR)$(BINDIR)/
	for page in $(MAN_PAGES); do \
	    $(INSTALL) -D -m 644 $$page $(DESTDIR)$(MANDIR)/man$${page##*.}/$${page##*/} || exit 1; done
	$(INSTALL) -m 644 $(BASH_COMPLETIONS) $(DESTDIR)$(BASHCOMPDIR)/
	$(INSTALL) -m 644 $(ZSH_COMPLETIONS) $(DESTDIR)$(ZSHCOMPDIR)/
	for so in $(1)/lib/nbdkit-*-plugin.so; do [ ! -e $$so ] || \
	    $(INSTALL) -D -m 644 $$so $(DESTDIR)$(LIBDIR)/mmckit/$${so##*/} || exit 1; done
	[ ! -d sim/presets ] || find sim/presets -type f | while read -r f; do \
	    $(INSTALL) -D -m 644 $$f $(DESTDIR)$(DATADIR)/mmckit/$$f || exit 1; done
endef

.PHONY: install uninstall
# What install copies, not all: under make check the unit tests are being
# compiled in a lane of their own, and a second make building them too
# (tests/cli/install.sh) raced it for the same objects.
install: $(TOOLS) $(PLUGIN)
	$(call install_files,$(BUILD))

uninstall:
	rm -f $(TOOL_NAMES:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(foreach p,$(MAN_PAGES),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))
	rm -f $(BASH_COMPLETIONS:bash-completion/%=$(DESTDIR)$(BASHCOMPDIR)/%)
	rm -f $(ZSH_COMPLETIONS:zsh/%=$(DESTDIR)$(ZSHCOMPDIR)/%)
	rm -rf $(DESTDIR)$(LIBDIR)/mmckit $(DESTDIR)$(DATADIR)/mmckit

# Debian packages, built by dpkg-buildpackage from debian/ in a copy of the
# tree under build/deb (scripts/build-deb), where the .debs land:
# build/deb/mmckit_VERSION_ARCH.deb. The package build shares this tree's
# build/ (and build/ARCH for the cross builds): what make check tested is
# what is packaged, and nothing is compiled twice.
# make deb builds this machine's architecture; deb-armhf and deb-arm64 the
# cross builds (see below).
.PHONY: deb
deb:
	scripts/build-deb

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(PLUGIN_OBJ:.o=.d) $(TOOL_SRC:tools/%.cpp=$(BUILD)/obj/tools/%.d) \
         $(TOOL_PART_SRC:%.cpp=$(BUILD)/obj/%.d) $(LAB_TOOL_SRC:%.cpp=$(BUILD)/obj/%.d)

# The emulated-card lab: a shell on an emulated SD card with the tools on PATH.
.PHONY: lab
lab: all
	scripts/sdlab --shell

# The main job on a machine with no card: the emulated card, identified.
# (On a machine with a card: build/bin/mmc-info /dev/mmcblk0.)
.PHONY: demo
demo: all
	scripts/demo

# The cross builds, for the eMMC lab's armhf guest and for the boards'
# packages (armhf, arm64): the same sources, compiled with Debian's cross g++
# against a sysroot of the target's Debian libraries that scripts/cross-ARCH
# assembles (cached in build/ARCH/sysroot). $(call cross_build,ARCH,TRIPLET,VAR)
# defines VAR, VAR_SYSROOT, VAR_TOOLS, ... and the targets cross-ARCH and
# install-ARCH.
define cross_build
$(3)          := $$(BUILD)/$(1)
$(3)_SYSROOT  ?= $$(abspath $$($(3)))/sysroot
$(3)_STAMP    := $$($(3)_SYSROOT)/.complete
$(3)_CXX      ?= $(2)-g++
$(3)_CXXFLAGS ?= -O2 $$(HARDENING)
# 64-bit file offsets: off_t is 32 bits on armhf, and cards are larger than 2 GiB.
$(3)_FLAGS    := --sysroot=$$($(3)_SYSROOT) -D_FILE_OFFSET_BITS=64 -std=c++20 -Wall -Wextra -Wpedantic -Wno-psabi -Ilibmmc -MMD -MP
$(3)_LDFLAGS  := --sysroot=$$($(3)_SYSROOT) -Wl,-rpath-link,$$($(3)_SYSROOT)/usr/lib/$(2) \
                 -Wl,-rpath-link,$$($(3)_SYSROOT)/lib/$(2)
# The cross-built tools keep their results in SQLite only: libpq's
# dependencies (Kerberos, LDAP, GnuTLS) are not worth carrying to a board.
$(3)_FLAGS    += -DMMCKIT_NO_POSTGRES
$(3)_LDLIBS   := $$(filter-out -lpq,$$(LDLIBS))
$(3)_LIB_OBJ  := $$(UNITY_SRC:$$(BUILD)/unity/%.cpp=$$($(3))/unity/%.o)
$(3)_LIB      := $$($(3))/libmmc.a
$(3)_TOOLS    := $$(TOOL_SRC:tools/%.cpp=$$($(3))/bin/%)

.PHONY: cross-$(1) install-$(1)
cross-$(1): $$($(3)_TOOLS)

$$($(3)_STAMP): scripts/cross-sysroot scripts/cross-$(1)
	scripts/cross-$(1)

# The flags stamp, as for the native tree: a change of compiler or flags
# rebuilds the objects. The tools compile one object per file, the library
# one per directory.
$(3)_COMPILE   = $$($(3)_CXX) $$(CPPFLAGS) $$($(3)_CXXFLAGS) $$($(3)_FLAGS) -c $$< -o $$@
$(3)_FLAGS_FILE := $$($(3))/flags
$$($(3)_FLAGS_FILE): FORCE ; $$(call stamp,$$@,'$$($(3)_CXX) $$(CPPFLAGS) $$($(3)_CXXFLAGS) $$($(3)_FLAGS) $$($(3)_LDFLAGS) $$(LDFLAGS)')
$$($(3))/obj/%.o: %.cpp $$($(3)_STAMP) $$($(3)_FLAGS_FILE) $$(shell find libmmc -name '*.h')
	@mkdir -p $$(dir $$@)
	$$($(3)_COMPILE)
# The package build (scripts/build-deb) compiles into this tree from a copy
# of the sources by absolute paths, so the .d files it leaves name absolute
# targets a plain make does not match: a changed library source then went
# unseen and a stale object was linked. Every library object therefore also
# depends on every library source and header (a change rebuilds the tree's
# 14 directory objects; correct before fast).
$(3)_LIB_DEPS := $$(LIB_SRC) $$(shell find libmmc -name '*.h')
$$($(3))/unity/%.o: $$(BUILD)/unity/%.cpp $$($(3)_STAMP) $$($(3)_FLAGS_FILE) $$($(3)_LIB_DEPS)
	@mkdir -p $$(dir $$@)
	$$($(3)_COMPILE)

$$($(3))/unity/report.o: private CPPFLAGS += -I$$(GEN)
$$($(3))/unity/report.o: $$(EMBEDDED)

$$($(3)_LIB): $$($(3)_LIB_OBJ)
	@mkdir -p $$(dir $$@)
	rm -f $$@ && $(2)-ar rcs $$@ $$^

$$($(3))/bin/%: $$($(3))/obj/tools/%.o $$$$(addprefix $$($(3))/obj/,$$$$(subst .cpp,.o,$$$$(call tool_parts,$$$$*))) $$($(3)_LIB)
	@mkdir -p $$(dir $$@)
	$$($(3)_CXX) $$($(3)_LDFLAGS) $$(LDFLAGS) $$^ -o $$@ $$($(3)_LDLIBS)
.SECONDARY: $$(TOOL_SRC:tools/%.cpp=$$($(3))/obj/tools/%.o) $$(TOOL_PART_SRC:%.cpp=$$($(3))/obj/%.o)

install-$(1): cross-$(1)
	$$(call install_files,$$($(3)))

.PHONY: deb-$(1)
deb-$(1): $$($(3)_STAMP)
	scripts/build-deb $(1)

-include $$($(3)_LIB_OBJ:.o=.d) $$(TOOL_SRC:tools/%.cpp=$$($(3))/obj/tools/%.d) $$(TOOL_PART_SRC:%.cpp=$$($(3))/obj/%.d)
endef
$(eval $(call cross_build,armhf,arm-linux-gnueabihf,ARMHF))
$(eval $(call cross_build,arm64,aarch64-linux-gnu,ARM64))

# The eMMC lab: a shell on the emulated eMMC (boot partitions on) of an Aspeed
# AST2600 board, with the cross-built tools and mmc-utils on PATH.
.PHONY: lab-emmc
lab-emmc: cross-armhf
	scripts/sdlab --card emmc --boot-partitions --shell

# The Raspberry Pi lab: a shell on QEMU's Raspberry Pi 3B with the card on the
# Pi's own SD host (sdhost-bcm2835) and the arm64 cross-built tools on PATH.
.PHONY: lab-rpi
lab-rpi: cross-arm64
	scripts/sdlab --board rpi3 --shell
