# mmckit: build, test and lab entry points. Everything built lands in build/.
CXX      ?= g++
CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=c++20 -Wall -Wextra -Wpedantic -Ilibmmc -MMD -MP
LDLIBS   := -lfmt -lmnl -ludev
BUILD    := build

LIB_SRC  := $(shell find libmmc -name '*.cpp' | sort)
LIB_OBJ  := $(LIB_SRC:%.cpp=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libmmc.a
TOOL_SRC := $(wildcard tools/*.cpp)
TOOLS    := $(TOOL_SRC:tools/%.cpp=$(BUILD)/bin/%)
TEST_SRC := $(wildcard tests/unit/*.cpp)
TEST_OBJ := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)
UNIT     := $(BUILD)/tests/unit_tests

.PHONY: all check unit deps fuzz clean
all: $(TOOLS) $(UNIT)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS)

$(UNIT): $(TEST_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -o $@ $(LDLIBS) -lgtest -lgtest_main -pthread

# Every test: unit tests, then the tool-level tests; one summary line at the end.
check: all
	@tests/run-all

unit: $(UNIT)
	$(UNIT)

# Installs every Debian package the build, the tests and the lab need.
deps:
	scripts/install-deps

# Coverage-guided fuzzing of the decoders and the hex parser (clang libFuzzer).
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TOOL_SRC:tools/%.cpp=$(BUILD)/obj/tools/%.d)

# The emulated-card lab: a shell on an emulated SD card with the tools on PATH.
.PHONY: lab
lab: all
	scripts/sdlab --shell

# The main job on a machine with no card: the emulated card, identified.
# (On a machine with a card: build/bin/mmc-info /dev/mmcblk0.)
.PHONY: demo
demo: all
	scripts/demo
