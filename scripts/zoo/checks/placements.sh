# Every named placement, one writer and one reader: a row whose writer_cpus and reader_cpus the host
# checks against topo.txt, or a refusal (exit 2, one line) where the guest lacks what it needs.
for p in smt same-llc cross-llc same-socket cross-socket spread compact auto; do
  c2c "$p" run pending-bit --placement "$p" --layout shared --policy rmw --reps 1 --duration 0.05 \
    --warmup 0.01 --max-attempts 1 $LENIENT --quiet --out "$OUT/$p.csv"
done
