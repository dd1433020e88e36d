#!/bin/sh
# /init of every zoo guest (busybox ash). It mounts the host's root read-only over virtio-9p (with a
# writable tmpfs overlay) and the project's folder read-write at the same path, then runs the
# guest's script (zoo.script= on the kernel command line) and powers off. x86 guests chroot into
# the host's userland; the arm64 guest runs its script in busybox, calling the arm64 build through
# the host's arm64 loader and libraries.
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache \
         9pnet 9pnet_virtio 9p overlay; do
  [ -e /mods/$m.ko ] && insmod /mods/$m.ko 2>/dev/null
done
echo -1 > /proc/sys/kernel/perf_event_paranoid   # Debian's default 3 disables PAPI's perf_event
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p"; }
proj=$(arg zoo.proj); script=$(arg zoo.script); mode=$(arg zoo.mode)
hostname "$(arg zoo.name)"   # the guest's name is its host name: its result sets say which guest
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up   # localhost for the suite's Slurm cluster
# The guest has no network (-net none). glibc's getaddrinfo(AI_ADDRCONFIG), which Slurm uses, then
# finds no IPv4 address but 127.0.0.1 and resolves nothing, not even "127.0.0.1": a second loopback
# address, the one /etc/hosts gives the guest's name below, is one that counts.
ip addr add 127.0.1.1/8 dev lo
opts=trans=virtio,version=9p2000.L,msize=262144
mkdir -p /mnt
# The host root is read-only and unchanged while the guest lives: cached, under a tmpfs overlay so
# the guest may write anywhere (daemons, /etc, /var) without touching the host. The project is
# mounted read-write over it at its own path: results land on the host.
mkdir -p /host /upper
mount -t tmpfs upper /upper; mkdir -p /upper/u /upper/w
if ! mount -t 9p -o $opts,ro,cache=loose host /host ||
   ! mount -t overlay overlay -o lowerdir=/host,upperdir=/upper/u,workdir=/upper/w /mnt; then
  echo "=== zoo: setup: the host's root (9p or overlay) did not mount"; poweroff -f
fi
if [ "$mode" = chroot ]; then
  mount -t proc proc /mnt/proc; mount -t sysfs sys /mnt/sys; mount -t devtmpfs dev /mnt/dev
  mount -t tmpfs tmp /mnt/tmp; mount -t tmpfs run /mnt/run
  # the guest's own cgroup v2, as a booted machine has it (slurmd 22.05 will not start without one)
  mount -t cgroup2 none /mnt/sys/fs/cgroup
  mkdir -p /mnt/dev/pts /mnt/dev/shm; mount -t devpts devpts /mnt/dev/pts; mount -t tmpfs shm /mnt/dev/shm
fi
# The project last, over whatever the guest mounted: a checkout under /tmp (or /run, /dev/shm) is
# not hidden by the guest's own tmpfs there.
mkdir -p "/mnt$proj"
if ! mount -t 9p -o $opts,cache=mmap proj "/mnt$proj"; then
  echo "=== zoo: setup: the project did not mount at $proj"; poweroff -f
fi
if [ ! -e "/mnt$script" ]; then
  echo "=== zoo: setup: $script is not in the guest (the project's mount at $proj is hidden)"
  poweroff -f
fi
echo "=== begin"
if [ "$mode" = chroot ]; then
  # the guest's name resolves (Slurm's SlurmctldHost is the host name), on the writable overlay
  echo "127.0.1.1 $(hostname)" >> /mnt/etc/hosts
  # the host's own root PATH: Slurm's scripts need runuser (/usr/sbin), as on the host
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot /mnt /bin/sh "$script"
else
  mount -t tmpfs tmp /tmp
  ZOO_ROOT=/mnt sh "/mnt$script"
fi
echo "=== end rc=$?"
sync
poweroff -f
