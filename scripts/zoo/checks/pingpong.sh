# Every pair once (its class judged against topo.txt), then --concurrent auto with its accuracy check.
c2c all run pingpong --pairs all --mode load-store --samples 20 --round-trips 20 --preheat-ms 1 \
  --reps 1 --max-attempts 1 $LENIENT --quiet --out "$OUT/all.csv"
c2c concurrent run pingpong --pairs all --concurrent auto --mode load-store --samples 20 \
  --round-trips 20 --preheat-ms 1 --reps 1 --max-attempts 1 $LENIENT --quiet --out "$OUT/concurrent.csv"
