#!/usr/bin/env bash
# Made-up result CSVs for scale checks: ROWS rows in all, 50 machines (labels m01..m50), 25 a side.
# Machine k of A and machine k of B ran the same configurations (writers = k), 5 repetitions each;
# B is 10% faster. Writes DIR/A/*.csv and DIR/B/*.csv. Usage: gen-rows.sh ROWS DIR
# A fleet of one sweep instead (report's scale check): gen-rows.sh ROWS DIR MACHINES CONFIGS: every
# machine ran the same CONFIGS configurations (writers = 1), ROWS / MACHINES / CONFIGS repetitions each.
set -euo pipefail
rows=$1 dir=$2 machines=${3:-50} shared=${4:-0}
mkdir -p "$dir/A" "$dir/B"
awk -v rows="$rows" -v dir="$dir" -v machines="$machines" -v shared="$shared" 'BEGIN {
  per = int(rows / machines)
  if (shared > 0) { configs = shared; reps = int(per / configs) } else { reps = 5; configs = int(per / reps) }
  hdr = "schema_version,bench,layout,rep,offset,policy,placement,writers,readers,mem_node,work_ns,drain_us,duration_requested_s,warmup_requested_s,writer_ops,writer_ns_per_op,reader_ops,reader_ns_per_op,label,host,cpu_model,kernel,valid,invalid_reason,attempt,seed,na_reason"
  srand(1)
  for (m = 1; m <= machines; m++) {
    side = m <= machines / 2 ? "A" : "B"; k = shared > 0 ? 1 : side == "A" ? m : m - machines / 2
    f = sprintf("%s/%s/m%02d.csv", dir, side, m)
    print hdr > f
    for (c = 0; c < configs; c++) {
      off = 8 * (c % 32 + 1); work = int(c / 32)
      for (r = 0; r < reps; r++) {
        base = (off < 64 ? 40 : 6) * (1 + work / 100.0) * (side == "B" ? 0.9 : 1)
        w = base * (1 + 0.02 * (rand() - 0.5)); rd = base / 2 * (1 + 0.02 * (rand() - 0.5))
        printf "2,pending-bit,offset-%d,%d,%d,rmw,same-socket,%d,1,0,%d,0,1,0.2,%d,%.4f,%d,%.4f,m%02d,host%02d,Made-up CPU %s,6.1.0,yes,,1,%d,\n", off, r, off, k, work, 1e9 / w, w, 1e9 / rd, rd, m, m, side, 12345 + m > f
      }
    }
    close(f)
  }
}'
