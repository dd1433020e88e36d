# Every pair once (its class judged against topo.txt), then two disjoint pairs at once, then
# --concurrent auto with its accuracy check.
c2c all run pingpong --pairs all --mode load-store --samples 20 --round-trips 20 --preheat-ms 1 \
  --reps 1 --max-attempts 1 $LENIENT --quiet --out "$OUT/all.csv"
# Two at once shows rounds that overlap whatever the check says: auto may rightly step down to one
# pair (below), an explicit N never does, so its tolerance is left at the default. Over 8 vCPUs a
# sample of 32 pairs keeps it short; its 100 ms preheat is the auto run's, for the same reason.
two=all
[ "$(nproc)" -gt 8 ] && two=sample:32
c2c two run pingpong --pairs $two --concurrent 2 --mode load-store \
  --samples 20 --round-trips 20 --preheat-ms 100 --reps 1 --max-attempts 1 $LENIENT --quiet \
  --out "$OUT/two.csv"
# Under TCG a pair's latency measured in a round can be several times its latency alone, and auto
# would halve the pairs at once down to one: the check's tolerance is relaxed to its widest (1000%,
# a ratio up to 11), but with more vCPUs than host CPUs a round's handoffs wait on the host's
# scheduler and the ratio can pass 11 too (CI, cloud-l3-per-core: auto stepped down to one pair);
# the rows record the steps down (concurrent_fallbacks). At 100% a class's ratio passed 2 on a
# loaded CI machine (cloud-shared-l3: two pairs on 4 vCPUs over 2 host CPUs), and auto fell back to
# one pair at once. Guests of more than 8 vCPUs keep 100%: on big32 auto then halves its 16 pairs
# at once, and the run ends; at 1000% it kept 16, and big32 took 1093 s on a 2-vCPU host (each
# handoff waits for both threads' vCPUs).
# Its preheat is 100 ms, so that each window spans many of the host's time slices: with more vCPUs
# than host CPUs, pairs of 1 ms windows ran in turn, not at once (CI, cloud-l3-per-core: 0 of 6).
tol=1000
[ "$(nproc)" -gt 8 ] && tol=100
c2c concurrent run pingpong --pairs all --concurrent auto --check-tolerance $tol --mode load-store \
  --samples 20 --round-trips 20 --preheat-ms 100 --reps 1 --max-attempts 1 $LENIENT --quiet \
  --out "$OUT/concurrent.csv"
