#!/usr/bin/env bash
# A new bench is its source file and its README: a scratch copy of the tree gains
# benches/scratch/scratch.c and benches/scratch/README.md and nothing else (no registry, Makefile,
# test or man page edit), builds, lists, refuses, helps and runs the bench, and passes the whole
# `make test` with it. The bench sets only name, description, variant column, columns and run:
# every other hook is NULL (no prepare: one variant, "default"; no summary list: its declared
# metrics). Its README's column table comes from scripts/bench-columns.sh, as a contributor's
# would. CI runs it after `make test` (the copy reuses build/: only the new file is compiled and
# the tests relinked); after a plain `make` it works too.
set -euo pipefail
. "$(dirname "$0")/scratch-tree.sh"
mkdir -p "$tmp/benches/scratch"
cat > "$tmp/benches/scratch/scratch.c" <<'EOC'
/* A scratch bench (a test's): the calling thread reads the clock for --duration. */
#include "harness/bench.h"

static int sc_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err)
{
	uint64_t t0 = now_ns(), t = t0, n = 0;
	(void)v, (void)rep, (void)err;
	while ((t = now_ns()) - t0 < (uint64_t)(c->duration * 1e9))
		n++;
	row_set(r, "clock_reads", "%llu", (unsigned long long)n);
	if (n)
		row_set(r, "ns_per_read", "%.3f", (double)(t - t0) / (double)n);
	else
		row_na(r, "ns_per_read", "no read in the window");
	return 0;
}

static const struct col_decl sc_columns[] = {
	{ "variant", COL_CONFIG, "text", COL_NOSIDE, "default: its one variant" },
	{ "clock_reads", COL_METRIC, "count", COL_NOSIDE, "clock reads in the window" },
	{ "ns_per_read", COL_METRIC, "ns", COL_LOWER, "ns per clock read" }, { 0 } };
static const struct bench scratch = { .name = "scratch", .desc = "clock reads (a test's)",
	.variant_col = "variant", .columns = sc_columns, .run = sc_run };
BENCH_REGISTER(scratch)
EOC
make -C "$tmp" -s --no-print-directory c2cbench build/tests/test_layers build/tests/test_cli
bin="$tmp/c2cbench"
(cd "$tmp" && C2C_BIN="$bin" build/tests/test_layers && C2C_BIN="$bin" build/tests/test_cli)
# grep reads to the end (no -q): under pipefail a reader that stops early makes a long writer
# die of SIGPIPE, and the pipeline fail by chance.
fail() { echo "scratch-bench: $*" >&2; exit 1; }
"$bin" list | grep '^bench *scratch ' >/dev/null || fail "list does not name it"
"$bin" run scratch --help | grep -- '--duration' >/dev/null || fail "its --help lacks --duration"
if "$bin" run scratch --help | grep -- '--placement' >/dev/null; then fail "--help offers --placement"; fi
said=$("$bin" run scratch --placement auto 2>&1) && fail "--placement was taken: $said"
case "$said" in *"does not take --placement"*) ;; *) fail "not refused by name: $said" ;; esac
"$bin" run scratch --duration 0.05 --warmup 0.01 --reps 2 --out "$tmp/s.csv" >"$tmp/s.out" 2>&1 ||
  fail "the run failed: $(cat "$tmp/s.out")"
grep -q 'ns_per_read' "$tmp/s.out" || fail "the summary lacks ns_per_read: $(cat "$tmp/s.out")"
python3 - "$tmp/s.csv" <<'EOP' || fail "its rows are wrong"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2, rows
for r in rows:
    assert r["bench"] == "scratch" and r["variant"] == "default", r
    assert r["valid"] == "yes", r["invalid_reason"]
    assert float(r["ns_per_read"]) > 0 and int(r["clock_reads"]) > 0, r
    assert "placement" not in r and "mem_node" not in r, sorted(r)
EOP
# Its declared metric reaches every reader with no edit of theirs: the column docs, compare (text
# and JSON) and report, from the declaration alone.
"$bin" list --columns scratch --markdown | grep '^| `ns_per_read` | metric | ns | lower |' >/dev/null ||
  fail "list --columns lacks ns_per_read"
"$bin" run scratch --duration 0.05 --warmup 0.01 --reps 2 --out "$tmp/s2.csv" >/dev/null 2>&1 ||
  fail "the second run failed"
"$bin" compare "$tmp/s.csv" "$tmp/s2.csv" | grep '^  ns_per_read ' >/dev/null || fail "compare lacks it"
"$bin" compare "$tmp/s.csv" "$tmp/s2.csv" --json | grep '"metric": *"ns_per_read"' >/dev/null ||
  fail "compare --json lacks it"
"$bin" report -o "$tmp/rep" "$tmp/s.csv" "$tmp/s2.csv" >/dev/null 2>&1 || fail "report failed"
grep -q 'ns\\_per\\_read' "$tmp/rep/report.md" || fail "the report lacks it"
# Its README, as a contributor writes it: a paragraph, and the column table the declaration gives.
printf '# scratch\n\nA test bench: how fast the calling thread reads the clock.\n' \
  > "$tmp/benches/scratch/README.md"
bash "$tmp/scripts/bench-columns.sh" "$bin" >/dev/null
git -C "$(pwd)" diff --quiet -- benches || fail "bench-columns.sh changed the checkout, not the copy"
# The whole suite, with the new bench among the registered ones: every per-bench expectation of
# the tests comes from the declarations.
make -C "$tmp" -s --no-print-directory test >"$tmp/test.log" 2>&1 ||
  fail "make test with the new bench failed: $(grep -E '^(failing|tests):|ERROR' "$tmp/test.log" | head -20)"
grep '^tests:' "$tmp/test.log"
echo "scratch-bench: a new bench built, listed, refused, helped, run, compared, reported and passed" \
  "the whole make test with no other edit"
