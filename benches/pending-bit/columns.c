/* pending-bit's columns (harness/columns.h): its README's column table is generated from this
 * (scripts/bench-columns.sh). */
#include "harness/columns.h"
#include <stddef.h>

const struct col_decl pending_bit_columns[] = {
    {"layout", COL_CONFIG, "text", COL_NOSIDE,
     "shared, aligned, padded, section, or offset-N in an offset sweep"},
    {"offset", COL_CONFIG, "bytes", COL_NOSIDE,
     "bytes from the pending word to the read-mostly pointer as placed, from their addresses "
     "(negative: the pointer comes first, as section can place it)"},
    {"policy", COL_CONFIG, "text", COL_NOSIDE, "rmw (RMW on every call) or test-then-set"},
    {"atomics", COL_CONTEXT, "text", COL_NOSIDE,
     "the writers' RMW flavour as run: lock (x86 lock bts), lse (aarch64 ldsetal) or llsc "
     "(aarch64 ldaxr/stlxr loop)"},
    {"atomics_requested", COL_CONFIG, "text", COL_NOSIDE,
     "--atomics as given (auto: lock on x86; on aarch64 lse where the CPU has it, else llsc)"},
    {"writers", COL_CONFIG, "count", COL_NOSIDE, "writer threads (--writers)"},
    {"readers", COL_CONFIG, "count", COL_NOSIDE, "reader threads (--readers)"},
    {"duration_s", COL_EVIDENCE, "s", COL_NOSIDE,
     "measured seconds, as the writer threads timed it"},
    {"work_ns", COL_CONFIG, "ns", COL_NOSIDE, "private work per operation asked for (--work)"},
    {"drain_us", COL_CONFIG, "us", COL_NOSIDE, "drainer period (--drain-us), 0 for none"},
    {"ROLE_cpus", COL_CONTEXT, "CPU list", COL_NOSIDE,
     "OS CPU numbers the role's threads ran on (sched_getcpu), space-separated"},
    {"ROLE_ops", COL_METRIC, "count", COL_NOSIDE,
     "operations completed in the measured phase, all threads of the role"},
    {"ROLE_ops_per_s", COL_METRIC, "per s", COL_HIGHER,
     "aggregate operations per second of the role"},
    {"ROLE_ns_per_op", COL_METRIC, "ns", COL_LOWER,
     "thread-time per operation: sum of thread times / sum of operations"},
    {"writer_rmw", COL_METRIC, "count", COL_NOSIDE,
     "locked RMWs executed by writers (equals writer_ops for rmw)"},
    {"writer_rmw_per_s", COL_METRIC, "per s", COL_NOSIDE,
     "the writers' locked RMWs per second of their window: each takes the line for writing (a "
     "line write), set or not; rmw does one per operation, test-then-set about one per drain "
     "(the drainer sets the rate)"},
    {"writer_already_set", COL_METRIC, "count", COL_NOSIDE,
     "operations that found PENDING already set"},
    {"drains", COL_METRIC, "count", COL_NOSIDE,
     "times the drainer cleared PENDING in the measured phase; NA without a drainer"},
    {"work_addr", COL_CONTEXT, "address", COL_NOSIDE, "virtual address of the pending word"},
    {"meta_addr", COL_CONTEXT, "address", COL_NOSIDE,
     "virtual address of the read-mostly pointer"},
    {"work_line", COL_CONTEXT, "count", COL_NOSIDE,
     "the pending word's cache-line index (address / line_size)"},
    {"meta_line", COL_CONTEXT, "count", COL_NOSIDE,
     "the pointer's cache-line index (address / line_size)"},
    {"same_line", COL_CONTEXT, "0/1", COL_NOSIDE, "1 if both fields are in one cache line"},
    {"same_128b_block", COL_CONTEXT, "0/1", COL_NOSIDE,
     "1 if both fields are in one 128-byte block (adjacent-line prefetcher pair)"},
    {"drain_us_achieved", COL_EVIDENCE, "us", COL_NOSIDE,
     "the drainer's achieved period: its window / drains; NA without a drainer or a drain"},
    {"work_ns_achieved", COL_EVIDENCE, "ns", COL_NOSIDE,
     "what the calibrated work took per operation, timed on each measuring thread after its "
     "window (mean of threads); NA with --work 0"},
    {0},
};

/* The verdict (docs/validity.md, "The verdict"): the seed's claim: the layouts that move
 * vmap_nodes off PENDING's line cut the cost per operation of the writer's RMW and of the
 * reader's load */
const char *const pending_bit_verdict[] = { "writer_ns_per_op:lower", "reader_ns_per_op:lower",
					    NULL };
