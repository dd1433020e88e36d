#!/usr/bin/env python3
"""Writes the made-up result sets of tests/data/requested/ (run from that folder): one pending-bit
and one shepherd configuration of schema 10 run on two machines with the settings as a preset gives
them, resolved differently. 'one' is a VM of 2 CPUs and one NUMA node, 'two' a machine of two
packages, two nodes and 8 CPUs. pending-bit ran with --placement cross-socket --mem-node reader:
the reader's node is 0 on one, 1 on two. shepherd ran without --cpus: all, 2 on one and 8 on two.
There is no .bench and no .columns: compare reads both benches by this build's description, as it
does an older set's. The numbers are invented: two takes twice one's time everywhere."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture import write_csv  # noqa: E402

MACHINES = {
    "one": dict(cpu_vendor="AuthenticAMD", cpu_family="25", cpu_model_number="1", cpu_stepping="1", hypervisor="kvm",
                dmi_sys_vendor="QEMU", dmi_product_name="Standard PC", packages="1", cores="2", pus="2",
                l3_count="1", numa_nodes="1", kernel="6.1.0"),
    "two": dict(cpu_vendor="GenuineIntel", cpu_family="6", cpu_model_number="143", cpu_stepping="8",
                hypervisor="none", dmi_sys_vendor="Supermicro", dmi_product_name="X13DEI", packages="2",
                cores="8", pus="8", l3_count="2", numa_nodes="2", kernel="6.1.0"),
}

def csv(path, header, rows, m):
    write_csv(path, header, rows, MACHINES[m], "requested/make.py", m, m, "CPU " + m)

def write(m):
    os.makedirs(m, exist_ok=True)
    k = 1 if m == "one" else 2
    node = 0 if m == "one" else 1
    pb = ["schema_version", "bench", "layout", "rep", "attempt", "valid", "offset", "policy", "atomics",
          "atomics_requested", "placement", "placement_requested", "writers", "readers", "mem_node_requested",
          "mem_node", "mem_node_actual", "work_ns", "drain_us", "writer_ns_per_op", "reader_ns_per_op",
          "duration_requested_s", "warmup_requested_s"]
    csv(m + "/01-pending-bit.csv", pb, [[10, "pending-bit", "shared", r, 1, "yes", 32, "rmw", "lock", "auto",
                                        "cross-socket", "cross-socket", 1, 1, "reader", node, node, 0, 0,
                                        k * (10 + r), k * (5 + r), 1.5, 0.2] for r in range(5)], m)
    sh = ["schema_version", "bench", "check", "rep", "attempt", "valid", "cpus_requested", "cpus", "hz", "tick_us",
          "interval_ticks", "zones", "zone_work_us", "op_ns", "yield", "threshold", "pcp_batch",
          "runs_per_interval", "duration_requested_s", "warmup_requested_s"]
    cpus = int(MACHINES[m]["pus"])
    csv(m + "/02-shepherd.csv", sh, [[10, "shepherd", "pending", r, 1, "yes", "all", cpus, 1000, 250, 1000, 3, 50,
                                      100, 0, 32, 31, k * (1.5 + r / 100), 2, 0.5] for r in range(5)], m)

for m in MACHINES:
    write(m)
