# The hardware-counter path on a PMU (arm64 neoverse-n1 under TCG): cycles in every measuring thread
# of every bench, more events than counters, and the events the PMU does not advertise.
ls /sys/bus/event_source/devices/*/events/ > "$OUT/sysfs-events.txt" 2>&1
c2c check events --check
short="--reps 1 --warmup 0.01 --max-attempts 1 $LENIENT --events cycles"
c2c pending-bit run pending-bit --layout shared --policy rmw --duration 0.05 $short --out "$OUT/pending-bit.csv"
c2c vmalloc run vmalloc --layout shared --duration 0.1 $short --out "$OUT/vmalloc.csv"
c2c refill run refill --worker unbound --attempts 4096 $short --out "$OUT/refill.csv"
c2c shepherd run shepherd --check pending --duration 0.5 $short --out "$OUT/shepherd.csv"
c2c pingpong run pingpong --pairs classes --mode load-store --samples 20 --reps 1 --max-attempts 1 \
  $LENIENT --events cycles --out "$OUT/pingpong.csv"
# More advertised events than the PMU has counters (QEMU's PMUv3 implements few; the ones it does
# not advertise are never opened): extra passes, or the kernel time-sharing the counters.
c2c multiplexed run pending-bit --layout shared --policy rmw --duration 0.05 \
  --reps 1 --warmup 0.01 --max-attempts 1 $LENIENT \
  --events cycles,CPU_CYCLES:u,CPU_CYCLES:k,STALL_FRONTEND,STALL_BACKEND,STALL_FRONTEND:u,STALL_BACKEND:u,STALL_FRONTEND:k,STALL_BACKEND:k \
  --out "$OUT/multiplexed.csv"
# The default (auto) events: the coherence stand-ins, which this PMU does not advertise.
c2c auto run pending-bit --layout shared --policy rmw --duration 0.05 --reps 1 --warmup 0.01 \
  --max-attempts 1 $LENIENT --out "$OUT/auto.csv"
