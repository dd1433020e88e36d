#!/usr/bin/env bash
# Install the packages c2cbench needs, only those missing.
# apt (Debian, Ubuntu): installs them when run as root (`make deps`, CI); as a normal user it prints
# the command instead. dnf (Fedora, RHEL, Rocky, Alma) and zypper (openSUSE, SLES): prints the exact
# install command with that distribution's package names, installs nothing (only the apt path is
# tested here). The names are the Debian ones mapped by pkg_name below.
#   scripts/deps.sh                 check and install (apt) or print the command (dnf, zypper)
#   scripts/deps.sh --need run|test what `make run` / `make test` need: names what is missing and the
#                                   one command that installs it (exit 1); installs only as root, and
#                                   says so first (a fresh machine's `make run` and `make test`)
#   scripts/deps.sh --print MGR     print the install command MGR (apt, dnf or zypper) would need for
#                                   every package, installed or not; installs nothing
# C2C_PKG_MANAGER=apt|dnf|zypper overrides the detection; C2C_EXTRA_PKGS adds Debian package names.
set -euo pipefail
pkgs=(build-essential pkg-config libhwloc-dev hwloc libnuma-dev libpapi-dev papi-tools
      libpfm4-dev libcmocka-dev libinih-dev gnuplot-nox binutils
      jq time   # jq: the compare test parses --json back; time: make bench measures compare's memory
      chromium  # chromium: the report test loads report.html headless
      man-db groff-base bsdutils  # man -l renders the installed page; script(1) gives the progress test a terminal
      zsh)  # the install test completes with the installed zsh completion in a real zsh
test_only=" jq time chromium man-db groff-base bsdutils zsh "   # what only the suite needs
[ "${C2C_EXTRA_PKGS:-}" ] && pkgs+=(${C2C_EXTRA_PKGS})

# The package that provides Debian package $2 on manager $1 (the same name where it is the same).
pkg_name() {
  local mgr=$1 p=$2
  [ "$mgr" = apt ] && { echo "$p"; return; }
  case "$mgr:$p" in
    dnf:build-essential|zypper:build-essential) echo "gcc make" ;;
    dnf:pkg-config) echo pkgconf-pkg-config ;;
    zypper:pkg-config) echo pkgconf-pkg-config ;;
    *:libhwloc-dev) echo hwloc-devel ;;
    dnf:libnuma-dev) echo numactl-devel ;;
    zypper:libnuma-dev) echo libnuma-devel ;;
    *:libpapi-dev) echo papi-devel ;;
    *:papi-tools) echo papi ;;
    *:libpfm4-dev) echo libpfm-devel ;;
    *:libcmocka-dev) echo libcmocka-devel ;;
    dnf:libinih-dev) echo inih-devel ;;
    zypper:libinih-dev) echo libinih-devel ;;
    *:gnuplot-nox) echo gnuplot ;;
    zypper:man-db) echo man ;;
    *:groff-base) echo groff ;;
    dnf:bsdutils) echo util-linux-script ;;
    zypper:bsdutils) echo util-linux ;;
    dnf:libclang-rt-14-dev) echo compiler-rt ;;
    zypper:libclang-rt-14-dev) echo llvm-compiler-rt ;;
    dnf:slurm-client|dnf:slurmctld|dnf:slurmd) echo "slurm slurm-slurmctld slurm-slurmd" ;;
    zypper:slurm-client|zypper:slurmctld|zypper:slurmd) echo slurm ;;
    *) echo "$p" ;;   # binutils, hwloc, jq, time, chromium, valgrind, clang, munge: same name
  esac
}

# Every package for manager $1, each once, in order.
mapped() {
  local mgr=$1 out=() seen=" " n
  for p in "${pkgs[@]}"; do
    for n in $(pkg_name "$mgr" "$p"); do
      case "$seen" in *" $n "*) ;; *) out+=("$n"); seen+="$n " ;; esac
    done
  done
  echo "${out[*]}"
}

install_cmd() {
  case "$1" in
    apt) echo "apt-get install -y $2" ;;
    dnf) echo "dnf install -y $2" ;;      # on RHEL/Rocky/Alma enable EPEL and CRB first (papi, libpfm, inih)
    zypper) echo "zypper install -y $2" ;;
  esac
}

detect() {
  if [ -n "${C2C_PKG_MANAGER:-}" ]; then echo "$C2C_PKG_MANAGER"
  elif command -v apt-get >/dev/null 2>&1; then echo apt
  elif command -v dnf >/dev/null 2>&1; then echo dnf
  elif command -v zypper >/dev/null 2>&1; then echo zypper
  else echo none; fi
}

if [ "${1:-}" = --print ]; then
  case "${2:-}" in apt|dnf|zypper) install_cmd "$2" "$(mapped "$2")"; exit 0 ;; esac
  echo "c2cbench: deps.sh --print '${2:-}' is not accepted; accepted: apt, dnf, zypper" >&2
  exit 2
fi

need=
if [ "${1:-}" = --need ]; then
  case "${2:-}" in
    test) need=test ;;
    run) need=run
         kept=(); for p in "${pkgs[@]}"; do [[ "$test_only" = *" $p "* ]] || kept+=("$p"); done
         pkgs=("${kept[@]}") ;;
    *) echo "c2cbench: deps.sh --need '${2:-}' is not accepted; accepted: run, test" >&2; exit 2 ;;
  esac
elif [ -n "${1:-}" ]; then
  echo "c2cbench: deps.sh option '$1' is not accepted; accepted: --need run|test, --print MGR" >&2
  exit 2
fi

mgr=$(detect)
case "$mgr" in
  apt) ;;
  dnf|zypper)
    missing=()
    for n in $(mapped "$mgr"); do rpm -q "$n" >/dev/null 2>&1 || missing+=("$n"); done
    [ ${#missing[@]} -eq 0 ] && exit 0
    echo "c2cbench: missing packages; deps.sh installs with apt only, so run: sudo $(install_cmd "$mgr" "${missing[*]}")" >&2
    [ "$mgr" = dnf ] && echo "c2cbench: on RHEL, Rocky or Alma enable EPEL and CRB first (dnf install epel-release; dnf config-manager --set-enabled crb)" >&2
    exit 1 ;;
  *)
    echo "c2cbench: no apt-get, dnf or zypper found; install these (Debian names): ${pkgs[*]}" >&2
    exit 1 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  if [ -n "$need" ]; then
    echo "c2cbench: missing packages: ${missing[*]}; install them with: sudo make deps" >&2
  else
    echo "c2cbench: missing packages: ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
  fi
  exit 1
fi
if [ -n "$need" ]; then
  echo "c2cbench: missing packages: ${missing[*]}; running as root, so installing them now (make deps)" >&2
else
  echo "c2cbench: installing ${missing[*]}" >&2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
