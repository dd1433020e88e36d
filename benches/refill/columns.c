/* refill's columns (harness/columns.h): its README's column table is generated from this
 * (scripts/bench-columns.sh). */
#include "harness/columns.h"
#include <stddef.h>

const struct col_decl refill_columns[] = {
    {"worker", COL_CONFIG, "text", COL_NOSIDE,
     "bound (worker on the caller's CPU) or unbound (worker on another CPU)"},
    {"hold", COL_CONFIG, "text", COL_NOSIDE,
     "how the caller held its CPU: token, fifo or slice (--hold)"},
    {"caller_cpu", COL_CONTEXT, "CPU", COL_NOSIDE,
     "OS CPU the caller ran on (sched_getcpu after binding)"},
    {"worker_cpu", COL_CONTEXT, "CPU", COL_NOSIDE,
     "OS CPU the worker ran on (sched_getcpu after binding)"},
    {"caller_cpu_requested", COL_CONTEXT, "text", COL_NOSIDE,
     "--caller-cpu as given (auto, or a CPU); recorded, not joined on"},
    {"worker_cpu_requested", COL_CONTEXT, "text", COL_NOSIDE,
     "--worker-cpu as given (auto, or a CPU); recorded, not joined on"},
    /* refill takes no --mem-node: its plan binds the allocator state to the caller's node */
    {"mem_node", COL_CONTEXT, "NUMA node", COL_NOSIDE,
     "NUMA node the allocator state is bound to: the caller's CPU's (refill takes no --mem-node)"},
    {"mem_node_actual", COL_CONTEXT, "NUMA node", COL_NOSIDE,
     "NUMA node the allocator state's page is on (get_mempolicy), -1 if unknown: as found, "
     "beside mem_node"},
    {"attempts", COL_CONFIG, "count", COL_NOSIDE, "allocations asked for (--attempts)"},
    {"attempts_made", COL_METRIC, "count", COL_NOSIDE,
     "allocations attempted; fewer than attempts when burst_end is not attempts"},
    {"max_failures", COL_CONFIG, "count", COL_NOSIDE, "--max-failures (0: no cap)"},
    {"burst_end", COL_METRIC, "text", COL_NOSIDE,
     "what ended the burst: attempts, max_failures or duration (a --duration given)"},
    {"allocs_ok", COL_METRIC, "count", COL_HIGHER,
     "allocations that succeeded, first try or retried"},
    {"allocs_failed", COL_METRIC, "count", COL_LOWER,
     "allocations that still failed after retries retries"},
    {"retries_ok", COL_METRIC, "count", COL_LOWER,
     "allocations that failed first and then succeeded on a retry"},
    {"worker_runs", COL_METRIC, "count", COL_LOWER,
     "times the balance work started during the burst"},
    {"pages_populated", COL_METRIC, "count", COL_NOSIDE,
     "pages the worker populated during the burst"},
    {"chunks_created", COL_METRIC, "count", COL_NOSIDE,
     "chunks created beyond the first (the newest had no unpopulated page left)"},
    {"reserve_empty_ns", COL_METRIC, "ns", COL_LOWER,
     "time of the burst during which the reserve had no populated empty page"},
    {"burst_ns", COL_METRIC, "ns", COL_NOSIDE,
     "time from the first attempt to the end of the burst"},
    {"reserve_end_pages", COL_METRIC, "count", COL_NOSIDE,
     "populated empty pages left in the reserve when the burst ended"},
    {"size", COL_CONFIG, "bytes", COL_NOSIDE, "bytes per allocation (--size)"},
    {"objs_per_page", COL_CONTEXT, "count", COL_NOSIDE, "objects per page: 4096 / size"},
    {"initial_empty", COL_CONFIG, "pages", COL_NOSIDE,
     "empty populated pages at the start (--initial-empty)"},
    {"initial_partial", COL_CONFIG, "count", COL_NOSIDE,
     "free objects in a partly used page at the start (--initial-partial)"},
    {"initial_reserve_objs", COL_CONTEXT, "count", COL_NOSIDE,
     "objects available to atomic allocations at the start: initial_empty x objs_per_page + "
     "initial_partial"},
    {"chunk_pages", COL_CONFIG, "pages", COL_NOSIDE, "pages per chunk (--chunk-pages)"},
    {"retries", COL_CONFIG, "count", COL_NOSIDE, "retries of a failed allocation (--retries)"},
    {"retry_ns", COL_CONFIG, "ns", COL_NOSIDE, "busy wait before each retry (--retry-ns)"},
    {"alloc_ns", COL_CONFIG, "ns", COL_NOSIDE,
     "calibrated work after each successful allocation (--alloc-ns)"},
    {"populate_ns", COL_CONFIG, "ns", COL_NOSIDE,
     "calibrated work per populated page (--populate-ns)"},
    {"chunk_ns", COL_CONFIG, "ns", COL_NOSIDE,
     "extra calibrated work per created chunk (--chunk-ns)"},
    {"alloc_ns_achieved", COL_EVIDENCE, "ns", COL_NOSIDE,
     "what the caller's calibrated work after an allocation took, timed on its CPU after the "
     "burst (still holding it); NA with --alloc-ns 0"},
    {"populate_ns_achieved", COL_EVIDENCE, "ns", COL_NOSIDE,
     "what the worker's calibrated work per page took, timed on its CPU after its window; NA "
     "where it populated no page (a bound worker in its burst: the result) or --populate-ns 0"},
    {0},
};

/* The verdict (docs/validity.md, "The verdict"): seed 001: an unbound worker refills the
 * reserve, so fewer atomic allocations fail; the worker's runs and the reserve's empty time
 * describe why (the settings fix the bound run's) */
const char *const refill_verdict[] = { "allocs_failed:lower", "allocs_ok:higher", NULL };
