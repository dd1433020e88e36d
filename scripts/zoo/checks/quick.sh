# The main job on this guest: the quick preset, as a user runs it (validity relaxed for emulation,
# which its metadata records). run.sh then compares and reports it against the other guests' runs
# and the host's (tests/system/zoo_fleet.c).
c2c quick preset quick --results "$OUT" --max-attempts 1 $LENIENT
