# refill with its caller on the second package's first CPU: bound and unbound workers.
cpu=$(sed -n 's/^cpu=\([0-9]*\) pkg=1 .*/\1/p' "$OUT/../topo.txt" | head -1)
c2c refill run refill --caller-cpu "${cpu:-1}" --worker bound,unbound --hold token --attempts 4096 \
  --alloc-ns 0 --reps 1 --warmup 0.01 --max-attempts 1 $LENIENT --quiet --out "$OUT/refill.csv"
