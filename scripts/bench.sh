#!/usr/bin/env bash
# `make bench`: timing ratios measured side by side in one run. Not a test: it reports, it does not fail.
# Usage: bench.sh C2CBENCH BARE_LOAD CPU_SPEED
set -euo pipefail
bin=${1:-./c2cbench} bare=${2:-build/bare_load} speed=${3:-build/cpu_speed}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
reps=${BENCH_REPS:-5} dur=${BENCH_DURATION:-1}

echo "== pending-bit: 1 writer + 1 reader, $reps reps x ${dur}s, layouts in shuffled order =="
"$bin" run pending-bit --writers 1 --readers 1 --reps "$reps" --duration "$dur" --out "$tmp/pb.csv" || [ $? -eq 4 ] # 4: measured nothing
echo "== harness overhead: the bare single-thread load loop (scripts/bare_load.c) against the padded reader above =="
bare_ns=$("$bare" "$dur" | awk '{print $1}')

# median of a column per layout, from the CSV (header names, not positions)
median() { # file layout column
  awk -F, -v L="$2" -v C="$3" 'NR==1 { for (i = 1; i <= NF; i++) if ($i == C) c = i; for (i = 1; i <= NF; i++) if ($i == "layout") l = i; next }
    $l == L { print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "NA"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA" || b == 0) print "NA"; else printf "%.2f", a / b }'; }

echo
printf '%-8s %14s %14s %14s %16s %16s\n' role shared aligned padded shared/aligned shared/padded
for role in writer reader; do
  s=$(median "$tmp/pb.csv" shared ${role}_ns_per_op); a=$(median "$tmp/pb.csv" aligned ${role}_ns_per_op)
  p=$(median "$tmp/pb.csv" padded ${role}_ns_per_op)
  printf '%-8s %14s %14s %14s %16s %16s\n' "$role" "$s" "$a" "$p" "$(ratio "$s" "$a")" "$(ratio "$s" "$p")"
done
rs=$(median "$tmp/pb.csv" shared reader_ns_per_op); ra=$(median "$tmp/pb.csv" aligned reader_ns_per_op)
rp=$(median "$tmp/pb.csv" padded reader_ns_per_op)
echo
echo "expected here: reader shared/aligned >= 2 -> measured $(ratio "$rs" "$ra")"
awk -v h="$rp" -v b="$bare_ns" 'BEGIN { printf "harness cost: padded reader %.4f ns/op vs bare loop %.4f ns/op: %+.1f%% (target < 3%%)\n", h, b, 100 * (h - b) / b }'

# vmalloc: the seed's own measure, ns per alloc/free cycle per layout, each layout's change against
# shared with its CI and U-test p (the run's summary), beside the seed's figures.
# Many short repetitions: this VM's CPU speed changes within a second (the machine-speed line), and the
# U test needs many repetitions to see a change of a few percent through that.
vreps=${BENCH_VMALLOC_REPS:-31} vdur=${BENCH_VMALLOC_DURATION:-0.2}
echo
echo "== machine speed: every CPU spinning at once, 3 s in 10 ms slices (scripts/cpu_speed.c) =="
"$speed" 3 10
echo
echo "== vmalloc: 2 workers + the drain worker, $vreps reps x ${vdur}s, layouts in shuffled order =="
{ "$bin" run vmalloc --reps "$vreps" --duration "$vdur" --warmup 0.05 --out "$tmp/vm.csv" || [ $? -eq 4 ]; } > "$tmp/vm.txt"
sed -n '/^change against/,/^$/p' "$tmp/vm.txt" # to the seed's figures, or why they are left out
echo "workers on a CPU: $(median "$tmp/vm.csv" shared worker_on_cpu_pct)% of their window (median, shared; the drain worker takes part of worker 0's CPU)"
echo "frees past lazy_max made on the drain worker's CPU: $(median "$tmp/vm.csv" shared over_on_drainer_cpu_pct)% (median, shared; benches/vmalloc/README.md says why this bounds the effect on 2 CPUs)"
echo "purge: $(median "$tmp/vm.csv" shared drains_per_crossing) drains per crossing and $(median "$tmp/vm.csv" shared requeued_per_crossing) re-queued (by a free during its purge: the load decides), $(median "$tmp/vm.csv" shared purge_us_per_crossing) us of modelled purge per crossing (medians, shared; a drain costs --flush-us + --area-ns per area)"
echo "expected here: at most a small change (the purge parks one of the two workers); on 16+ workers over two sockets, toward the seed's 5-13%"

# The small-machine entry (presets/seeds.ini [vmalloc-lazy-max-1]): every free past lazy_max, the
# regime the seed's workers live in while a purge runs, with the entry's many short repetitions.
echo
lreps=${BENCH_VMALLOC_LM_REPS:-101} ldur=${BENCH_VMALLOC_LM_DURATION:-0.1} # as the seeds preset's entry
echo "== vmalloc --lazy-max 1: every free past lazy_max, $lreps reps x ${ldur}s, beside the defaults =="
{ "$bin" run vmalloc --lazy-max 1 --layout shared,aligned,section --reps "$lreps" --duration "$ldur" --warmup 0.03 \
  --out "$tmp/vm1.csv" || [ $? -eq 4 ]; } > "$tmp/vm1.txt"
# layout, metric and its change cell ("-3.01% [-5.98, +1.02] p=0.0018 Holm=0.011") from a
# summary's change lines: a layout's first line names it, its further metrics' lines are indented
cells() {
  awk '/^change against/ { on = 1; next } on && (/^beside/ || /^the seed/ || /^$/) { exit }
    on && /^[a-z]/ { lay = $1 }
    on && lay != "" { for (m = 1; m <= 2; m++) { k = m == 1 ? "cycle_ns" : "cycle_cpu_ns"
      if (match($0, "(^| )" k " [^ ]+ \\[[^]]*\\] p=[^ ]+( Holm=[^ :]+)?")) {
        s = substr($0, RSTART, RLENGTH); sub(/^ /, "", s); print lay, k, substr(s, length(k) + 2) } } }' "$1"
}
printf '%-8s %-13s %-44s %s\n' layout metric "defaults (lazy_max: the kernel's)" "--lazy-max 1"
join -j1 <(cells "$tmp/vm.txt" | awk '{ k = $1 "/" $2; $1 = $2 = ""; sub(/^ +/, ""); print k, $0 }' | sort) \
  <(cells "$tmp/vm1.txt" | awk '{ k = $1 "/" $2; $1 = $2 = ""; sub(/^ +/, ""); print k, "|" $0 }' | sort) |
  awk '{ split($1, kk, "/"); $1 = ""; sub(/^ +/, ""); n = index($0, "|")
    printf "%-8s %-13s %-44s %s\n", kk[1], kk[2], substr($0, 1, n - 1), substr($0, n + 1) }'
echo "--lazy-max 1: workers on a CPU $(median "$tmp/vm1.csv" shared worker_on_cpu_pct)%, frees past lazy_max $(median "$tmp/vm1.csv" shared over_pct)% (medians, shared)"
echo "expected here: aligned's and section's cycle_cpu_ns a few percent below shared's with p < 0.05 when the workers are on a CPU"
echo "a quarter of their window or more; with a tenth (a busy machine) no change was resolved (benches/vmalloc/README.md)"
