#!/usr/bin/env bash
# The checks that need 16 or more real cores, in at most 8 minutes, into
# results/reference/MACHINE/cores16-DATE/ with a README written from what ran:
#   1. pending-bit, 1 writer + 15 readers: shared against aligned, per role (writer and reader ns/op);
#   2. pingpong --pairs all, one pair at a time and --concurrent auto: per-class medians side by
#      side (c2cbench compare) and the two runs' wall times (the matrix time ratio);
#   3. vmalloc with the seed's 16 workers spread over the packages, every layout.
#   scripts/reference-16c.sh MACHINE      (c2cbench built; run on the machine itself, nothing else busy)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${C2C_BIN:-./c2cbench}
machine=${1:?usage: scripts/reference-16c.sh MACHINE-NAME}
case $machine in *[!A-Za-z0-9._-]*) echo "reference-16c.sh: '$machine' is not accepted; accepted: letters, digits, . _ -" >&2; exit 2;; esac
cpus=$(nproc)
[ "$cpus" -ge 16 ] || { echo "reference-16c.sh: this machine has $cpus CPUs; accepted: 16 or more" >&2; exit 2; }
out=results/reference/$machine/cores16-$(date -u +%Y%m%dT%H%M%S)
mkdir -p "$out"
"$bin" topo > "$out/topo.txt"
secs() { date +%s.%N; }

"$bin" run pending-bit --writers 1 --readers 15 --layout shared,aligned --policy rmw --reps 7 \
  --duration 1 --warmup 0.2 --label "$machine" --out "$out/pending-bit-1w15r.csv" > "$out/pending-bit-1w15r.txt"

t0=$(secs)
"$bin" run pingpong --pairs all --concurrent 1 --reps 1 --samples 200 --label alone \
  --out "$out/pingpong-alone.csv" --matrix "$out/pingpong-alone.matrix" > "$out/pingpong-alone.txt"
t1=$(secs)
"$bin" run pingpong --pairs all --concurrent auto --reps 1 --samples 200 --label concurrent \
  --out "$out/pingpong-concurrent.csv" --matrix "$out/pingpong-concurrent.matrix" > "$out/pingpong-concurrent.txt"
t2=$(secs)
"$bin" compare "$out/pingpong-alone.csv" "$out/pingpong-concurrent.csv" > "$out/pingpong-compare.txt" || true

"$bin" run vmalloc --threads 16 --placement spread --reps 9 --duration 0.5 --warmup 0.1 \
  --label "$machine" --out "$out/vmalloc-16.csv" > "$out/vmalloc-16.txt"

alone=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')
conc=$(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.1f", b - a}')
ratio=$(awk -v a="$alone" -v b="$conc" 'BEGIN{printf "%.2f", a / b}')
{
  echo "# 16-core reference: $machine, $(date -u +%Y-%m-%d)"
  echo
  echo "Written by \`scripts/reference-16c.sh $machine\` (c2cbench $("$bin" --version | head -1))."
  echo "The machine as c2cbench saw it:"
  echo; echo '```'; cat "$out/topo.txt"; echo '```'; echo
  echo "## pending-bit, 1 writer + 15 readers (shared against aligned)"
  echo; echo '```'; cat "$out/pending-bit-1w15r.txt"; echo '```'; echo
  echo "## pingpong, every pair: one at a time against --concurrent auto"
  echo
  echo "Wall time: one pair at a time ${alone} s, concurrent ${conc} s: ${ratio}x faster."
  echo; echo '```'; cat "$out/pingpong-compare.txt"; echo '```'; echo
  echo "## vmalloc, 16 workers spread"
  echo; echo '```'; cat "$out/vmalloc-16.txt"; echo '```'
} > "$out/README.md"
echo "16-core reference results in $out"
