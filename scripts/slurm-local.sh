#!/usr/bin/env bash
# A real two-node Slurm cluster on this machine, for the tests (shared/docs/slurm-local.md):
#   scripts/slurm-local.sh up DIR     install what is missing, start munged, slurmctld and two slurmd
#                                     (nodes xeon1 and epyc1, features xeon and epyc, each with this
#                                     machine's CPUs), wait until idle; prints the slurm.conf path
#                                     (export SLURM_CONF=... to use it)
#   scripts/slurm-local.sh down DIR   stop the daemons started by `up DIR`, by their PIDs
#   scripts/slurm-local.sh deps       only install what is missing (before a guest without network
#                                     runs the suite: make test-system-suite)
# Every path is under DIR. Run as root (CI and the tests do).
# SLURM_LOCAL_TASK chooses how a job step is confined to its allocation (TaskPlugin):
#   affinity (default)  task/affinity: bound to its CPUs by sched_setaffinity
#   cgroup              task/affinity,task/cgroup with ConstrainCores=yes: also a cpuset cgroup,
#                       which the step cannot leave (on a host, slurmd leaves its cgroup folders)
#   none                task/none: not confined, every CPU of the host
# Where the nodes do not come up with the one asked for, the next one down is tried; one stderr
# line says which was chosen.
set -euo pipefail
cmd=${1:-}; dir=${2:-}
deps() { C2C_EXTRA_PKGS="slurmctld slurmd slurm-client munge" bash "$(dirname "$0")/deps.sh"; }
if [ "$cmd" = deps ]; then deps; exit; fi
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 up|down DIR, or $0 deps" >&2; exit 2; }
case ${SLURM_LOCAL_TASK:-affinity} in
  affinity) tasks="task/affinity task/none" ;;
  cgroup) tasks="task/affinity,task/cgroup task/affinity task/none" ;;
  none) tasks="task/none" ;;
  *) echo "slurm-local: SLURM_LOCAL_TASK='$SLURM_LOCAL_TASK' is not accepted; accepted:" \
       "affinity, cgroup, none" >&2; exit 2 ;;
esac
dir=$(realpath -m "$dir")

down() {
  for f in "$dir"/slurmd-*.pid "$dir"/ctld.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f"); kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

if [ "$cmd" = down ]; then down; exit 0; fi
[ "$cmd" = up ] || { echo "usage: $0 up|down DIR, or $0 deps" >&2; exit 2; }

deps
[ -f /etc/munge/munge.key ] || mungekey -c >/dev/null 2>&1
chown munge:munge /etc/munge/munge.key
mkdir -p /run/munge && chown munge:munge /run/munge
pgrep -x munged >/dev/null || runuser -u munge -- munged

mkdir -p "$dir/state" "$dir/log"
host=$(hostname -s)
pc=$(free_port); p1=$(free_port); p2=$(free_port)
# Each node is this machine as slurmd sees it (slurmd -C), so a job without --exclusive can get
# part of one.
hw=$(slurmd -C 2>/dev/null | grep -o 'CPUs=[0-9]* .*ThreadsPerCore=[0-9]*' || true)
[ -n "$hw" ] || hw="CPUs=$(nproc)"

write_conf() { # $1: the TaskPlugin
cat >"$dir/slurm.conf" <<CONF
ClusterName=c2ctest
SlurmctldHost=$host
SlurmctldPort=$pc
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/ctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/ctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=$1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SchedulerParameters=bf_interval=1
JobAcctGatherType=jobacct_gather/none
NodeName=xeon1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$p1 $hw Feature=xeon State=UNKNOWN
NodeName=epyc1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$p2 $hw Feature=epyc State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
}
# slurmd 22.05 always loads a cgroup plugin (there is no CgroupPlugin=disabled), whatever
# ProctrackType and TaskPlugin say. Where cgroup v2 runs without systemd (a zoo guest: no dbus),
# its cgroup/v2 plugin would ask systemd over dbus for a scope and fail: cgroup.conf tells it to
# make its cgroups itself, in a system.slice made here as systemd would. Elsewhere Slurm's own autodetection stands, as on any host.
cg=$(stat -fc %T /sys/fs/cgroup 2>/dev/null || echo none)
rm -f "$dir/cgroup.conf"
if [ "$cg" = cgroup2fs ] && [ ! -d /run/systemd/system ]; then
  printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' > "$dir/cgroup.conf"
  mkdir -p /sys/fs/cgroup/system.slice   # where its slurmstepd scope goes (systemd makes it)
  echo "slurm-local: cgroup v2 without systemd: cgroup.conf CgroupPlugin=cgroup/v2 IgnoreSystemd=yes" >&2
elif [ "$cg" = cgroup2fs ] || [ "$cg" = tmpfs ]; then
  echo "slurm-local: /sys/fs/cgroup is $cg (v1, or v2 under systemd): no cgroup.conf," \
    "Slurm autodetects" >&2
else
  echo "slurm-local: no cgroup filesystem on /sys/fs/cgroup (found $cg): slurmd needs one" \
    "(mount -t cgroup2 none /sys/fs/cgroup)" >&2
  exit 1
fi
export SLURM_CONF="$dir/slurm.conf"
trap 'down' ERR
wait_s=${SLURM_LOCAL_WAIT:-30}   # an emulated guest (the zoo's suite check) needs longer

# Start the daemons with TaskPlugin $1; 0 once both nodes are idle, else 1 with them stopped.
start() {
  write_conf "$1"
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF" -N xeon1
  slurmd -f "$SLURM_CONF" -N epyc1
  for _ in $(seq $(( wait_s * 5 ))); do
    n=$(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle' || true)
    [ "$n" = 2 ] && return 0
    sleep 0.2
  done
  echo "slurm-local: with $1 the two nodes did not become idle in $wait_s s (logs in $dir/log):" >&2
  tail -n 3 "$dir"/log/* >&2 2>/dev/null || true
  down; return 1
}

for t in $tasks; do
  case $t in
    task/affinity,task/cgroup)
      how="a step is bound to its CPUs and held in a cpuset cgroup of them (ConstrainCores=yes)"
      grep -q '^ConstrainCores=' "$dir/cgroup.conf" 2>/dev/null ||
        echo 'ConstrainCores=yes' >> "$dir/cgroup.conf" ;;
    task/affinity) how="a step is bound to its CPUs (sched_setaffinity; it may widen it)" ;;
    *) how="steps are not confined to their allocation" ;;
  esac
  if start "$t"; then
    echo "slurm-local: TaskPlugin=$t ($hw per node): $how" >&2
    echo "$SLURM_CONF"; exit 0
  fi
done
exit 1
