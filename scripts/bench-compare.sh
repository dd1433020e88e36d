#!/usr/bin/env bash
# `make bench`, compare and report at scale: 10,000 and 1,000,000 made-up rows (scripts/gen-rows.sh: 50 machines,
# 25 a side, 5 repetitions per configuration), timed side by side. Memory and time must grow with the
# rows (a ratio near 100), not with their square. Not a test: it reports, it does not fail.
# Usage: bench-compare.sh C2CBENCH
set -euo pipefail
bin=${1:-./c2cbench}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "== compare at scale: made-up CSVs (50 machines, 25 a side, B 10% faster), compare A B --csv =="
printf '%10s %14s %10s %10s %12s %12s\n' rows configurations wall_s user_s max_rss_MB out_lines
declare -A wall user
for rows in 10000 1000000; do
  bash "$here/gen-rows.sh" "$rows" "$tmp/$rows"
  /usr/bin/time -f '%e %U %M' -o "$tmp/time" "$bin" compare "$tmp/$rows/A" "$tmp/$rows/B" --csv >"$tmp/out.csv"
  read -r w u m <"$tmp/time"
  wall[$rows]=$w user[$rows]=$u
  printf '%10s %14s %10s %10s %12s %12s\n' "$rows" $((rows / 10)) "$w" "$u" "$((m / 1024))" "$(($(wc -l <"$tmp/out.csv") - 1))"
  rm -rf "${tmp:?}/$rows"
done
awk -v a="${user[10000]}" -v b="${user[1000000]}" -v c="${wall[10000]}" -v d="${wall[1000000]}" 'BEGIN {
  u = (a > 0) ? sprintf("%.0f", b / a) : "NA (under the timer resolution)"; w = (c > 0) ? sprintf("%.0f", d / c) : "NA"
  printf("1,000,000 / 10,000 rows: user time x%s, wall time x%s (linear: about 100; wall time includes other load)\n", u, w) }'

# report at scale: a fleet of 10 machines that ran one sweep (64 configurations), 10,000 and
# 1,000,000 rows (15 and 1,562 repetitions per configuration and machine): the bootstrap intervals
# and U tests over thousands of repetitions a side are what this measures.
echo "== report at scale: made-up CSVs (10 machines, the same 64 configurations, B 10% faster), report A B -o DIR =="
printf '%10s %14s %10s %10s %12s %8s\n' rows reps_per_cell wall_s user_s max_rss_MB charts
for rows in 10000 1000000; do
  bash "$here/gen-rows.sh" "$rows" "$tmp/$rows" 10 64
  /usr/bin/time -f '%e %U %M' -o "$tmp/time" "$bin" report "$tmp/$rows/A" "$tmp/$rows/B" -o "$tmp/report-$rows" >"$tmp/out.txt"
  read -r w u m <"$tmp/time"
  wall[$rows]=$w user[$rows]=$u
  printf '%10s %14s %10s %10s %12s %8s\n' "$rows" $((rows / 640)) "$w" "$u" "$((m / 1024))" "$(ls "$tmp/report-$rows"/*.png | wc -l)"
  rm -rf "${tmp:?}/$rows" "${tmp:?}/report-$rows"
done
awk -v a="${user[10000]}" -v b="${user[1000000]}" -v c="${wall[10000]}" -v d="${wall[1000000]}" 'BEGIN {
  u = (a > 0) ? sprintf("%.0f", b / a) : "NA (under the timer resolution)"; w = (c > 0) ? sprintf("%.0f", d / c) : "NA"
  printf("1,000,000 / 10,000 rows: user time x%s, wall time x%s (linear: about 100; gnuplot draws the same 2 charts at both sizes)\n", u, w) }'
