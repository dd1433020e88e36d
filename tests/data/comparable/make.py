#!/usr/bin/env python3
"""Writes the made-up result sets of tests/data/comparable/ (run from that folder): two machines,
both labelled 'vm', that ran the same settings and resolved them differently. A: 2 CPUs, one L3,
KVM; B: 32 CPUs, four L3s, bhyve. Numbers are invented: B twice A's time everywhere."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture import write_csv  # noqa: E402

MACHINES = {
    "a": dict(cpu_vendor="AuthenticAMD", cpu_family="25", cpu_model_number="1", cpu_stepping="1", hypervisor="kvm",
              dmi_sys_vendor="QEMU", dmi_product_name="Standard PC", packages="1", cores="2", pus="2",
              l3_count="1", numa_nodes="1", kernel="6.1.0"),
    "b": dict(cpu_vendor="AuthenticAMD", cpu_family="26", cpu_model_number="2", cpu_stepping="0", hypervisor="bhyve",
              dmi_sys_vendor="BHYVE", dmi_product_name="BHYVE", packages="1", cores="32", pus="32",
              l3_count="4", numa_nodes="1", kernel="6.1.0"),
}

def csv(path, header, rows, m):
    write_csv(path, header, rows, MACHINES[m], "comparable/make.py", "vm", "vm", "AMD EPYC")

def write(m):
    os.makedirs(m, exist_ok=True)
    k = 1 if m == "a" else 2
    placement = "same-socket" if m == "a" else "cross-llc"
    pb = ["schema_version", "bench", "layout", "rep", "attempt", "valid", "offset", "policy", "atomics",
          "atomics_requested", "placement", "placement_requested", "writers", "readers", "mem_node", "mem_node_actual",
          "work_ns", "drain_us", "writer_ns_per_op", "reader_ns_per_op", "duration_requested_s", "warmup_requested_s"]
    csv(m + "/01-pending-bit.csv", pb, [[8, "pending-bit", "shared", r, 1, "yes", 32, "rmw", "lock", "auto", placement,
                                        "auto", 1, 1, 0, 0, 0, 0, k * (10 + r), k * (5 + r), 1.5, 0.2] for r in range(5)], m)
    vm = ["schema_version", "bench", "layout", "rep", "attempt", "valid", "threads", "placement", "placement_requested",
          "pages", "lazy_max", "lazy_max_effective", "work_ns", "purge_us", "mem_node", "mem_node_actual", "online_cpus",
          "cycle_ns", "duration_requested_s", "warmup_requested_s"]
    cpus = int(MACHINES[m]["pus"])
    eff = cpus.bit_length() * 8192
    csv(m + "/02-vmalloc.csv", vm, [[8, "vmalloc", "shared", r, 1, "yes", 2, "spread", "auto", 1, 0, eff, 930, 500, 0, 0,
                                     cpus, k * (1000 + 10 * r), 0.2, 0.05] for r in range(5)], m)
    pp = ["schema_version", "bench", "config", "rep", "attempt", "valid", "cpu_a", "cpu_b", "class", "mode", "samples",
          "round_trips", "preheat_ms", "min_ns", "median_ns", "duration_requested_s", "warmup_requested_s"]
    pairs = [(0, 1, "same-llc")] if m == "a" else [(0, 8, "same-llc"), (0, 16, "cross-package")]
    csv(m + "/03-pingpong.csv", pp, [[8, "pingpong", "%d-%d/load-store" % (x, y), r, 1, "yes", x, y, c, "load-store",
                                      1000, 100, 20, k * (50 + r), k * (60 + r), 0, 0]
                                     for (x, y, c) in pairs for r in range(5)], m)

for m in MACHINES:
    write(m)
