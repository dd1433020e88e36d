#!/bin/sh
# Runs inside a zoo guest (POSIX sh: busybox ash on arm64, the host's sh in the x86 chroot).
#   guest.sh PROJ OUTDIR ARCH CHECK...
# Writes OUTDIR/topo.txt, the guest's own sysfs topology (what the host-side checks judge by, never
# c2cbench's topology code), then runs scripts/zoo/checks/CHECK.sh for each CHECK with OUT set to
# OUTDIR/CHECK and these helpers:
#   c2c NAME ARGS...   runs c2cbench ARGS, keeping NAME.out, NAME.err and NAME.rc under OUT
#   LENIENT            validity rules relaxed for emulation (TCG timings mean nothing), as in the suite
proj=$1 outdir=$2 arch=$3; shift 3
R=${ZOO_ROOT:-}
if [ "$arch" = arm64 ]; then
  lib=$R/usr/lib/aarch64-linux-gnu:$R/lib/aarch64-linux-gnu
  printf '#!/bin/sh\nexec %s --library-path %s %s "$@"\n' "$R/lib/ld-linux-aarch64.so.1" "$lib" \
    "$R$proj/build/arm64/c2cbench" > /tmp/c2cbench
else
  printf '#!/bin/sh\nexec %s "$@"\n' "$proj/c2cbench" > /tmp/c2cbench
fi
chmod +x /tmp/c2cbench
C2C=/tmp/c2cbench
# arm64: presets re-run this binary through the loader, and find the presets in the project.
[ "$arch" = arm64 ] && export C2C_SELF_EXEC=/tmp/c2cbench C2C_PRESET_PATH=$R$proj/presets
LENIENT=$(cat "$R$proj/scripts/zoo/lenient.txt")   # the rules relaxed, as tests/testutil.h LENIENT
out=$R$outdir
mkdir -p "$out"

# One line per online CPU: cpu, package, core (first PU of its core), last-level cache (first PU
# sharing it, or -),
# NUMA node; then one line per node: its memory in kB and its CPUs.
topo() {
  for d in /sys/devices/system/cpu/cpu[0-9]*; do
    [ -e "$d/topology/physical_package_id" ] || continue
    c=${d##*cpu}
    pkg=$(cat "$d/topology/physical_package_id")
    core=$(sed 's/[-,].*//' "$d/topology/thread_siblings_list")
    llc=- best=0   # the highest cache level (an L3, else an L2) that holds data
    for i in "$d"/cache/index*; do
      [ -e "$i/level" ] && [ "$(cat "$i/type")" != Instruction ] || continue
      lv=$(cat "$i/level")
      [ "$lv" -gt "$best" ] && [ "$lv" -ge 2 ] && best=$lv llc=$(sed 's/[-,].*//' "$i/shared_cpu_list")
    done
    node=$(ls -d "$d"/node* 2>/dev/null | sed -n '1s/.*node//p')
    echo "cpu=$c pkg=$pkg core=$core llc=$llc node=${node:--}"
  done
  for n in /sys/devices/system/node/node[0-9]*; do
    [ -d "$n" ] || continue
    kb=$(sed -n 's/.*MemTotal: *\([0-9]*\) kB/\1/p' "$n/meminfo")
    echo "node=${n##*node} mem_kb=$kb cpus=$(cat "$n/cpulist")"
  done
}
topo > "$out/topo.txt"
# For a person reading: how c2cbench (and hwloc, where the host has its tools) saw this guest, and the
# kernel's own package and die sets.
"$C2C" topo > "$out/c2cbench-topo.txt" 2>&1
command -v hwloc-ls > /dev/null && hwloc-ls > "$out/hwloc-ls.txt" 2>&1
for f in /sys/devices/system/cpu/cpu[0-9]*/topology; do
  echo "${f%/topology}: package $(cat $f/package_cpus_list 2>/dev/null) die $(cat $f/die_cpus_list 2>/dev/null) die_id $(cat $f/die_id 2>/dev/null)"
done > "$out/sysfs-topology.txt"
c2c() {
  name=$1; shift
  "$C2C" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
  echo $? > "$OUT/$name.rc"
}
for check in "$@"; do
  OUT=$out/$check
  mkdir -p "$OUT"
  echo "zoo: check $check" >&2
  start=$(date +%s)
  . "$R$proj/scripts/zoo/checks/$check.sh" < /dev/null
  echo "$(( $(date +%s) - start ))" > "$OUT/seconds"
done
