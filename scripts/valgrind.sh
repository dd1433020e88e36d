#!/usr/bin/env bash
# `make valgrind`: memcheck on a short run of every bench: no leaks, no invalid accesses.
# Runs go side by side, one per CPU (VALGRIND_JOBS). One attempt per repetition (--max-attempts 1): under valgrind every attempt breaks the timing rules,
# and re-running them only multiplies the time. Usage: valgrind.sh C2CBENCH. Extra per-bench arguments: VALGRIND_ARGS_<bench with - as _>.
set -uo pipefail
bin=${1:-./c2cbench}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Each bench's run, into $tmp/$b.out (what it prints) and $tmp/$b.rc (0 clean, 1 failed).
one() {
  local b=$1 var=VALGRIND_ARGS_${1//-/_} short log rc summary
  case $b in   # a short run of each bench, in the options that bench takes
    pingpong) short=(--samples 3 --round-trips 2 --preheat-ms 0 --concurrent auto --lines 2) ;;
    shepherd) short=(--duration 0.3 --warmup 0.05 --cpus 2) ;;  # about an interval per check: 2 min under memcheck
    refill) short=(--duration 0.2 --warmup 0.01 --attempts 20000) ;;
    *) short=(--duration 0.05 --warmup 0.01) ;;
  esac
  log=$tmp/$b.log
  timeout 300 valgrind --tool=memcheck --fair-sched=yes --suppressions="$(dirname "$0")/valgrind.supp" --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect --error-exitcode=99 --log-file="$log" \
    "$bin" run "$b" "${short[@]}" --reps 1 --max-attempts 1 --quiet --out "$tmp/$b.csv" ${!var:-} >/dev/null 2>"$tmp/$b.err"
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|definitely lost|indirectly lost" "$log" | sed 's/^==[0-9]*== //' | tr '\n' ' ')
  if [ $rc -eq 124 ]; then echo "valgrind $b: FAILED (no end within 300 s)"; echo 1 > "$tmp/$b.rc"
  elif [ $rc -eq 0 ] || [ $rc -eq 4 ]; then echo "valgrind $b: clean ($summary)"; echo 0 > "$tmp/$b.rc"
  else echo "valgrind $b: FAILED (exit $rc) $summary"; cat "$tmp/$b.err"; grep -A12 -E "Invalid|definitely lost in" "$log" | head -60; echo 1 > "$tmp/$b.rc"; fi
}
# memcheck runs a program's threads one at a time, so each run takes about one CPU: as many at
# once as there are CPUs (VALGRIND_JOBS), each printed whole, in the benches' order.
jobs=${VALGRIND_JOBS:-$(nproc 2>/dev/null || echo 1)}
benches=$("$bin" list | awk '/^bench /{print $2}')
for b in $benches; do
  while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
  one "$b" > "$tmp/$b.out" 2>&1 &
done
wait
status=0
for b in $benches; do
  cat "$tmp/$b.out"
  [ "$(cat "$tmp/$b.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
