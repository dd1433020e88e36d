# c2cbench: `make run` (the default job) and `make test` (the suite) do everything on a fresh Debian
# box as root; `make deps` installs the packages (scripts/deps.sh); nothing installs as a user.
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= gcc
PKGS := hwloc numa papi inih
# Cross builds: `make CROSS=aarch64-linux-gnu` uses Debian's cross compiler and the arm64 multiarch
# libraries (scripts/deps-arm64.sh installs them) and builds into build/arm64/ (binary build/arm64/c2cbench).
CROSS ?=
# Parallel jobs for the builds that the run, test, sanitizer, zoo and bench targets start (the
# suites themselves run one binary at a time).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PKG_CONFIG ?= pkg-config
ifneq ($(CROSS),)
CC := $(CROSS)-gcc
CROSS_DIR := $(if $(filter aarch64-%,$(CROSS)),arm64,$(CROSS))
BUILD ?= build/$(CROSS_DIR)
BIN ?= $(BUILD)/c2cbench
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS)/pkgconfig:/usr/share/pkgconfig pkg-config
OBJDUMP ?= $(CROSS)-objdump
NM ?= $(CROSS)-nm
endif
OBJDUMP ?= objdump
NM ?= nm
BUILD ?= build
BIN ?= c2cbench
TARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)

OPT ?= -O2 -g
SAN ?=
CPPFLAGS += -I. -D_GNU_SOURCE
CFLAGS += -std=gnu11 $(OPT) $(SAN) -Wall -Wextra -Werror -pthread $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# aarch64: atomics inline (LSE or LL/SC chosen by --atomics), never a call to libgcc's __aarch64_* helpers
ifneq ($(filter aarch64-%,$(TARGET)),)
CFLAGS += -mno-outline-atomics
endif
LDLIBS += $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lsde -lpfm -lm -pthread
LDFLAGS += $(SAN)

# One folder per concern: the generic library (lib/), statistics (stats/), the result files'
# format (schema/), the engine (harness/, harness/counters/), the layouts, one folder per bench,
# the offline analysis, the preset runner and the command line. Includes name their folder (-I. only).
SRCDIRS := lib stats schema harness harness/counters layouts $(wildcard benches/*) analysis runner import cli
SRC := $(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c))
# Header dependencies come from the compiler (-MMD -MP: one .d file beside each object or test).
DEPFLAGS = -MMD -MP -MF $@.d -MT $@
LIBSRC := $(filter-out cli/main.c,$(SRC))
OBJ := $(SRC:%.c=$(BUILD)/%.o)
LIBOBJ := $(LIBSRC:%.c=$(BUILD)/%.o)
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
TESTLIB := $(BUILD)/tests/testutil.o $(BUILD)/tests/report_util.o $(BUILD)/tests/runsum_shim.o

.SECONDARY:
.PHONY: all fuzz tsan valgrind deps need-deps need-deps-run run test asan bench disasm install \
	clean check-tests test-arm64 check-qemu test-system test-system-suite zoo-build

# The man page, generated from docs/c2cbench.1.in and the binary's --help (scripts/man-page.sh): a
# new bench's section is its own --help, with no edit of a page. A cross build's page is generated
# through qemu-user.
MAN := $(BUILD)/c2cbench.1
ifneq ($(CROSS),)
MANBIN := $(BUILD)/c2cbench-qemu
else
MANBIN := $(BIN)
endif

all: $(BIN) $(MAN)
$(BUILD)/c2cbench-qemu: $(BIN)
	@printf '#!/bin/sh\nexec %s %s "$$@"\n' "$$(command -v qemu-aarch64)" "$(abspath $(BIN))" > $@ && chmod +x $@
$(MAN): docs/c2cbench.1.in scripts/man-page.sh scripts/man-options.py $(MANBIN)
	ASAN_OPTIONS=detect_leaks=0 bash scripts/man-page.sh ./$(MANBIN) > $@.tmp && mv $@.tmp $@

# `make deps` installs every package the tree needs (as root; as a user it prints the command). The
# jobs below only check (scripts/deps.sh --need): they name what is missing and the one command that
# installs it, and install only when run as root (CI, a fresh machine), saying so first.
deps:
	@bash scripts/deps.sh
need-deps:
	@bash scripts/deps.sh --need test
need-deps-run:
	@bash scripts/deps.sh --need run

$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# gen_header FILE,VAR: write the text of VAR to FILE, while make reads this file, only when it
# differs, so what includes FILE rebuilds only when that text changes, and a no-op make runs nothing.
gen_header = $(shell mkdir -p $(dir $(1)) && printf '%s\n' $($(2)) > $(1).tmp && \
	{ cmp -s $(1).tmp $(1) && rm -f $(1).tmp || mv $(1).tmp $(1); })

# Only the run context records the revision (and the flags), through a generated header: a commit
# rebuilds context.o and relinks, nothing more; an unchanged tree rebuilds nothing.
REV_H := $(BUILD)/gen/revision.h
REV_TEXT = '\#define C2C_GIT_REV "$(GIT_REV)"' \
	'\#define C2C_CFLAGS "-std=gnu11 $(strip $(OPT) $(SAN))"'
$(call gen_header,$(REV_H),REV_TEXT)
$(BUILD)/harness/context.o: $(REV_H)
$(BUILD)/harness/context.o: CPPFLAGS += -include $(REV_H)

# PREFIX reaches the preset search path the same way, so `make install PREFIX=X` rebuilds preset.o
# even when the tree was built before.
PREFIX_H := $(BUILD)/gen/prefix.h
PREFIX_TEXT = '\#define C2C_PRESET_DIR "$(PREFIX)/share/c2cbench/presets"'
$(call gen_header,$(PREFIX_H),PREFIX_TEXT)
$(BUILD)/runner/preset.o: $(PREFIX_H)
$(BUILD)/runner/preset.o: CPPFLAGS += -include $(PREFIX_H)

# The platform table is compiled into the binary (.incbin): an installed c2cbench needs no data path.
$(BUILD)/harness/counters/evtab_data.o: events/platforms.tsv

$(BIN): $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(LIBOBJ) $(TESTLIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -o $@ $< $(LIBOBJ) $(TESTLIB) $(LDFLAGS) $(LDLIBS) $(shell $(PKG_CONFIG) --libs cmocka)

# The fuzz targets are replayed by a test (their corpora and regressions, without clang).
$(BUILD)/tests/test_fuzz_inputs: $(wildcard tests/fuzz/fuzz_*.c)

$(BUILD)/bare_load: scripts/bare_load.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) -pthread

# make bench's machine-speed line: how steady each CPU's speed is while all are busy (no harness code).
$(BUILD)/cpu_speed: scripts/cpu_speed.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -pthread -o $@ $< -pthread

# The default job: the quick preset (pending-bit, three layouts, both policies) into results/HOST-DATE-quick/.
run: need-deps-run
	$(MAKE) --no-print-directory -j$(JOBS) $(BIN)
	./$(BIN) preset quick

test: need-deps
	$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(MAN) $(TESTS)
	@C2C_BIN=$(abspath $(BIN)) C2C_MANPAGE=$(abspath $(MAN)) bash scripts/run-tests.sh $(TESTS)

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer, in its own build tree.
asan: need-deps
	C2C_TEST_JOBS=$${C2C_TEST_JOBS:-$$(nproc)} $(MAKE) --no-print-directory -j$(JOBS) BUILD=build/asan BIN=build/asan/c2cbench OPT="-O1 -g" \
		SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		build/asan/c2cbench check-tests

# The qemu-user and tsan suites run one test binary at a time (C2C_TEST_JOBS=N for more): each
# binary is several times slower there. `make asan` runs one per CPU, as `make test` does (its
# whole suite passed so on 2 vCPUs beside other builds: 1,137 s, 5 Dec 2026).
check-tests: $(BIN) $(MAN) $(TESTS)
	@C2C_TEST_JOBS=$${C2C_TEST_JOBS:-1} C2C_BIN=$(abspath $(BIN)) C2C_MANPAGE=$(abspath $(MAN)) ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(abspath scripts/lsan.supp):print_suppressions=0 bash scripts/run-tests.sh $(TESTS)

# The aarch64 build's cmocka suite under qemu-user (CI): the Arm rows of the platform table are checked
# there through the arm64 libpfm4 with LIBPFM_FORCE_PMU; tests that need a real kernel interface
# qemu-user lacks skip themselves and say why (C2C_UNDER_QEMU).
test-arm64:
	@bash scripts/deps-arm64.sh
	$(MAKE) --no-print-directory -j$(JOBS) CROSS=aarch64-linux-gnu check-qemu

check-qemu: $(BIN) $(BUILD)/c2cbench-qemu $(MAN) $(TESTS)
	@C2C_BIN=$(abspath $(BUILD))/c2cbench-qemu C2C_MANPAGE=$(abspath $(MAN)) C2C_SELF_EXEC=$(abspath $(BUILD))/c2cbench-qemu C2C_ELF=$(abspath $(BIN)) \
		C2C_OBJDUMP=$(OBJDUMP) C2C_NM=$(NM) C2C_UNDER_QEMU=1 C2C_PRESET_PATH=$(abspath presets) \
		C2C_TEST_JOBS=$${C2C_TEST_JOBS:-1} C2C_TEST_RUNNER=$$(command -v qemu-aarch64) \
		bash scripts/run-tests.sh $(TESTS)

# The guest zoo (scripts/zoo/): real kernels under QEMU full-system emulation on server topologies
# and an arm64 guest with a PMU; checks inside each, judged against the guest's own sysfs.
ZOO_CHECK := $(addprefix tests/system/,zoo_check.c zoo_benches.c zoo_cgroup.c zoo_counters.c zoo_rows.c \
	zoo_topo.c)
ZOO_LINK = $(LIBOBJ) $(TESTLIB) $(LDFLAGS) $(LDLIBS) $(shell $(PKG_CONFIG) --libs cmocka)
ZOO_HDR := $(wildcard lib/*.h stats/*.h schema/*.h harness/*.h harness/counters/*.h layouts/*.h benches/*/*.h analysis/*.h \
	runner/*.h cli/*.h tests/*.h tests/system/*.h)
$(BUILD)/tests/zoo_check: $(ZOO_CHECK) $(LIBOBJ) $(TESTLIB) $(ZOO_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(ZOO_CHECK) $(ZOO_LINK)
$(BUILD)/tests/zoo_fleet: tests/system/zoo_fleet.c $(LIBOBJ) $(TESTLIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -o $@ $< $(ZOO_LINK)

zoo-build: need-deps
	@bash scripts/deps-arm64.sh
	$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TESTS) $(BUILD)/tests/zoo_check $(BUILD)/tests/zoo_fleet
	$(MAKE) --no-print-directory -j$(JOBS) CROSS=aarch64-linux-gnu build/arm64/c2cbench

test-system: zoo-build
	bash scripts/zoo/run.sh

# The whole cmocka suite inside the two-socket, the per-die-L3 SMT and both cloud-VM guests (its
# durations: docs/hacking.md): no test may assume the host's topology.
# The suite takes 25-40 minutes a guest under TCG: each guest gets an hour (ZOO_TIMEOUT), not 900 s.
test-system-suite: zoo-build
	@bash scripts/slurm-local.sh deps # test_slurm's packages, on the host: the guests have no network
	ZOO_SUITE=1 ZOO_TIMEOUT=$${ZOO_TIMEOUT:-3600} \
		ZOO_GUESTS=$${ZOO_GUESTS:-two-socket,skx-dies-smt,cloud-l3-per-core,cloud-shared-l3} \
		bash scripts/zoo/run.sh

# ThreadSanitizer over the same suite (the benches' intended races are atomics, so it must stay clean).
tsan: need-deps
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/tsan BIN=build/tsan/c2cbench OPT="-O1 -g" \
		SAN="-fsanitize=thread" build/tsan/c2cbench check-tests

# libFuzzer targets (clang) for hostile input: FUZZ_SECONDS per target (default 60).
FUZZ_OBJ = $(LIBSRC:%.c=build/fuzz/obj/%.o)
fuzz:
	@C2C_EXTRA_PKGS="clang libclang-rt-14-dev" bash scripts/deps.sh
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/fuzz/obj CC=clang OPT="-O1 -g" \
		SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" $(FUZZ_OBJ)
	FUZZ_OBJS="$(FUZZ_OBJ)" FUZZ_LIBS="$(LDLIBS)" bash scripts/fuzz.sh

# valgrind memcheck on a short run of each bench: no leaks, no invalid accesses.
valgrind: $(BIN)
	@C2C_EXTRA_PKGS=valgrind bash scripts/deps.sh
	bash scripts/valgrind.sh ./$(BIN)

# The independent ping-pong that pingpong is checked against: plain pthreads, no harness code.
$(BUILD)/pingpong_ref: scripts/pingpong_ref.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -pthread -o $@ $< -pthread

# Timing ratios, measured side by side in one run (not a test: these machines are noisy).
bench: need-deps
	$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(BUILD)/pingpong_ref $(BUILD)/bare_load $(BUILD)/cpu_speed
	bash scripts/bench.sh ./$(BIN) $(BUILD)/bare_load $(BUILD)/cpu_speed
	bash scripts/bench-pingpong.sh ./$(BIN) $(BUILD)/pingpong_ref
	bash scripts/bench-compare.sh ./$(BIN)
	bash scripts/bench-import.sh ./$(BIN)
	bash scripts/bench-validity.sh ./$(BIN)
	bash scripts/bench-aa.sh ./$(BIN)

# The hot loops as compiled: writers must hold a lock-prefixed RMW, readers plain loads only.
disasm: $(BIN)
	@OBJDUMP=$(OBJDUMP) bash scripts/disasm.sh ./$(BIN)

# The binary, presets, man page, bash (and zsh) completion and docs under DESTDIR/PREFIX.
install: $(BIN) $(MAN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/c2cbench
	install -d $(DESTDIR)$(PREFIX)/share/c2cbench/presets
	install -m 0644 presets/*.ini $(DESTDIR)$(PREFIX)/share/c2cbench/presets/
	install -D -m 0644 events/platforms.tsv $(DESTDIR)$(PREFIX)/share/c2cbench/platforms.tsv
	install -D -m 0644 $(MAN) $(DESTDIR)$(PREFIX)/share/man/man1/c2cbench.1
	install -D -m 0644 scripts/completion/c2cbench.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/c2cbench
	install -D -m 0644 scripts/completion/_c2cbench.zsh $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_c2cbench
	install -D -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/c2cbench/README.md
	install -D -m 0644 results/README.md $(DESTDIR)$(PREFIX)/share/doc/c2cbench/results-schema.md
	install -d $(DESTDIR)$(PREFIX)/share/doc/c2cbench/docs
	install -m 0644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/c2cbench/docs/

clean:
	rm -rf build $(BIN)

-include $(OBJ:%=%.d) $(TESTLIB:%=%.d) $(TESTS:%=%.d) $(BUILD)/tests/zoo_fleet.d
