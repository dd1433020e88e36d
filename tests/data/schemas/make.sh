#!/bin/bash
# How tests/data/schemas/vN were made (README.md beside this script): each from a real run, copied
# and trimmed here. Run from the repository root with SRC_N set to each result directory:
#   vN from a revision of schema N: `git worktree add /work/h37-old/vN REV`, `make`, presets/quick.ini
#   edited to reps = 2, `./c2cbench preset quick [--label vN]`; where that revision's quick had no
#   baseline, `./c2cbench run pingpong --reps 2 --pairs classes --out DIR/03-baseline.csv` into it.
#   v6: results/reference/epyc-zen3-kvm-2vcpu/vm-20261201T154250-quick; v10: a quick run of today's
#   build; both trimmed to repetitions 0 and 1. v11 to v13: a copy of presets/quick.ini with reps = 2,
#   `./c2cbench preset COPY --results DIR --label L` (v11: today, v12: v12, v13: v13).
# Usage: bash tests/data/schemas/make.sh N SRC_DIR
set -eu
n=$1 src=$2 dst=tests/data/schemas/v$n
rm -rf "$dst"
mkdir -p "$dst"
for f in "$src"/*; do
	case "$f" in
	*.log) ;; # console output: not part of what compare reads
	*.csv) python3 - "$f" "$dst/$(basename "$f")" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
rep = rows[0].index('rep') if 'rep' in rows[0] else None
side = 'side_table' in rows[0]
keep = [r for r in rows[1:] if side or rep is None or r[rep] in ('0', '1')]
w = csv.writer(open(sys.argv[2], 'w', newline=''), lineterminator='\n')
w.writerow(rows[0])
w.writerows(keep)
PY
		;;
	*) cp "$f" "$dst/" ;;
	esac
done
# a .meta's [run] rows: the rows kept (compare and report warn about a CSV that lost rows)
for f in "$dst"/*.csv; do
	m=${f%.csv}.meta
	[ -f "$m" ] || continue
	n=$(python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline=""))) - 1)' "$f")
	sed -i "/^\[run\]/,\$ s/^rows = .*/rows = $n/" "$m"
done
