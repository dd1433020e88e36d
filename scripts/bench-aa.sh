#!/usr/bin/env bash
# `make bench`, the false-positive rate with no effect: AA_PAIRS A/A pairs, each the quick preset
# twice on this machine under two labels (every configuration against itself), then compare A B
# (and report A B, when gnuplot is there). It counts the lines compare tests (enough repetitions
# for the U test to reach p < 0.05) and how many it calls a change, side by side in one run:
# before (raw p < 0.05 and the interval off 1, each line alone, as the report's detail tables
# judged until they adjusted) and after (the table's Holm or Benjamini-Hochberg adjusted p, what
# compare's verdict uses), as a share of the tests and as a share of the tables (A/A pairs) with
# any change called (what Holm holds at 5%). With no effect both should be near or under 5%.
# The report's detail tables are counted as they are now (the adjusted verdict).
# Not a test: it reports, it does not fail.
# Usage: bench-aa.sh C2CBENCH
#   AA_PAIRS (default 5): A/A pairs; AA_DURATION (s, default 0.5) and AA_REPS (default 5): the
#   quick preset's duration and repetitions, shortened so that the pairs fit in a few minutes;
#   AA_ARGS: more preset options for every run (--max-attempts N, --valid-RULE ...), said in the output.
set -euo pipefail
bin=${1:-./c2cbench}
here=$(cd "$(dirname "$0")" && pwd)
pairs=${AA_PAIRS:-5} dur=${AA_DURATION:-0.5} reps=${AA_REPS:-5}
for v in "$pairs" "$reps"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench-aa.sh: AA_PAIRS/AA_REPS '$v' is not accepted; accepted: a whole number >= 1" >&2; exit 2; }
done
[[ $dur =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bench-aa.sh: AA_DURATION '$dur' is not accepted; accepted: seconds such as 0.5" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the quick preset with its [defaults] duration and reps replaced (its runs, layouts and policies kept)
awk -v d="$dur" -v r="$reps" '/^\[/ { sec = $0 }
  sec == "[defaults]" && /^duration *=/ { print "duration = " d; next }
  sec == "[defaults]" && /^reps *=/ { print "reps = " r; next } { print }' \
  "$here/../presets/quick.ini" >"$tmp/aa-quick.ini"
has_plot=0; command -v gnuplot >/dev/null && has_plot=1
read -r -a extra <<<"${AA_ARGS:-}"
echo "== A/A: $pairs pair(s) of the quick preset (${dur}s x $reps reps${AA_ARGS:+, $AA_ARGS}) twice, labels aa-a and aa-b, compare A B: changes called with no effect =="
printf '%-5s %6s %6s %-6s %16s %20s %s\n' pair lines tests adjust "raw p (before)" "adjusted p (after)" "report details (after)"
T=0 R=0 A=0 TR=0 TA=0 RL=0 RC=0
for i in $(seq 1 "$pairs"); do
  for side in a b; do
    "$bin" preset "$tmp/aa-quick.ini" "${extra[@]}" --label "aa-$side" --results "$tmp/$i$side" >"$tmp/$i$side.log" 2>&1 || {
      rc=$?; [ "$rc" -eq 4 ] || { echo "preset quick (pair $i, aa-$side) failed ($rc):"; tail -5 "$tmp/$i$side.log"; exit 1; }
    }
  done
  "$bin" compare "$tmp/${i}a" "$tmp/${i}b" --json >"$tmp/$i.json"
  read -r nl n adj raw sig < <(jq -r '[.lines[] | select(.p_adjusted != null)] as $t
    | [(.lines | length), ($t | length), .p_adjust,
       ([$t[] | select(.p_value < 0.05 and (.ci_low > 1 or .ci_high < 1))] | length),
       ([$t[] | select(.significant)] | length)] | @tsv' "$tmp/$i.json")
  rep="not run (no gnuplot)"
  if [ "$has_plot" = 1 ]; then # the report's detail ratio tables: lines with a verdict, changes called
    "$bin" report "$tmp/${i}a" "$tmp/${i}b" -o "$tmp/$i-report" >/dev/null 2>&1 || { echo "report (pair $i) failed"; exit 1; }
    md="$tmp/$i-report/report.md"
    lines=$(sed -n '/^## Machines/,$p' "$md" | grep -cE '\| (faster|slower|better|worse|higher|lower) by |\| no significant change \|' || true)
    calls=$(sed -n '/^## Machines/,$p' "$md" | grep -cE '\| (faster|slower|better|worse|higher|lower) by ' || true)
    rep="$calls of $lines lines"; RL=$((RL + lines)) RC=$((RC + calls))
  fi
  printf '%-5s %6s %6s %-6s %16s %20s %s\n' "$i" "$nl" "$n" "$adj" "$raw" "$sig" "$rep"
  T=$((T + n)) R=$((R + raw)) A=$((A + sig)) TR=$((TR + (raw > 0))) TA=$((TA + (sig > 0)))
done
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "NA"; else printf "%.1f%%", 100 * a / b }'; }
echo "tests: $T in $pairs table(s); changes called on the raw p (before): $R ($(pct "$R" "$T") of tests), tables with any: $TR of $pairs ($(pct "$TR" "$pairs"))"
echo "on the adjusted p (after, the verdict): $A ($(pct "$A" "$T") of tests), tables with any: $TA of $pairs ($(pct "$TA" "$pairs"))"
[ "$has_plot" = 1 ] && echo "report detail tables (after): $RC of $RL lines called a change ($(pct "$RC" "$RL"))"
exit 0
