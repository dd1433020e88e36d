#!/usr/bin/env bash
# Run each cmocka test binary; print a closing "N passed, N failed" line; fail if any test failed.
# C2C_TEST_TIMES=1 also prints each binary's seconds. C2C_TEST_JOBS=N runs up to N binaries at
# once (default: the machine's CPUs): every test holds on a loaded machine (docs/hacking.md), and
# another test binary beside it is load. Each binary's output is printed whole when it ends, after
# a "start:" line when it begins (a slow or stuck binary shows which it is).
set -u
# Every row a test run writes is checked against its bench's column declaration (harness/columns.h).
export C2C_CHECK_COLUMNS=1
jobs=${C2C_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0)
  echo "run-tests.sh: C2C_TEST_JOBS=$jobs: expected a whole number of at least 1" >&2; exit 2 ;;
esac
passed=0 failed=0 bad_bins=()
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One binary, its output to $logs/N.out and its exit status to $logs/N.rc.
one() {
  local n=$1 t=$2 start=$SECONDS
  # C2C_TEST_RUNNER: qemu-aarch64 for the arm64 build.
  ${C2C_TEST_RUNNER:-} "$t" >"$logs/$n.out" 2>&1
  echo $? >"$logs/$n.rc"
  echo $((SECONDS - start)) >"$logs/$n.s"
}

# The counts of a finished binary, its output printed whole.
tally() {
  local n=$1 t=$2 rc out p f
  rc=$(cat "$logs/$n.rc")
  cat "$logs/$n.out"
  out=$(cat "$logs/$n.out")
  [ -n "${C2C_TEST_TIMES:-}" ] && echo "time: $t $(cat "$logs/$n.s") s"
  p=$(printf '%s\n' "$out" | grep -o '\[  PASSED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
  f=$(printf '%s\n' "$out" | grep -o '\[  FAILED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); bad_bins+=("$t (exit $rc)"); fi
  [ "$rc" -ne 0 ] && [ -n "$f" ] && bad_bins+=("$t")
}

# Binaries that run with no other beside them: test_install relinks the suite's c2cbench (make
# install with another PREFIX, then make all), which the others run meanwhile; test_slurm's local
# cluster runs presets as its tasks and times them (it failed twice beside another binary).
alone() { case ${1##*/} in test_install | test_slurm) return 0 ;; esac; return 1; }

# The slowest binaries start first (their seconds: C2C_TEST_TIMES=1), so that none of them is
# left running alone at the end while the other CPUs idle; the rest keep their order.
slow_first="test_import test_preset test_conventions test_power test_schemas test_report"
names=()
for s in $slow_first; do for t in "$@"; do [ "${t##*/}" = "$s" ] && names+=("$t"); done; done
for t in "$@"; do case " $slow_first " in *" ${t##*/} "*) ;; *) names+=("$t") ;; esac; done

declare -A running=() # pid -> index
i=0 solo=0
while [ $i -lt ${#names[@]} ] || [ ${#running[@]} -gt 0 ]; do
  if [ $i -lt ${#names[@]} ] && [ ${#running[@]} -lt "$jobs" ] && [ $solo -eq 0 ] &&
    { ! alone "${names[$i]}" || [ ${#running[@]} -eq 0 ]; }; then
    echo "start: ${names[$i]}"
    alone "${names[$i]}" && solo=1
    one "$i" "${names[$i]}" &
    running[$!]=$i
    i=$((i + 1))
    continue
  fi
  wait -n 2>/dev/null
  for pid in "${!running[@]}"; do
    kill -0 "$pid" 2>/dev/null && continue
    wait "$pid" 2>/dev/null
    tally "${running[$pid]}" "${names[${running[$pid]}]}"
    unset "running[$pid]"
    solo=0
  done
done
[ ${#bad_bins[@]} -gt 0 ] && printf 'failing: %s\n' "${bad_bins[@]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
