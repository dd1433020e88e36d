#!/usr/bin/env bash
# `make bench`: `c2cbench import core-to-core-latency` on made-up matrices of 256 PUs (linux:2x64x2)
# and 1,024 PUs (linux:4x128x2/8), in that tool's --csv form (lower triangle), timed: the aim is
# under a second for 256 PUs and seconds for 1,024 (docs/import.md); then `compare` of the two, two
# machines of different shapes (their pairs join by class, not by pair: the join must stay linear
# in the configurations). Not a test: it reports.
# Usage: bench-import.sh C2CBENCH
set -euo pipefail
bin=${1:-./c2cbench}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "== import core-to-core-latency: made-up matrices (lower triangle, 20-220 ns) =="
printf '%6s %-18s %10s %8s %8s %12s\n' PUs topology pairs wall_s user_s max_rss_MB
for spec in 256:linux:2x64x2 1024:linux:4x128x2/8; do
  n=${spec%%:*} topo=${spec#*:}
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) { line = "";
      for (j = 0; j < n; j++) line = line (j ? "," : "") (j < i ? sprintf("%.5f", 20 + (i * 7 + j * 13) % 200) : "");
      print line } }' >"$tmp/m$n.csv"
  /usr/bin/time -f '%e %U %M' -o "$tmp/time" "$bin" import core-to-core-latency "$tmp/m$n.csv" \
    --topology "$topo" --label "made-up-$n" --out "$tmp/out$n" >/dev/null
  read -r w u m <"$tmp/time"
  printf '%6s %-18s %10s %8s %8s %12s\n' "$n" "$topo" $((n * (n - 1) / 2)) "$w" "$u" "$((m / 1024))"
done
echo "== compare of the two imports (256 against 1,024 PUs) =="
printf '%10s %8s %8s %12s\n' out_lines wall_s user_s max_rss_MB
/usr/bin/time -f '%e %U %M' -o "$tmp/time" "$bin" compare "$tmp/out256" "$tmp/out1024" >"$tmp/cmp.txt"
read -r w u m <"$tmp/time"
printf '%10s %8s %8s %12s\n' "$(wc -l <"$tmp/cmp.txt")" "$w" "$u" "$((m / 1024))"
