#!/usr/bin/env bash
# Boot one zoo guest and run its checks inside; its results and console log stay in build/zoo/NAME/.
#   scripts/zoo/boot.sh NAME      (a line of scripts/zoo/guests.tsv; ZOO_TIMEOUT seconds in all, default
#   900; ZOO_BOOT_TIMEOUT seconds to reach our init, default 300)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
proj=$(cd "$here/../.." && pwd)
cache=$proj/build/zoo/cache
name=$1
line=$(awk -F'\t' -v n="$name" '$1 == n' "$here/guests.tsv")
[ -n "$line" ] || { echo "zoo: no guest '$name' in scripts/zoo/guests.tsv" >&2; exit 2; }
IFS=$'\t' read -r _ arch cpu smp numa checks <<< "$line"
checks=${ZOO_CHECKS:-$checks}   # ZOO_CHECKS=a,b: run only these (while working on a check)
# The whole cmocka suite inside a guest takes far longer than the other checks under TCG
# (docs/hacking.md): only with ZOO_SUITE=1 (make test-system-suite).
[ -n "${ZOO_SUITE:-}" ] || checks=$(echo "$checks" | sed 's/,suite//; s/^suite,\{0,1\}//')
dir=$proj/build/zoo/$name
rm -rf "$dir"
mkdir -p "$dir"

# NUMA: "0-3:1G,4-7:1G" -> one memory backend and one -numa node each; "2G" -> plain memory.
mem=() total=0
tomb() { case $1 in *G) echo $(( ${1%G} * 1024 )) ;; *M) echo "${1%M}" ;; esac; }
if [[ $numa == *:* ]]; then
  i=0
  IFS=, read -ra nodes <<< "$numa"
  for n in "${nodes[@]}"; do
    cpus=${n%%:*} size=$(tomb "${n#*:}")
    total=$(( total + size ))
    mem+=(-object "memory-backend-ram,id=m$i,size=${size}M")
    if [ "$cpus" = - ]; then mem+=(-numa "node,nodeid=$i,memdev=m$i")
    else mem+=(-numa "node,nodeid=$i,cpus=$cpus,memdev=m$i"); fi
    i=$((i + 1))
  done
else
  total=$(tomb "$numa")
fi

script=$dir/run.sh
if [ "$arch" = arm64 ]; then
  qemu=(qemu-system-aarch64 -machine virt) console=ttyAMA0 mode=busybox kopt=
else
  # no_timer_check: on a busy host, TCG is too slow for the boot's IO-APIC timer check, which
  # then panics ("IO-APIC + timer doesn't work!"), as it is known to in other VMs
  qemu=(qemu-system-x86_64 -machine q35) console=ttyS0 mode=chroot kopt=no_timer_check
fi
# ZOO_SUITE_TESTS=test_a,test_b: the suite check runs only these binaries (while chasing one).
tests=${ZOO_SUITE_TESTS:-}
[[ $tests =~ ^[a-z0-9_,]*$ ]] || { echo "zoo: ZOO_SUITE_TESTS '$tests': accepted: test names, comma-separated" >&2; exit 2; }
echo "ZOO_SUITE_TESTS='$tests' sh \"\${ZOO_ROOT:-}$proj/scripts/zoo/guest.sh\" '$proj' '$dir' $arch ${checks//,/ }" > "$script"
# ZOO_BOOT_TIMEOUT: the seconds a kernel may take to reach our init (see below).
boot_limit=${ZOO_BOOT_TIMEOUT:-300}
[[ $boot_limit =~ ^[1-9][0-9]*$ ]] ||
  { echo "zoo: ZOO_BOOT_TIMEOUT '$boot_limit': accepted: seconds, a whole number above 0" >&2; exit 2; }
bash "$here/initrd.sh" "$arch" "$cache"
start=$(date +%s)
set +e
timeout "${ZOO_TIMEOUT:-900}" "${qemu[@]}" -accel tcg,thread=multi -cpu "$cpu" -smp "$smp" -m "${total}M" \
  "${mem[@]}" -nodefaults -display none -serial stdio -no-reboot -net none \
  -virtfs "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap" \
  -virtfs "local,path=$proj,mount_tag=proj,security_model=none,multidevs=remap" \
  -kernel "$cache/vmlinuz-$arch" -initrd "$cache/initrd-$arch.gz" \
  -append "console=$console quiet panic=-1 $kopt zoo.name=$name zoo.proj=$proj zoo.script=$script zoo.mode=$mode" \
  < /dev/null > "$dir/console.log" 2>&1 &
qpid=$!
# A kernel that has not reached our init in ZOO_BOOT_TIMEOUT seconds (default 300) is stopped, and
# run.sh boots it once more. big32 reaches its init in about 80 s; on 3 Dec 2026 its boot hung on
# the 2-vCPU development VM and sat out the whole ZOO_TIMEOUT (900 s), then booted and ran all its
# checks in 159 s.
while kill -0 $qpid 2>/dev/null && ! grep -q '^=== begin' "$dir/console.log"; do
  if [ $(( $(date +%s) - start )) -ge "$boot_limit" ]; then
    echo "zoo: guest $name did not reach its init in $boot_limit s (ZOO_BOOT_TIMEOUT); stopping it" >&2
    kill $qpid   # timeout passes the TERM on to qemu
    break
  fi
  sleep 2
done
wait $qpid
rc=$?
set -e
echo "$(( $(date +%s) - start ))" > "$dir/seconds"
grep -q '^=== end rc=0' "$dir/console.log" ||
  { echo "zoo: guest $name did not finish (qemu exit $rc); see $dir/console.log" >&2; tail -5 "$dir/console.log" >&2; exit 1; }
