#!/usr/bin/env bash
# Reference results: run the quick and seeds presets on this machine into
# results/reference/MACHINE/ and build its report there; with --combine, build one report over
# every machine under results/reference/ (the machines side by side).
#   scripts/reference.sh epyc-zen5-bhyve-2vcpu  # MACHINE: CPU, hypervisor, size
#   scripts/reference.sh xeon-16c         # on the 16-core Xeon VM
#   scripts/reference.sh --combine        # after copying both machine directories together
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${C2C_BIN:-./c2cbench}
ref=results/reference
if [ "${1:-}" = --combine ]; then
  inputs=()
  for d in "$ref"/*/*-quick "$ref"/*/*-seeds; do [ -d "$d" ] && inputs+=("$d"); done
  [ ${#inputs[@]} -gt 0 ] || { echo "reference.sh: no preset runs under $ref/*/" >&2; exit 2; }
  rm -rf "$ref/report"
  "$bin" report "${inputs[@]}" -o "$ref/report"
  exit 0
fi
machine=${1:?usage: scripts/reference.sh MACHINE-NAME | --combine}
case $machine in *[!A-Za-z0-9._-]*|report) echo "reference.sh: '$machine' is not accepted; accepted: letters, digits, . _ - (not 'report')" >&2; exit 2;; esac
[ -x "$bin" ] || make -j2 c2cbench
out=$ref/$machine
mkdir -p "$out"
"$bin" preset quick --results "$out"
"$bin" preset seeds --results "$out"
rm -rf "$out/report"
"$bin" report "$out"/*-quick "$out"/*-seeds -o "$out/report"
echo "reference results for $machine in $out; then: scripts/reference.sh --combine"
