#!/usr/bin/env bash
# Install the Debian packages c2cbench needs, only those missing.
# Run as root (CI and `make run`/`make test` call it); as a normal user it prints the command instead.
set -euo pipefail
pkgs=(build-essential pkg-config libhwloc-dev hwloc libnuma-dev libpapi-dev papi-tools
      libpfm4-dev libcmocka-dev libinih-dev gnuplot-nox binutils
      jq time   # jq: the compare test parses --json back; time: make bench measures compare's memory
      chromium)  # chromium: the report test loads report.html headless
[ "${C2C_EXTRA_PKGS:-}" ] && pkgs+=(${C2C_EXTRA_PKGS})
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "c2cbench: missing packages: ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "c2cbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
