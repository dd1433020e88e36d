#!/usr/bin/env bash
# Install what the aarch64 cross build and its qemu-user test run need (Debian multiarch), only what is missing.
# Run as root (make test-arm64 calls it); as a normal user it prints the commands instead.
set -euo pipefail
pkgs=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user libc6:arm64
      libhwloc-dev:arm64 libnuma-dev:arm64 libpapi-dev:arm64 libpfm4-dev:arm64 libcmocka-dev:arm64 libinih-dev:arm64)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "c2cbench: missing packages: ${missing[*]}; run: sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "c2cbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
