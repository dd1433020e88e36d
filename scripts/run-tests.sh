#!/usr/bin/env bash
# Run each cmocka test binary; print a closing "N passed, N failed" line; fail if any test failed.
set -u
passed=0 failed=0 bad_bins=()
for t in "$@"; do
  out=$(${C2C_TEST_RUNNER:-} "$t" 2>&1); rc=$?  # C2C_TEST_RUNNER: qemu-aarch64 for the arm64 build
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | grep -o '\[  PASSED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
  f=$(printf '%s\n' "$out" | grep -o '\[  FAILED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ $rc -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); bad_bins+=("$t (exit $rc)"); fi
  [ $rc -ne 0 ] && [ -n "$f" ] && bad_bins+=("$t")
done
[ ${#bad_bins[@]} -gt 0 ] && printf 'failing: %s\n' "${bad_bins[@]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
