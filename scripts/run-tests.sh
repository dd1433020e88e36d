#!/usr/bin/env bash
# Run each cmocka test binary; print a closing "N passed, N failed" line; fail if any test failed.
# C2C_TEST_TIMES=1 also prints each binary's seconds.
set -u
# Every row a test run writes is checked against its bench's column declaration (harness/columns.h).
export C2C_CHECK_COLUMNS=1
passed=0 failed=0 bad_bins=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
  # C2C_TEST_RUNNER: qemu-aarch64 for the arm64 build. The output streams as it comes (a slow or
  # stuck binary shows where it is), and is kept for the counts below.
  start=$SECONDS
  ${C2C_TEST_RUNNER:-} "$t" 2>&1 | tee "$log"; rc=${PIPESTATUS[0]}
  out=$(cat "$log")
  [ -n "${C2C_TEST_TIMES:-}" ] && echo "time: $t $((SECONDS - start)) s"
  p=$(printf '%s\n' "$out" | grep -o '\[  PASSED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
  f=$(printf '%s\n' "$out" | grep -o '\[  FAILED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ $rc -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); bad_bins+=("$t (exit $rc)"); fi
  [ $rc -ne 0 ] && [ -n "$f" ] && bad_bins+=("$t")
done
[ ${#bad_bins[@]} -gt 0 ] && printf 'failing: %s\n' "${bad_bins[@]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
