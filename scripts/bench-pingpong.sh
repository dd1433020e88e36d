#!/usr/bin/env bash
# make bench, pingpong part: c2cbench pingpong's minimum one-way latency per pair next to the
# independent scripts/pingpong_ref.c, measured alternately in the same run, and the ratio (target:
# within 10%); then a 5-repetition run whose summary gives the CV of the per-class medians (target < 3%);
# then the full matrix with --concurrent 1 and auto side by side (time ratio: target near the pairs
# measured at once) with auto's per-class concurrent/alone ratios (target: every class within 5%), and
# the dry-run plans of synthetic 8- to 512-PU machines (target: each under a second).
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

echo
echo "== full matrix (--pairs all, load-store, 1 repetition): --concurrent 1 and auto, alternating, min wall time of 2"
for ((i = 0; i < 2; i++)); do
  for c in 1 auto; do
    t0=$(date +%s%N)
    "$bin" run pingpong --mode load-store --pairs all --reps 1 --samples $samples --round-trips $trips \
      --concurrent $c --seed $((i + 1)) --out "$tmp/conc-$c-$i.csv" >/dev/null 2>"$tmp/conc-$c-$i.err"
    echo "$c $(( ($(date +%s%N) - t0) / 1000000 ))" >>"$tmp/conc-times.txt"
  done
done
# per run: pairs, rounds, most pairs at once (from the CSV)
shape() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
  { n++; r = $h["rounds"]; if ($h["concurrent"] > m) m = $h["concurrent"] } END { print n, r, m }' "$1"; }
read -r p1 r1 m1 < <(shape "$tmp/conc-1-0.csv")
read -r pa ra ma < <(shape "$tmp/conc-auto-0.csv")
awk -v p1="$p1" -v r1="$r1" -v m1="$m1" -v pa="$pa" -v ra="$ra" -v ma="$ma" '
  { if (!($1 in t) || $2 < t[$1]) t[$1] = $2 }
  END {
    printf "%-12s %8s %8s %10s %10s\n", "concurrent", "pairs", "rounds", "at_once", "wall_s"
    printf "%-12s %8d %8d %10d %10.2f\n", "1", p1, r1, m1, t["1"] / 1000
    printf "%-12s %8d %8d %10d %10.2f\n", "auto", pa, ra, ma, t["auto"] / 1000
    printf "time ratio 1/auto: %.2f (target: near %d, the most pairs measured at once)\n", t["1"] / t["auto"], ma
  }' "$tmp/conc-times.txt"
echo "per-class accuracy check of the auto run (median concurrent/alone over the sample pairs; target within 5%):"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
  !seen[$h["class"]]++ { printf "  %-14s pairs %s  ratio %s  spread %s-%s  %s\n", $h["class"], $h["check_class_pairs"],
    $h["check_class_ratio"], $h["check_class_ratio_lo"], $h["check_class_ratio_hi"], $h["check_status"] }' "$tmp/conc-auto-0.csv"
grep -h "falls back" "$tmp"/conc-auto-*.err || true
[ "$ma" -le 1 ] && echo "note: $npu PU(s) here give one pair at once: both runs measure the same thing and the ratios compare alone with alone (run-to-run noise)"

echo
echo "== dry-run plans on synthetic machines (target: each under a second)"
for t in "pack:1 core:4 pu:2|auto" "pack:2 core:16 pu:2|auto" "pack:2 numa:1 core:64 pu:2|auto" \
         "pack:2 numa:1 core:64 pu:2|all" "pack:2 numa:2 core:64 pu:2|auto" \
         "pack:2 l3:8 core:24 pu:2|all" "pack:2 l3:8 core:32 pu:2|all"; do
  topo=${t%|*} sel=${t#*|}
  t0=$(date +%s%N)
  line=$("$bin" run pingpong --topology "synthetic:$topo" --dry-run --pairs "$sel" --concurrent auto 2>/dev/null | head -1)
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  printf '%6d ms  %-30s %s\n' "$ms" "$topo" "$(echo "$line" | sed 's/ x 2 mode(s) x [0-9]* repetition(s)//; s/ (at .*//')"
done
