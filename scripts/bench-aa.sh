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
# Beside it, the power at the same counts: each pair's B with its verdict metrics planted x2 and
# x1.1 (the real noise of the run kept), compared with A: the share of tests and of families
# (a bench's verdict metrics in one comparison, docs/validity.md "The verdict") called.
# Not a test: it reports, it does not fail.
# Usage: bench-aa.sh C2CBENCH
#   AA_PAIRS (default 5): A/A pairs; AA_DURATION (s, default 0.5): the quick preset's duration,
#   shortened so that the pairs fit in a few minutes; AA_REPS (default: the preset's own, so the
#   power is the preset's);
#   AA_ARGS: more preset options for every run (--max-attempts N, --valid-RULE ...), said in the output.
set -euo pipefail
bin=${1:-./c2cbench}
here=$(cd "$(dirname "$0")" && pwd)
preset_reps=$(awk '/^\[/ { sec = $0 } sec == "[defaults]" && /^reps *=/ { print $3 }' "$here/../presets/quick.ini")
pairs=${AA_PAIRS:-5} dur=${AA_DURATION:-0.5} reps=${AA_REPS:-$preset_reps}
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
T=0 R=0 A=0 TR=0 TA=0 RL=0 RC=0 FAM=0 FA=0
declare -A PT PC PF PFC # per planted factor: tests, called, families, families with every line called
# plant DIR OUT F: a copy of the result sets in DIR with the verdict metrics of quick's benches times F
plant() {
  rm -rf "$2"; cp -r "$1" "$2"
  find "$2" -name '*.csv' | while read -r f; do
    awk -F, -v OFS=, -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(writer|reader)_ns_per_op$|^median_ns$/) m[i] = 1; print; next }
      { for (i in m) if ($i ~ /^[0-9.eE+-]+$/) $i = $i * f; print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
  done
  return 0
}
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
    lines=$(sed -n '/^## Machines/,$p' "$md" | grep -cE '\| (faster|slower|better|worse|higher|lower) by |\| (no change beyond|inconclusive)' || true)
    calls=$(sed -n '/^## Machines/,$p' "$md" | grep -cE '\| (faster|slower|better|worse|higher|lower) by ' || true)
    rep="$calls of $lines lines"; RL=$((RL + lines)) RC=$((RC + calls))
  fi
  printf '%-5s %6s %6s %-6s %16s %20s %s\n' "$i" "$nl" "$n" "$adj" "$raw" "$sig" "$rep"
  T=$((T + n)) R=$((R + raw)) A=$((A + sig)) TR=$((TR + (raw > 0))) TA=$((TA + (sig > 0)))
  # families: a bench's tests in this comparison; one with any change called is a false family
  read -r nf fa < <(jq -r '[.lines[] | select(.p_adjusted != null)] | group_by(.bench)
    | [length, ([.[] | select(any(.[]; .significant))] | length)] | @tsv' "$tmp/$i.json")
  FAM=$((FAM + nf)) FA=$((FA + fa))
  for pf in 2 1.1; do
    plant "$tmp/${i}b" "$tmp/${i}b-x$pf" "$pf"
    "$bin" compare "$tmp/${i}a" "$tmp/${i}b-x$pf" --json >"$tmp/$i-x$pf.json" 2>/dev/null
    read -r pn pc pfam pfull < <(jq -r '[.lines[] | select(.p_adjusted != null)] as $t
      | [($t | length), ([$t[] | select(.significant)] | length),
         ($t | group_by(.bench) | length),
         ($t | group_by(.bench) | [.[] | select(all(.[]; .significant))] | length)] | @tsv' "$tmp/$i-x$pf.json")
    PT[$pf]=$((${PT[$pf]:-0} + pn)) PC[$pf]=$((${PC[$pf]:-0} + pc))
    PF[$pf]=$((${PF[$pf]:-0} + pfam)) PFC[$pf]=$((${PFC[$pf]:-0} + pfull))
  done
done
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "NA"; else printf "%.1f%%", 100 * a / b }'; }
echo "tests: $T in $pairs table(s); changes called on the raw p (before): $R ($(pct "$R" "$T") of tests), tables with any: $TR of $pairs ($(pct "$TR" "$pairs"))"
echo "on the adjusted p (after, the verdict): $A ($(pct "$A" "$T") of tests), tables with any: $TA of $pairs ($(pct "$TA" "$pairs"))"
[ "$has_plot" = 1 ] && echo "report detail tables (after): $RC of $RL lines called a change ($(pct "$RC" "$RL"))"
echo "families (a bench's verdict tests in one comparison) with any change called, no effect: $FA of $FAM ($(pct "$FA" "$FAM")); Holm holds this at 5%"
for pf in 2 1.1; do
  echo "power, B's verdict metrics planted x$pf (this run's noise, $reps repetitions a side): ${PC[$pf]} of ${PT[$pf]} tests called ($(pct "${PC[$pf]}" "${PT[$pf]}")), families with every test called: ${PFC[$pf]} of ${PF[$pf]}"
done
exit 0
