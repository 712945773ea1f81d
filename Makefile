# skinbench — build, test and reproduce.
#   make              build ./skinbench
#   make check        install missing deps, build, run the whole test suite
#   make asan         the test suite under ASan + UBSan (float checks included)
#   make tsan         the threaded fast-path range test under ThreadSanitizer
#   make reproduce    install missing deps, build, run every experiment, write the report
#   make new-method NAME=n   methods/n.c from the template, registered
#   make nightly      suite into results/nights/STAMP; gates vs this machine's baseline in results/skinbench.sqlite
#   make bisect GOOD=REV BAD=REV KERNEL=NAME   the first commit that moved a kernel (METHOD=M: its time)
# Sources are picked up by directory: a new file in common/, geometry/, methods/, datasets/,
# gpu/, harness/, reports/, regress/ or cli/ needs no edit here; a new tests/test_*.c(pp) is a new test binary.

CC  ?= gcc
CXX ?= g++
PKGS     = gsl libcjson assimp glew egl gl benchmark libpng sqlite3 libcrypto
TESTPKGS = cmocka
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
WARN     = -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter
INCS     = -Icommon -Igeometry -Imethods -Iflops -Idatasets -Igpu -Iharness -Ireports -Iregress -Icli
# CHOLMOD (methods/ddm.c's sparse solves) has no pkg-config file on Debian 12
CHOLMOD_CFLAGS = -I/usr/include/suitesparse
CHOLMOD_LIBS   = -lcholmod
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) $(TESTPKGS) 2>/dev/null) $(CHOLMOD_CFLAGS)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(CHOLMOD_LIBS) -lOpenGL -lpthread -lm $(FCL_LIBS)
# DWARF 4: valgrind 3.19 (callgrind counts in `run flops`) cannot read clang 14's default DWARF 5
DEBUG    = -g -gdwarf-4
CFLAGS  += -std=c11 $(OPT) $(DEBUG) $(WARN) -D_GNU_SOURCE $(INCS) $(PKG_CFLAGS) $(SAN)
CXXFLAGS+= -std=c++17 $(OPT) $(DEBUG) -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE $(INCS) $(PKG_CFLAGS) $(SAN) $(FCL_CXX)
LDFLAGS += $(SAN)
# the "  CC   file" progress lines; make check sets SAY=: (quiet)
SAY     ?= echo
# optional: FCL, the collision oracle of tests/test_fcl.cpp and the peer of `run cd`
# (harness/fcl_peer.cpp); both skip without it.  Its -std flag is not taken.
FCL_CXX  := $(shell pkg-config --exists fcl 2>/dev/null && echo -DSKB_HAVE_FCL $$(pkg-config --cflags-only-I fcl))
FCL_LIBS := $(shell pkg-config --libs fcl 2>/dev/null)

LIB_DIRS = common geometry methods datasets gpu harness reports regress cli
LIB_C    = $(filter-out cli/main.c,$(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c)))
LIB_CXX  = $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.cpp))
LIB_OBJ  = $(LIB_C:%.c=$(BUILD)/%.o) $(LIB_CXX:%.cpp=$(BUILD)/%.o)
TEST_C   = $(wildcard tests/test_*.c)
TEST_CXX = $(wildcard tests/test_*.cpp)
TEST_BIN = $(TEST_C:tests/%.c=$(BUILD)/tests/%) $(TEST_CXX:tests/%.cpp=$(BUILD)/tests/%)

.PHONY: new-method all deps deps-tests check check-run check-layers asan tsan reproduce nightly bisect tests clean help fuzz
all: skinbench

# a new method's file from scripts/templates/method.c.in, registered (ARCHITECTURE.md "Adding a method");
# NAME and TITLE reach the script through the environment, never spliced into the shell line
new-method:
	@bash scripts/new-method.sh "$${NAME:-}" "$${TITLE:-}"

help:
	@sed -n '2,9p' Makefile

# deps: what the reproduction needs; deps-tests: and what only the tests use
# (scripts/install-deps.sh says which is which)
deps:
	@bash scripts/install-deps.sh

deps-tests:
	@bash scripts/install-deps.sh --tests

skinbench: $(BUILD)/skinbench
	@cp $< $@

$(BUILD)/skinbench: $(BUILD)/cli/main.o $(BUILD)/libskb.a | $(BUILD)/skinbench-flops
	@$(SAY) "  LD   $@"
	@$(CXX) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# `skinbench --version` and every run's manifest name the git revision it was
# built from (none outside a checkout); the stamp is rewritten only when the
# revision changes, so cli/build_info.o rebuilds then and only then.  Only
# [A-Za-z0-9._+-] reach the -D.
GIT_DESCRIBE := $(shell git describe --always --dirty --tags 2>/dev/null | tr -cd 'A-Za-z0-9._+-')
GIT_REV      := $(shell git rev-parse --verify -q HEAD 2>/dev/null | tr -cd '0-9a-f')
$(BUILD)/cli/build_info.o: CFLAGS += -DSKB_GIT_DESCRIBE='"$(GIT_DESCRIBE)"' -DSKB_GIT_REV='"$(GIT_REV)"'
$(BUILD)/cli/build_info.o: $(BUILD)/git-describe
$(BUILD)/git-describe: FORCE
	@mkdir -p $(dir $@); echo '$(GIT_DESCRIBE) $(GIT_REV)' | cmp -s - $@ || echo '$(GIT_DESCRIBE) $(GIT_REV)' > $@
FORCE:

# the FLOP-counting build (`skinbench run flops` runs it): geometry/*.c and
# methods/*.c again, as C++ with skb_real = skb::flop (flops/flop_real.hpp),
# plus the driver flops/flops_main.cxx (flops/ is not in LIB_DIRS). Never in libskb.a.
# -Wno-missing-field-initializers: C allows a method to leave later hooks of
# struct skb_method unnamed (NULL); C++ would warn about it.
FLOP_FLAGS = -std=c++20 $(OPT) $(DEBUG) -Wall -Wextra -Werror -Wno-unused-parameter \
             -Wno-missing-field-initializers -D_GNU_SOURCE $(INCS) $(PKG_CFLAGS) $(SAN) \
             -include flops/flop_real.hpp
FLOP_OBJ   = $(patsubst %.c,$(BUILD)/flops/%.o,$(wildcard geometry/*.c methods/*.c))

$(BUILD)/flops/%.o: %.c flops/flop_real.hpp $(wildcard geometry/*.h methods/*.h)
	@mkdir -p $(dir $@)
	@$(SAY) "  FLOP $<"
	@$(CXX) -x c++ $(FLOP_FLAGS) -c -o $@ $<

$(BUILD)/skinbench-flops: flops/flops_main.cxx $(FLOP_OBJ) flops/flop_real.hpp
	@$(SAY) "  LD   $@"
	@$(CXX) -x c++ $(FLOP_FLAGS) -o $@ flops/flops_main.cxx -x none $(FLOP_OBJ) $(LDFLAGS) $(PKG_LIBS)

# the float kernels may fuse a*b+c into one FMA (ISO C mode, -std=c11, turns
# contraction off): they are checked against the double path, not bit patterns.
# -Wno-psabi: its 64-byte vectors pass between static inline helpers only
$(BUILD)/methods/fast_f32.o $(BUILD)/methods/fast_f32_layout.o $(BUILD)/methods/fast_f32_kernels.o: \
    CFLAGS += -ffp-contract=fast -Wno-psabi

$(BUILD)/libskb.a: $(LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(BUILD)/%.o: %.c $(wildcard $(foreach d,$(LIB_DIRS),$(d)/*.h))
	@mkdir -p $(dir $@)
	@$(SAY) "  CC   $<"
	@$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.cpp $(wildcard common/*.h geometry/*.h methods/*.h harness/*.h)
	@mkdir -p $(dir $@)
	@$(SAY) "  CXX  $<"
	@$(CXX) $(CXXFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libskb.a tests/skb_test.h
	@mkdir -p $(dir $@)
	@$(SAY) "  TEST $<"
	@$(CC) $(CFLAGS) -Itests -c -o $@.o $<
	@$(CXX) $(LDFLAGS) -o $@ $@.o $(BUILD)/libskb.a $(PKG_LIBS) $(shell pkg-config --libs $(TESTPKGS))

$(BUILD)/tests/%: tests/%.cpp $(BUILD)/libskb.a $(wildcard flops/*.hpp)
	@mkdir -p $(dir $@)
	@$(SAY) "  TEST $<"
	@$(CXX) $(CXXFLAGS) -Itests -I/usr/include/eigen3 -o $@ $< $(BUILD)/libskb.a $(PKG_LIBS) $(shell pkg-config --libs $(TESTPKGS))

tests: $(BUILD)/skinbench $(TEST_BIN)

# the test suite: every tests/test_* binary, then the tests/*.sh scripts
# (tests/layers.sh runs scripts/check-layers.sh on the tree: no back edges
# between the layers common -> geometry -> methods -> flops -> datasets -> gpu ->
# harness -> reports -> regress -> cli, and no circle of calls inside one folder)
# make check builds quietly (one line, a failure prints the compiler's
# words as always) and prints one line per test program; V=1 shows all
check: deps-tests
	@$(MAKE) --no-print-directory $(if $(V),,SAY=:) skinbench tests && echo "build: $(BUILD) up to date"
	@$(MAKE) --no-print-directory check-run

check-run: skinbench tests
	@bash scripts/run-tests.sh $(BUILD)

check-layers:
	@SKB_BUILD=$(BUILD) bash scripts/check-layers.sh

# libFuzzer (clang-14, ASan + UBSan) over every JSON reader: results files,
# report, compare on a mutated results directory, blend input.  FUZZ_SECONDS
# (default 600) long; the 20 s run of tests/fuzz.sh stays in make check.
FUZZ_SECONDS ?= 600
fuzz: deps-tests
	@SKB_BUILD=$(BUILD) SKB_FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz.sh

asan: deps-tests
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined,float-cast-overflow,float-divide-by-zero -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  check-run-asan

check-run-asan: tests
	@SKB_ASAN=1 bash scripts/run-tests.sh $(BUILD)

# fast kernels on disjoint vertex ranges from two threads and through the
# persistent pool (tests/test_ranges.c, tests/test_pool.c) under ThreadSanitizer; skipped, with a line saying so, when $(CC) cannot link
# -fsanitize=thread
tsan:
	@t=$$(mktemp -d); \
	if echo 'int main(void) { return 0; }' | $(CC) -fsanitize=thread -x c -o $$t/probe - 2>/dev/null; then \
	  rm -rf $$t; \
	  $(MAKE) --no-print-directory BUILD=build-tsan OPT=-O1 SAN="-fsanitize=thread -fno-omit-frame-pointer" \
	    build-tsan/tests/test_ranges build-tsan/tests/test_pool && \
	  SKB_BUILD=build-tsan TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/test_ranges && \
	  SKB_BUILD=build-tsan TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/test_pool; \
	else rm -rf $$t; echo "tsan: $(CC) cannot build with -fsanitize=thread; skipped"; fi

reproduce: deps
	@$(MAKE) --no-print-directory skinbench
	@./skinbench run all --out results/latest; rc=$$?; \
	  ./skinbench report --results results/latest --out results/latest; \
	  echo "reproduce: report in $(CURDIR)/results/latest/report.html (and report.md, plots/)"; exit $$rc

# UPDATE_BASELINE=1 creates/replaces results/baseline; it is never written otherwise.
# make exits 2 whenever the gate does not pass (GNU make's status is 0, 1 or
# 2): the gate's own 0 / 1 / 3 is in the night's gate-exit file, and
# `bash scripts/nightly.sh --build` (for cron and CI) exits with it
nightly: deps
	@$(MAKE) --no-print-directory skinbench
	@bash scripts/nightly.sh $(if $(UPDATE_BASELINE),--update-baseline)

# the first commit between GOOD and BAD that moved KERNEL's instructions (or,
# with METHOD, the method's paired time), built in a scratch worktree from
# this build's objects when they are of a clean commit; the values reach
# skinbench as arguments, never spliced into the shell line
bisect:
	@$(MAKE) --no-print-directory skinbench
	@if [ -n "$${METHOD:-}" ]; then \
	  ./skinbench bisect "$${GOOD:-}" "$${BAD:-}" --timing --method "$$METHOD" --seed-build $(BUILD); \
	else ./skinbench bisect "$${GOOD:-}" "$${BAD:-}" --kernel "$${KERNEL:-}" --seed-build $(BUILD); fi

clean:
	rm -rf build build-asan build-tsan skinbench
