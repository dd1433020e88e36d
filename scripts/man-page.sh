#!/usr/bin/env bash
# Assemble the man page from docs/c2cbench.1.in and the binary's --help (`make` runs it).
# usage: scripts/man-page.sh ./c2cbench > build/c2cbench.1
set -euo pipefail
bin=$1 here=$(dirname "$0")
opts() { python3 "$here/man-options.py" "$bin" "$1"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
opts harness > "$tmp/harness"
# `list` prints a name's description wrapped, its further lines indented: joined again here
joined() { "$bin" list | awk -v k="$1" '/^[^ ]/ { if (n != "") print n "\t" d; n = ""
    if ($1 == k) { n = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); d = $0 }; next }
  n != "" { sub(/^ +/, ""); d = d " " $0 } END { if (n != "") print n "\t" d }'; }
joined bench > "$tmp/bench-list"
for b in $(cut -f1 "$tmp/bench-list"); do
  desc=$(awk -F'\t' -v b="$b" '$1 == b { print $2 }' "$tmp/bench-list")
  printf '.SS %s\n%s\n' "$b" "$(printf '%s' "$desc" | sed 's/\\/\\e/g; s/-/\\-/g')"
  opts "bench:$b"
done > "$tmp/benches"
for c in compare events import list preset report topo "slurm submit"; do
  printf '.SS %s\n' "$c"
  opts "cmd:$c"
done > "$tmp/commands"
joined placement | awk -F'\t' '{ print ".TP\n.B " $1 "\n" $2 }' |
  sed 's/\\/\\e/g; s/-/\\-/g' > "$tmp/placements"
ver=$("$bin" --version | awk '{print $2}')
awk -v h="$tmp/harness" -v p="$tmp/placements" -v b="$tmp/benches" -v c="$tmp/commands" -v ver="$ver" -v date="$(date -u +%Y-%m-%d)" '
  /^@HARNESS@$/ { while ((getline l < h) > 0) print l; next }
  /^@PLACEMENTS@$/ { while ((getline l < p) > 0) print l; next }
  /^@BENCHES@$/ { while ((getline l < b) > 0) print l; next }
  /^@COMMANDS@$/ { while ((getline l < c) > 0) print l; next }
  { gsub(/@VERSION@/, ver); gsub(/@DATE@/, date); print }' "$here/../docs/c2cbench.1.in"
