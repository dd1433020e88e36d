# Inside a cpuset cgroup (the guest's own cgroup v2) that holds the last NUMA node's CPUs and memory
# only: what a Slurm job without --exclusive, or a container, gets. allowed_cpus and allowed_mems
# say what was allowed; plan.out is auto's dry run, auto.csv a short real run, both inside it.
cg=/sys/fs/cgroup
mountpoint -q "$cg" 2>/dev/null || mount -t cgroup2 none "$cg" || echo "no cgroup2 here" > "$OUT/why"
line=$(awk '/^node=/ && $2 !~ /=0$/ && $3 != "cpus=" { l = $0 } END { print l }' "$OUT/../topo.txt")
mems=$(echo "$line" | sed 's/^node=\([0-9]*\) .*/\1/')
cpus=$(echo "$line" | sed 's/.* cpus=//')
echo "+cpuset" > "$cg/cgroup.subtree_control"
mkdir -p "$cg/zoo"
echo "$cpus" > "$cg/zoo/cpuset.cpus"
echo "$mems" > "$cg/zoo/cpuset.mems"
echo $$ > "$cg/zoo/cgroup.procs"
cat "$cg/zoo/cpuset.cpus.effective" > "$OUT/allowed_cpus"
cat "$cg/zoo/cpuset.mems.effective" > "$OUT/allowed_mems"
c2c plan run pending-bit --dry-run
c2c auto run pending-bit --layout shared --policy rmw --reps 1 --duration 0.05 --warmup 0.01 \
  --max-attempts 1 $LENIENT --quiet --out "$OUT/auto.csv"
echo $$ > "$cg/cgroup.procs"   # out again, for the checks after this one
