#!/usr/bin/env bash
# `make fuzz`: build each libFuzzer target (tests/fuzz/fuzz_*.c) with clang + ASan/UBSan against the
# harness objects, run each for FUZZ_SECONDS (default 60) from its seed corpus, and fail on a finding.
# Crashes are left in build/fuzz/findings/; add each as a regression input under tests/fuzz/regressions/.
set -euo pipefail
secs=${FUZZ_SECONDS:-60}
# libsde keeps the counter names it registered (a library leak, not ours): the suite's suppressions
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
mkdir -p build/fuzz/findings
status=0
# FUZZ_TARGET=NAME runs that target only (e.g. FUZZ_TARGET=report FUZZ_SECONDS=600 make fuzz)
# FUZZ_TIMEOUT=S: seconds one input may take (default 10; topo on a loaded 2-vCPU machine needs more)
for src in tests/fuzz/fuzz_${FUZZ_TARGET:-*}.c; do
  name=$(basename "$src" .c); target=${name#fuzz_}
  bin=build/fuzz/$name
  clang -std=gnu11 -g -O1 -I. -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -o "$bin" "$src" $FUZZ_OBJS $FUZZ_LIBS
  corpus=build/fuzz/corpus-$target; mkdir -p "$corpus"
  cp -n tests/fuzz/corpus/$target/* "$corpus"/ 2>/dev/null || true
  # regression inputs first: each must pass
  if ls tests/fuzz/regressions/$target/* >/dev/null 2>&1; then
    "$bin" -runs=1 tests/fuzz/regressions/$target/* || status=1
  fi
  echo "== fuzzing $target for ${secs}s"
  "$bin" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -artifact_prefix=build/fuzz/findings/$target- \
    -print_final_stats=1 "$corpus" 2>&1 | tail -n 12 || status=1
done
exit $status
