# shepherd on 16 modelled CPUs: pending (the bug), busy (the fix) and atomic. Under TCG a 250 us
# tick takes tens of ms, so the model runs at HZ 100 with 10 ms ticks and 20 ms of work per zone:
# a shepherd pass then often finds a CPU's vmstat_update running, the window the race needs.
c2c shepherd run shepherd --cpus 16 --hz 100 --tick-us 10000 --zone-work-us 20000 --duration 5 \
  --warmup 0.5 --reps 1 --max-attempts 1 $LENIENT --quiet --out "$OUT/shepherd.csv"
