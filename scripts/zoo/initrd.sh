#!/usr/bin/env bash
# A zoo guest's initramfs: static busybox, the kernel's virtio and 9p modules, scripts/zoo/init.sh.
#   scripts/zoo/initrd.sh ARCH CACHE    -> CACHE/initrd-ARCH.gz (rebuilt when init.sh or the kernel
#                                          extraction changes)
set -euo pipefail
arch=$1 cache=$2 here=$(cd "$(dirname "$0")" && pwd)
out=$cache/initrd-$arch.gz
[ -e "$out" ] && [ "$out" -nt "$here/init.sh" ] && [ "$out" -nt "$cache/kernel-$arch/.done-2" ] && exit 0
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,proc,sys,dev,tmp,mnt,mods}
cp "$cache/busybox-$arch/bin/busybox" "$root/bin/"
for a in sh mount umount insmod poweroff sed tr cat echo mkdir chroot sync ls sleep hostname ifconfig ip; do
  ln -s busybox "$root/bin/$a"
done
find "$cache/kernel-$arch/lib/modules" -name '*.ko' -exec cp {} "$root/mods/" \;
cp "$here/init.sh" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
