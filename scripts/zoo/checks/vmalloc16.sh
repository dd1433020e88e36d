# The seed's 16 workers spread over both packages (the host judges worker_cpus by topo.txt).
c2c spread run vmalloc --threads 16 --placement spread --layout shared --reps 1 --duration 0.2 \
  --warmup 0.05 --max-attempts 1 $LENIENT --quiet --out "$OUT/spread.csv"
