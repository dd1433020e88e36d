# --mem-node N for every node that has memory, the memory-only ones too: mem_node_actual must be N.
for n in $(sed -n 's/^node=\([0-9]*\) mem_kb=\([1-9][0-9]*\) .*/\1/p' "$OUT/../topo.txt"); do
  c2c "node$n" run pending-bit --mem-node "$n" --placement compact --layout shared --policy rmw \
    --reps 1 --duration 0.05 --warmup 0.01 --max-attempts 1 $LENIENT --quiet --out "$OUT/node$n.csv"
done
