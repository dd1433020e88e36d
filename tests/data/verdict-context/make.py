#!/usr/bin/env python3
"""Writes the made-up result sets of tests/data/verdict-context/ (run from that folder): one
pending-bit configuration on machines that differ in how far to trust them. Numbers are invented.
- strict/:  5 repetitions, the defaults' [validity], a steady probe (60-66 ns).
- relaxed/: 5 repetitions, twice strict's time, judged with --valid-oncpu 0, and a probe that
            ranged 30-300 ns between repetitions (each repetition steady within itself).
- unknown/: strict's rows with a .meta that has no [validity] (written before it existed).
- small3/, small3b/: 3 repetitions a side, fully separated (B twice A): the exact U test cannot
            reach p < 0.05 (smallest p 0.1). small4/, small4b/: the same with 4 (p 0.029)."""
import os

HDR = ["schema_version", "bench", "layout", "rep", "attempt", "valid", "offset", "policy", "atomics",
       "atomics_requested", "placement", "placement_requested", "writers", "readers", "mem_node",
       "mem_node_actual", "work_ns", "drain_us", "writer_ns_per_op", "reader_ns_per_op",
       "duration_requested_s", "warmup_requested_s", "probe_pairs", "probe_before_ns",
       "probe_after_ns", "label", "host", "cpu_model"]
STRICT = {"valid-window": "10", "valid-oncpu": "90", "valid-overlap": "90", "valid-steal": "2",
          "valid-probe": "2", "valid-setting": "25", "max-attempts": "3", "relaxed": "no"}

def write(name, label, values, probes, validity):
    os.makedirs(name, exist_ok=True)
    with open(name + "/01-pending-bit.csv", "w") as o:
        o.write(",".join(HDR) + "\n")
        for r, (v, (b, a)) in enumerate(zip(values, probes)):
            row = [8, "pending-bit", "shared", r, 1, "yes", 32, "rmw", "lock", "auto", "same-socket",
                   "auto", 1, 1, 0, 0, 0, 0, v, v / 2, 1, 0.2, "0-1", b, a, label, label, "AMD EPYC"]
            o.write(",".join(str(x) for x in row) + "\n")
    with open(name + "/01-pending-bit.meta", "w") as o:
        o.write("; made up for tests (tests/data/verdict-context/make.py)\n[context]\n")
        o.write("label = %s\nhost = %s\ncpu_model = AMD EPYC\nhypervisor = kvm\n" % (label, label))
        if validity is not None:
            o.write("\n[validity]\n")
            for k, v in validity.items():
                o.write("%s = %s\n" % (k, v))
        o.write("\n[run]\nstatus = complete\n")

steady = [(60, 62), (61, 63), (64, 62), (66, 65), (60, 61)]
moved = [(30, 31), (31, 30), (300, 298), (295, 300), (30, 32)]
write("strict", "m-strict", [10, 11, 9, 10.5, 9.5], steady, STRICT)
relaxed = dict(STRICT, **{"valid-oncpu": "0", "relaxed": "yes", "relaxed_by": "--valid-oncpu 0"})
write("relaxed", "m-relaxed", [20, 22, 18, 21, 19], moved, relaxed)
write("unknown", "m-unknown", [10, 11, 9, 10.5, 9.5], steady, None)
write("small3", "m-small-a", [10, 11, 9], steady[:3], STRICT)
write("small3b", "m-small-b", [20, 22, 18], steady[:3], STRICT)
write("small4", "m-small-a", [10, 11, 9, 10.5], steady[:4], STRICT)
write("small4b", "m-small-b", [20, 22, 18, 21], steady[:4], STRICT)
