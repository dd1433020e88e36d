# vmalloc at seed 003's setting scaled to the guest: a worker per core (8), spread over both
# packages, at the kernel's lazy_max for the guest's CPUs (--lazy-max 0: fls(8) x 8192 = 32768, as
# the seed's 49152 is fls(32) x 8192). The host judges placement, lazy_max and drains per crossing
# from the rows; timings under TCG mean nothing.
c2c spread8 run vmalloc --threads 8 --placement spread --layout shared,section --reps 1 \
  --duration 0.3 --warmup 0.05 --max-attempts 1 $LENIENT --quiet --out "$OUT/spread8.csv"
# The README's 2-CPU regimes in the same guest: two workers on one package's first cores, at the
# 2-CPU lazy_max (16384) and at the small-machine entry's --lazy-max 1.
c2c two16k run vmalloc --threads 2 --placement compact --lazy-max 16384 --layout shared,section \
  --reps 1 --duration 0.3 --warmup 0.05 --max-attempts 1 $LENIENT --quiet --out "$OUT/two16k.csv"
c2c two1 run vmalloc --threads 2 --placement compact --lazy-max 1 --layout shared,section \
  --reps 1 --duration 0.3 --warmup 0.05 --max-attempts 1 $LENIENT --quiet --out "$OUT/two1.csv"
