#!/usr/bin/env bash
# make bench, pingpong part: c2cbench pingpong's minimum one-way latency per pair next to the
# independent scripts/pingpong_ref.c, measured alternately in the same run, and the ratio (target:
# within 10%); then a 5-repetition run whose summary gives the CV of the per-class medians (target < 3%).
# usage: bench-pingpong.sh C2CBENCH PINGPONG_REF    (PINGPONG_PAIRS=SPEC overrides the pair selection)
set -eu
bin=$1 ref=$2 reps=5
samples=1000 trips=100
npu=$(getconf _NPROCESSORS_ONLN)
pairs=${PINGPONG_PAIRS:-$([ "$npu" -le 8 ] && echo all || echo classes)}
tmp=$(mktemp -d /tmp/c2c-bench-pingpong-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Column index of NAME in a CSV header (the fields read here come before any quoted field).
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

echo "== pingpong vs pingpong_ref (load-store, min one-way ns, min over $reps alternating runs; pairs: $pairs)"
for ((i = 0; i < reps; i++)); do
  "$bin" run pingpong --quiet --mode load-store --pairs "$pairs" --reps 1 --samples $samples \
    --round-trips $trips --seed $((i + 1)) --out "$tmp/c2c$i.csv" 2>/dev/null
  ca=$(col "$tmp/c2c$i.csv" cpu_a) cb=$(col "$tmp/c2c$i.csv" cpu_b) mn=$(col "$tmp/c2c$i.csv" min_ns)
  cl=$(col "$tmp/c2c$i.csv" class)
  tail -n +2 "$tmp/c2c$i.csv" | cut -d, -f"$ca,$cb,$cl,$mn" | tr ',' ' ' >>"$tmp/c2c.txt"
  tail -n +2 "$tmp/c2c$i.csv" | cut -d, -f"$ca,$cb" | tr ',' ' ' | while read -r a b; do
    echo "$a $b $("$ref" "$a" "$b" $samples $trips | awk '{print $2}')" >>"$tmp/ref.txt"
  done
done
awk 'FNR == NR { k = $1 " " $2; cls[k] = $3; if (!(k in c) || $4 < c[k]) c[k] = $4; next }
     { k = $1 " " $2; if (!(k in r) || $3 < r[k]) r[k] = $3 }
     END {
       printf "%-6s %-6s %-14s %12s %12s %8s\n", "cpu_a", "cpu_b", "class", "pingpong_ns", "ref_ns", "ratio"
       bad = 0
       for (k in c) {
         split(k, p, " "); q = c[k] / r[k]; off = (q < 0.9 || q > 1.1)
         bad += off
         printf "%-6s %-6s %-14s %12.2f %12.2f %8.3f%s\n", p[1], p[2], cls[k], c[k], r[k], q, off ? "  OUTSIDE 10%" : ""
       }
       printf "pairs outside 10%%: %d\n", bad
     }' "$tmp/c2c.txt" "$tmp/ref.txt"

echo
echo "== per-class medians over $reps repetitions, both modes (CV in brackets; target < 3%)"
"$bin" run pingpong --pairs "$pairs" --reps $reps --samples $samples --round-trips $trips --out "$tmp/reps.csv"
