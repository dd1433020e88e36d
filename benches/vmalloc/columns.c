/* vmalloc's columns (harness/columns.h): its README's column table is generated from this
 * (scripts/bench-columns.sh). */
#include "harness/columns.h"
#include <stddef.h>

const struct col_decl vmalloc_columns[] = {
    {"layout", COL_CONFIG, "text", COL_NOSIDE,
     "shared, aligned, padded (struct layouts) or section (two globals, as the kernel fix links "
     "them)"},
    {"threads", COL_CONFIG, "count", COL_NOSIDE, "worker threads (--threads)"},
    {"pages", COL_CONFIG, "pages", COL_NOSIDE, "pages per allocation (--pages)"},
    {"lazy_max", COL_CONFIG, "pages", COL_NOSIDE,
     "--lazy-max as given (0: the kernel's formula); before schema 8 it held the value used"},
    {"lazy_max_effective", COL_CONTEXT, "pages", COL_NOSIDE,
     "the lazy_max_pages() used: --lazy-max, or for 0 the kernel's fls(online_cpus) x 8192 "
     "(16384 on 2 CPUs, 49152 on 32)"},
    {"work_ns", COL_CONFIG, "ns", COL_NOSIDE, "private work per cycle asked for (--work)"},
    {"flush_us", COL_CONFIG, "us", COL_NOSIDE,
     "a purge's fixed cost, its TLB flush, paid when it detaches an area (--flush-us)"},
    {"area_ns", COL_CONFIG, "ns", COL_NOSIDE,
     "a purge's cost per area it detaches (--area-ns)"},
    {"online_cpus", COL_CONTEXT, "count", COL_NOSIDE, "online CPUs (lazy_max's input)"},
    {"possible_cpus", COL_CONTEXT, "count", COL_NOSIDE,
     "possible CPUs (/sys/devices/system/cpu/possible: num_possible_cpus(), nr_nodes's input)"},
    {"nr_nodes", COL_CONTEXT, "count", COL_NOSIDE,
     "modelled vmap nodes: clamp(possible_cpus, 1, 128), as vmap_init_nodes() sizes vmap_nodes"},
    {"seed_setting", COL_CONTEXT, "text", COL_NOSIDE,
     "yes when the run had seed 003's setting (16 workers over two packages, lazy_max 49152), "
     "else 'no: ' and what differs ('no: workers 2 (seed 16); lazy_max 16384 (seed 49152); "
     "packages 1 (seed 2)'); the seed's figures are printed only beside rows that say yes"},
    {"worker_cpus", COL_CONTEXT, "CPU list", COL_NOSIDE, "OS CPUs the workers ran on"},
    {"drainer_cpu", COL_CONTEXT, "CPU list", COL_NOSIDE, "OS CPU the drain worker ran on"},
    {"duration_s", COL_EVIDENCE, "s", COL_NOSIDE, "measured seconds per worker"},
    {"cycle_ns", COL_METRIC, "ns", COL_LOWER,
     "wall-clock ns per alloc/free cycle: sum of worker windows / sum of cycles (test_vmalloc's "
     "measure)"},
    {"cycle_cpu_ns", COL_METRIC, "ns", COL_LOWER,
     "the workers' thread CPU time per cycle (CLOCK_THREAD_CPUTIME_ID): the cost while on a CPU"},
    {"cycles_per_s", COL_METRIC, "per s", COL_HIGHER, "aggregate cycles per second"},
    {"worker_on_cpu_pct", COL_EVIDENCE, "%", COL_NOSIDE,
     "worker CPU time / window (below 100: the workers waited for a CPU)"},
    {"cycles", COL_METRIC, "count", COL_NOSIDE, "alloc/free cycles completed"},
    {"frees", COL_METRIC, "count", COL_NOSIDE, "frees completed"},
    {"frees_over_lazy_max", COL_METRIC, "count", COL_NOSIDE,
     "frees that found vmap_lazy_nr above lazy_max and so called schedule_work()"},
    {"over_pct", COL_METRIC, "%", COL_LOWER, "frees_over_lazy_max / frees"},
    {"pending_rmw", COL_METRIC, "count", COL_NOSIDE,
     "locked test_and_set_bit executions; equals frees_over_lazy_max by construction (an "
     "invariant)"},
    {"pending_already_set", COL_METRIC, "count", COL_NOSIDE,
     "of those, the ones that found PENDING already set (no-op RMWs)"},
    {"queued", COL_METRIC, "count", COL_NOSIDE,
     "full queue_work_on() paths (the bit was clear: pool lock, list entry written, wake-up)"},
    {"drains", COL_METRIC, "count", COL_NOSIDE, "drain-work runs in the measured phase"},
    {"crossings", COL_METRIC, "count", COL_NOSIDE,
     "drains whose snapshot of vmap_lazy_nr was past lazy_max: threshold crossings served"},
    {"requeued", COL_METRIC, "count", COL_NOSIDE,
     "drains whose snapshot was not past lazy_max: queued again by a free whose count still held "
     "pages a purge had taken (subtracted only at its end), the kernel's accepted extra queuing; "
     "drains = crossings + requeued"},
    {"drains_per_crossing", COL_METRIC, "ratio", COL_NOSIDE,
     "(drains - requeued) / crossings: the drains a crossing needs by itself, 1 at any load (one "
     "drain takes its whole backlog; every drain is a crossing's or a re-queue, so any other "
     "value is a fault of the model); before schema 13 drains / crossings, re-queues included; "
     "NA when no drain began past lazy_max"},
    {"purge_us_per_crossing", COL_METRIC, "us", COL_NOSIDE,
     "modelled purge time per crossing (all drains' modelled cost / crossings): what a crossing "
     "costs the drain worker's CPU, whether its backlog was purged in one drain or two"},
    {"requeued_per_crossing", COL_METRIC, "ratio", COL_NOSIDE,
     "requeued / crossings: the short extra drains per crossing (medians 0.36 to 0.63 at the "
     "2-CPU defaults, by the load; README); it depends on whether a free landed during the "
     "crossing's purge, so on the machine's load; NA when no drain began past lazy_max"},
    {"pages_per_drain", COL_METRIC, "pages", COL_NOSIDE,
     "mean pages a drain detached (its snapshot of vmap_lazy_nr); NA when no drain ran"},
    {"areas_per_drain", COL_METRIC, "count", COL_NOSIDE,
     "mean areas a drain detached (pages / (pages + 1 guard page)); NA when no drain ran"},
    {"purge_ns_mean", COL_METRIC, "ns", COL_LOWER,
     "measured mean wall time per purge (worker 0 may run on the same CPU meanwhile); NA when "
     "no drain ran"},
    {"over_on_drainer_cpu_pct", COL_EVIDENCE, "%", COL_NOSIDE,
     "share of frees_over_lazy_max made by the worker on the drain worker's CPU (a purge parks "
     "that worker); NA when no free passed lazy_max"},
    {"placed_as", COL_CONTEXT, "text", COL_NOSIDE,
     "struct (fields of one allocated struct) or globals (section)"},
    {"distance", COL_CONTEXT, "bytes", COL_NOSIDE,
     "bytes from the work item to vmap_nodes as placed, from the addresses (negative: pointer "
     "first)"},
    {"work_addr", COL_CONTEXT, "address", COL_NOSIDE, "virtual address of the work item"},
    {"meta_addr", COL_CONTEXT, "address", COL_NOSIDE, "virtual address of the pointer"},
    {"work_line_addr", COL_CONTEXT, "address", COL_NOSIDE,
     "the work item's cache line, as perf c2c report lists lines"},
    {"meta_line_addr", COL_CONTEXT, "address", COL_NOSIDE,
     "the pointer's cache line, as perf c2c report lists lines (the seed's affected line)"},
    {"same_line", COL_CONTEXT, "0/1", COL_NOSIDE, "1 if both fields are in one cache line"},
    {"same_128b_block", COL_CONTEXT, "0/1", COL_NOSIDE,
     "1 if both fields are in one 128-byte block (adjacent-line prefetcher pair)"},
    {"purge_us_modelled", COL_EVIDENCE, "us", COL_NOSIDE,
     "the modelled cost per purge in the measured phase (flush_us + area_ns x areas detached, "
     "mean over drains): the setting purge_us_achieved is held to; NA when no drain ran"},
    {"purge_us_achieved", COL_EVIDENCE, "us", COL_NOSIDE,
     "the drain worker's CPU time per purge in the measured phase, beside purge_us_modelled; NA "
     "when no drain ran"},
    {"work_ns_achieved", COL_EVIDENCE, "ns", COL_NOSIDE,
     "what each worker's calibrated work per cycle (alloc + free parts) took, timed on its CPU "
     "before and after its window, the one further from work_ns (mean of workers); NA with "
     "--work 0"},
    {0},
};

/* The verdict (docs/validity.md, "The verdict"): seed 003: the runtime of a vmalloc/vfree cycle
 * per layout; over_pct is a bound of the model (100 under --lazy-max 1) */
const char *const vmalloc_verdict[] = { "cycle_ns:lower", "cycle_cpu_ns:lower", NULL };
