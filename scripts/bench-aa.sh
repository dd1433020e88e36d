#!/usr/bin/env bash
# `make bench`, the false-positive rate with no effect: the quick preset twice on this machine,
# under two labels (an A/A comparison: every configuration against itself), then compare A B. It
# counts the lines compare tests (enough repetitions for the U test to reach p < 0.05) and how
# many it calls a change, before (raw p < 0.05 and the interval off 1, each line alone) and after
# (the table's Holm or Benjamini-Hochberg adjusted p, what compare's verdict uses). With no
# effect both should be near or under 5%. Not a test: it reports, it does not fail.
# Usage: bench-aa.sh C2CBENCH
set -euo pipefail
bin=${1:-./c2cbench}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "== A/A: the quick preset twice (labels aa-a, aa-b), compare A B: changes called with no effect =="
for side in a b; do
  "$bin" preset quick --label "aa-$side" --results "$tmp/$side" >"$tmp/$side.log" 2>&1 || {
    rc=$?; [ "$rc" -eq 4 ] || { echo "preset quick (aa-$side) failed ($rc):"; tail -5 "$tmp/$side.log"; exit 1; }
  }
done
"$bin" compare "$tmp/a" "$tmp/b" --json >"$tmp/aa.json"
jq -r '
  [.lines[] | select(.p_adjusted != null)] as $t
  | ($t | length) as $n
  | ([$t[] | select(.p_value < 0.05 and (.ci_low > 1 or .ci_high < 1))] | length) as $raw
  | ([$t[] | select(.significant)] | length) as $adj
  | "tests: \($n) (adjusted by \(.p_adjust)); changes called on raw p: \($raw)"
    + (if $n > 0 then " (\($raw * 1000 / $n | round / 10)%)" else "" end)
    + "; on the adjusted p (the verdict): \($adj)"
    + (if $n > 0 then " (\($adj * 1000 / $n | round / 10)%)" else "" end)
' "$tmp/aa.json"
