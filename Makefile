# mmckit: build, test and lab entry points. Everything built lands in build/.
CXX      ?= g++
CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=c++20 -Wall -Wextra -Wpedantic -Ilibmmc -MMD -MP -I/usr/include/postgresql
# The results database (libmmc/report/store): SQLite, PostgreSQL's libpq,
# and OpenSSL's libcrypto for the bundles' content hashes.
LDLIBS   := -lfmt -lmnl -ludev -luring -lsqlite3 -lpq -lcrypto
BUILD    := build
# Build in parallel by default: the README's plain "make check" should not
# compile one file at a time.
MAKEFLAGS += -j$(shell nproc)

LIB_SRC  := $(shell find libmmc -name '*.cpp' | sort)
LIB_OBJ  := $(LIB_SRC:%.cpp=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libmmc.a
TOOL_SRC := $(wildcard tools/*.cpp)
TOOLS    := $(TOOL_SRC:tools/%.cpp=$(BUILD)/bin/%)
TEST_SRC := $(wildcard tests/unit/*.cpp)
TEST_OBJ := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)
UNIT     := $(BUILD)/tests/unit_tests
# The nbdkit plugin over the flash model: a shared object, so it and the few
# libmmc sources it needs are compiled again with -fPIC, apart from libmmc.a.
PLUGIN     := $(BUILD)/lib/nbdkit-mmcsim-plugin.so
PLUGIN_SRC := tools/plugin/nbdkit-mmcsim-plugin.cpp $(wildcard libmmc/sim/*.cpp) libmmc/cli/size.cpp libmmc/simserve/card_file.cpp
PLUGIN_OBJ := $(PLUGIN_SRC:%.cpp=$(BUILD)/pic/%.o)

.PHONY: all check unit deps fuzz clean
all: $(TOOLS) $(UNIT) $(PLUGIN)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/pic/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -fPIC -c $< -o $@

$(PLUGIN): $(PLUGIN_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) -shared $(LDFLAGS) $^ -o $@ -lfmt

$(UNIT): $(TEST_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS) -lgtest -lgtest_main -pthread

# Every test: unit tests, then the tool-level tests; one summary line at the end.
# CHECK_SUITES names other suites instead (the runner's own test uses it).
check: all
	@tests/run-all $(CHECK_SUITES)

unit: $(UNIT)
	$(UNIT)

# Installs every Debian package the build, the tests and the lab need.
deps:
	scripts/install-deps

# Coverage-guided fuzzing (clang libFuzzer): the decoders and hex parser, the
# ios parser, the bundle reader and report views; FUZZ_SECONDS per harness.
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(PLUGIN_OBJ:.o=.d) $(TOOL_SRC:tools/%.cpp=$(BUILD)/obj/tools/%.d)

# The emulated-card lab: a shell on an emulated SD card with the tools on PATH.
.PHONY: lab
lab: all
	scripts/sdlab --shell

# The main job on a machine with no card: the emulated card, identified.
# (On a machine with a card: build/bin/mmc-info /dev/mmcblk0.)
.PHONY: demo
demo: all
	scripts/demo

# The cross build for the eMMC lab's armhf guest: the same sources, compiled
# with Debian's arm-linux-gnueabihf-g++ against the armhf sysroot that
# scripts/cross-armhf assembles (cached in build/armhf/sysroot).
ARMHF          := $(BUILD)/armhf
ARMHF_SYSROOT  := $(abspath $(ARMHF))/sysroot
ARMHF_STAMP    := $(ARMHF)/sysroot/.complete
ARMHF_CXX      ?= arm-linux-gnueabihf-g++
ARMHF_CXXFLAGS ?= -O2
# 64-bit file offsets: off_t is 32 bits on armhf, and cards are larger than 2 GiB.
ARMHF_FLAGS    := --sysroot=$(ARMHF_SYSROOT) -D_FILE_OFFSET_BITS=64 -std=c++20 -Wall -Wextra -Wpedantic -Wno-psabi -Ilibmmc -MMD -MP
ARMHF_LDFLAGS  := --sysroot=$(ARMHF_SYSROOT) -Wl,-rpath-link,$(ARMHF_SYSROOT)/usr/lib/arm-linux-gnueabihf \
                  -Wl,-rpath-link,$(ARMHF_SYSROOT)/lib/arm-linux-gnueabihf
# The armhf tools keep their results in SQLite only: libpq's dependencies
# (Kerberos, LDAP, GnuTLS) are not worth carrying into the lab's guest.
ARMHF_FLAGS    += -DMMCKIT_NO_POSTGRES
ARMHF_LDLIBS   := $(filter-out -lpq,$(LDLIBS))
ARMHF_LIB_OBJ  := $(filter-out %/sql_postgres.o,$(LIB_SRC:%.cpp=$(ARMHF)/obj/%.o))
ARMHF_LIB      := $(ARMHF)/libmmc.a
ARMHF_TOOLS    := $(TOOL_SRC:tools/%.cpp=$(ARMHF)/bin/%)

.PHONY: cross-armhf
cross-armhf: $(ARMHF_TOOLS)

$(ARMHF_STAMP): scripts/cross-armhf
	scripts/cross-armhf

# The Makefile is a prerequisite: a change of flags must rebuild the objects.
$(ARMHF)/obj/%.o: %.cpp $(ARMHF_STAMP) Makefile
	@mkdir -p $(dir $@)
	$(ARMHF_CXX) $(ARMHF_CXXFLAGS) $(ARMHF_FLAGS) -c $< -o $@

$(ARMHF_LIB): $(ARMHF_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && arm-linux-gnueabihf-ar rcs $@ $^

$(ARMHF)/bin/%: $(ARMHF)/obj/tools/%.o $(ARMHF_LIB)
	@mkdir -p $(dir $@)
	$(ARMHF_CXX) $(ARMHF_LDFLAGS) $^ -o $@ $(ARMHF_LDLIBS)

-include $(ARMHF_LIB_OBJ:.o=.d) $(TOOL_SRC:tools/%.cpp=$(ARMHF)/obj/tools/%.d)

# The eMMC lab: a shell on the emulated eMMC (boot partitions on) of an Aspeed
# AST2600 board, with the cross-built tools and mmc-utils on PATH.
.PHONY: lab-emmc
lab-emmc: cross-armhf
	scripts/sdlab --card emmc --boot-partitions --shell
