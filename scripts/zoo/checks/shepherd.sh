# shepherd on 16 modelled CPUs: pending (the bug), busy (the fix) and atomic.
c2c shepherd run shepherd --cpus 16 --duration 2 --warmup 0.05 --reps 1 --max-attempts 1 $LENIENT \
  --quiet --out "$OUT/shepherd.csv"
