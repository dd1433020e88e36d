#!/usr/bin/env bash
# The guest zoo's ingredients, cached under build/zoo/cache: qemu-system (installed as packages),
# Debian's amd64 and arm64 kernels and static busybox (downloaded as .debs and extracted there:
# the host's /boot and /bin are left alone). A second run downloads nothing.
#   scripts/zoo/fetch.sh [CACHE]     (default build/zoo/cache)
set -euo pipefail
cache=${1:-build/zoo/cache}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
C2C_EXTRA_PKGS="qemu-system-x86 qemu-system-arm cpio" bash "$(dirname "$0")/../deps.sh"
bash "$(dirname "$0")/../deps-arm64.sh"   # the arm64 build (its libraries) that the arm64 guest runs

# The kernel the installed linux-image-amd64 metapackage names (the same version for arm64).
kpkg() { apt-cache depends "linux-image-$1" 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'; }

# fetch NAME PKG[:ARCH]: download PKG's .deb once and extract it into $cache/NAME.
fetch() {
  local name=$1 pkg=$2
  [ -e "$cache/$name/.done-2" ] && return 0   # -2: the overlayfs module too
  rm -rf "$cache/$name" "$cache/dl-$name"
  mkdir -p "$cache/dl-$name"
  echo "zoo: downloading $pkg" >&2
  get() { (cd "$cache/dl-$name" && apt-get download -qq "$pkg" 2>&1 | { grep -v unsandboxed || true; } >&2); \
          ls "$cache/dl-$name"/*.deb >/dev/null 2>&1; }
  get || { apt-get update -qq >/dev/null 2>&1 || true; get; }
  mkdir -p "$cache/$name"
  # Only the kernel image and the virtio, 9p and overlayfs modules the guests load: not 400 MB.
  dpkg-deb --fsys-tarfile "$cache"/dl-"$name"/*.deb | tar -x -C "$cache/$name" --wildcards \
    './boot/vmlinuz-*' './bin/*' './lib/modules/*/kernel/drivers/virtio/*' \
    './lib/modules/*/kernel/fs/9p/*' './lib/modules/*/kernel/fs/netfs/*' \
    './lib/modules/*/kernel/fs/fscache/*' './lib/modules/*/kernel/net/9p/*' \
    './lib/modules/*/kernel/fs/overlayfs/*' 2>/dev/null ||
    [ -n "$(ls -A "$cache/$name")" ]
  rm -rf "$cache/dl-$name"
  touch "$cache/$name/.done-2"
}

k=$(kpkg amd64)
[ -n "$k" ] || { apt-get update -qq >/dev/null; k=$(kpkg amd64); }
[ -n "$k" ] || { echo "zoo: apt knows no linux-image-amd64 (is this Debian?)" >&2; exit 1; }
karm=${k%-amd64}-arm64
fetch kernel-amd64 "$k"
fetch kernel-arm64 "$karm:arm64"
fetch busybox-amd64 busybox-static:amd64
fetch busybox-arm64 busybox-static:arm64
for a in amd64 arm64; do
  v=$(ls "$cache/kernel-$a/boot/" | sed -n 's/^vmlinuz-//p' | head -1)
  [ -n "$v" ] || { echo "zoo: no vmlinuz in $cache/kernel-$a" >&2; exit 1; }
  ln -sf "kernel-$a/boot/vmlinuz-$v" "$cache/vmlinuz-$a"
  echo "$v" > "$cache/kver-$a"
done
