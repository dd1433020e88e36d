#!/usr/bin/env bash
# `make bench`, validity part: the quick preset's pending-bit configurations (all layouts, both
# policies, its duration, warm-up and repetitions) run twice side by side: validity off (no re-run,
# every attempt counted: --max-attempts 1 --keep-invalid) and on (the defaults: invalid attempts
# re-run, statistics over valid rows). Prints the CV over repetitions of the `shared` medians both
# ways and how many attempts were invalid. Not a test: it reports, it does not fail.
# Usage: bench-validity.sh C2CBENCH
set -euo pipefail
bin=${1:-./c2cbench}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dur=${BENCH_VALID_DURATION:-1.5} warm=${BENCH_VALID_WARMUP:-0.2} reps=${BENCH_VALID_REPS:-5} # presets/quick.ini
drain() { [ "$1" = test-then-set ] && echo "--drain-us 500"; true; } # quick.ini's drainer for test-then-set (a caller's mitigation; its 2022 ordering caveat: benches/pending-bit/README.md)

# CV (sample sd / mean, %) of a column over the rows of one layout; valid=yes rows only when $4 = 1.
cv() { # file layout column valid_only
  awk -F, -v L="$2" -v C="$3" -v V="$4" '
    NR == 1 { for (i = 1; i <= NF; i++) { if ($i == C) c = i; if ($i == "layout") l = i; if ($i == "valid") v = i }; next }
    $l == L && (V == 0 || $v == "yes") { x[n++] = $c }
    END { if (n < 2) { print "NA (n=" n + 0 ")"; exit } for (i = 0; i < n; i++) s += x[i]; m = s / n
          for (i = 0; i < n; i++) q += (x[i] - m) ^ 2; printf "%.1f%% (n=%d)", 100 * sqrt(q / (n - 1)) / m, n }' "$1"
}
count() { # file valid-value
  awk -F, -v W="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "valid") v = i; next } $v == W { n++ } END { print n + 0 }' "$1"
}

echo "== validity on and off: pending-bit as presets/quick.ini runs it ($reps reps x ${dur}s, shared,aligned,padded; rmw and test-then-set with --drain-us 500) =="
for policy in rmw test-then-set; do
  "$bin" run pending-bit --layout shared,aligned,padded --policy "$policy" $(drain "$policy") --reps "$reps" --duration "$dur" \
    --warmup "$warm" --max-attempts 1 --keep-invalid --quiet --out "$tmp/off-$policy.csv" 2>/dev/null || [ $? -eq 4 ] # 4: measured nothing
  "$bin" run pending-bit --layout shared,aligned,padded --policy "$policy" $(drain "$policy") --reps "$reps" --duration "$dur" \
    --warmup "$warm" --quiet --out "$tmp/on-$policy.csv" 2>/dev/null || [ $? -eq 4 ]
done
echo
printf '%-14s %-8s %-22s %-22s %s\n' policy role "CV shared, off" "CV shared, on" "invalid attempts (off run; on run)"
for policy in rmw test-then-set; do
  for role in writer reader; do
    printf '%-14s %-8s %-22s %-22s %s of %s; %s of %s\n' "$policy" "$role" "$(cv "$tmp/off-$policy.csv" shared ${role}_ns_per_op 0)" \
      "$(cv "$tmp/on-$policy.csv" shared ${role}_ns_per_op 1)" "$(count "$tmp/off-$policy.csv" no)" \
      "$(( $(count "$tmp/off-$policy.csv" no) + $(count "$tmp/off-$policy.csv" yes) ))" "$(count "$tmp/on-$policy.csv" no)" \
      "$(( $(count "$tmp/on-$policy.csv" no) + $(count "$tmp/on-$policy.csv" yes) ))"
  done
done
echo "off: every repetition counted, none re-run; on: invalid attempts re-run (up to --max-attempts 3), CV over valid rows only."
reasons=$(cat "$tmp"/on-*.csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "invalid_reason") r = i; next } $1 != "schema_version" { print $r }' |
  grep -o '[a-z]*: ' | sort | uniq -c | sort -rn | head -5 || true)
echo "The most common reasons in the on run: ${reasons:-none (no attempt was invalid)}"
