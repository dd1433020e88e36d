/* pingpong's columns (harness/columns.h): its README's column table is generated from this
 * (scripts/bench-columns.sh). */
#include "harness/columns.h"
#include <stddef.h>

const struct col_decl pingpong_columns[] = {
    {"config", COL_CONFIG, "text", COL_NOSIDE, "the configuration: CPU_A-CPU_B/MODE"},
    {"cpu_a", COL_CONFIG, "CPU", COL_NOSIDE,
     "OS CPU of the pair's first thread (it starts each round trip); CPU under --pairs vs:CPU"},
    {"cpu_b", COL_CONFIG, "CPU", COL_NOSIDE, "OS CPU of the pair's second thread"},
    {"class", COL_CONFIG, "text", COL_NOSIDE,
     "smt, same-llc, same-package or cross-package, from the hwloc tree: what the pair resolved "
     "to (compare joins another machine's pair of the same class)"},
    {"pairs_requested", COL_CONTEXT, "text", COL_NOSIDE,
     "--pairs as given; recorded, not joined on"},
    /* pingpong's own: its --placement picks the PUs it pairs, not what a pair measures */
    {"placement_requested", COL_CONTEXT, "text", COL_NOSIDE,
     "--placement as given (auto or cpus:LIST, the PUs it pairs); recorded, not joined on"},
    {"mode", COL_CONFIG, "text", COL_NOSIDE,
     "load-store (two lines, store/load) or cas (one line, locked compare-and-swap)"},
    {"samples", COL_CONFIG, "count", COL_NOSIDE, "timed samples (--samples)"},
    {"round_trips", COL_CONFIG, "count", COL_NOSIDE, "round trips per sample (--round-trips)"},
    {"preheat_ms", COL_CONFIG, "ms", COL_NOSIDE,
     "untimed handoffs before the samples (--preheat-ms)"},
    {"min_ns", COL_METRIC, "ns", COL_LOWER,
     "minimum over samples of one-way latency (sample time / 2 / round_trips)"},
    {"median_ns", COL_METRIC, "ns", COL_LOWER, "median over samples of one-way latency"},
    {"sample_cv", COL_EVIDENCE, "fraction", COL_NOSIDE,
     "standard deviation / mean over the samples"},
    {"handoffs", COL_METRIC, "count", COL_NOSIDE,
     "one-way handoffs done, preheat included (what a HITM count would be divided by)"},
    /* pingpong's own request (--home), not the harness's --mem-node, under the same names */
    {"mem_node_requested", COL_CONFIG, "text", COL_NOSIDE,
     "--home as asked: first (also when not given: first touch from cpu_a's thread, not bound), "
     "writer (bound to cpu_a's node), reader (cpu_b's, touched by cpu_b) or node:N; --mem-node "
     "a, b, N (and older sets' values, mem_node_req up to schema 11) read as first, reader, "
     "node:N"},
    {"mem_node", COL_CONTEXT, "NUMA node", COL_NOSIDE,
     "NUMA node --home binds the pair's page to: writer and reader resolved to cpu_a's and "
     "cpu_b's node, node:N to N; NA with first (not bound)"},
    {"mem_node_actual", COL_CONTEXT, "NUMA node", COL_NOSIDE,
     "NUMA node the pair's page is on after the run (get_mempolicy), -1 if unknown: as found, "
     "beside mem_node"},
    {"home", COL_CONTEXT, "text", COL_NOSIDE,
     "where the line lived, as found (mem_node_actual): writer (cpu_a's node), reader (cpu_b's), "
     "both (the pair's one node) or other; NA when a node is unknown"},
    {"line_addr", COL_CONTEXT, "address", COL_NOSIDE,
     "virtual address of the pair's first line; every pair and measurement gets fresh lines on "
     "a page of its own"},
    {"lines", COL_CONFIG, "count", COL_NOSIDE,
     "lines measured one after the other (--lines, default 1); min_ns and median_ns pool all "
     "their samples"},
    {"line_median_lo_ns", COL_METRIC, "ns", COL_LOWER,
     "lowest per-line median: with line_median_hi_ns the spread across the pair's lines (a proxy "
     "for the line's home in the mesh); equal with --lines 1"},
    {"line_median_hi_ns", COL_METRIC, "ns", COL_LOWER,
     "highest per-line median; equal to line_median_lo_ns with --lines 1"},
    {"concurrent_req", COL_CONTEXT, "text", COL_NOSIDE, "--concurrent as asked: 1, N or auto"},
    {"concurrent_cap", COL_CONTEXT, "count", COL_NOSIDE,
     "most pairs at once the run used after the accuracy check (while a class is outside the "
     "tolerance, auto moves to disjoint cores, then halves it)"},
    {"concurrent_fallbacks", COL_CONTEXT, "count", COL_NOSIDE,
     "times --concurrent auto stepped down (to disjoint cores, or half the pairs at once) because "
     "a class was outside the accuracy check's tolerance; 0 with --concurrent 1 or N"},
    {"round", COL_CONTEXT, "count", COL_NOSIDE,
     "the round (0-based) the pair was measured in; pairs of one round run at the same time, "
     "disjoint as round_disjoint says"},
    {"rounds", COL_CONTEXT, "count", COL_NOSIDE, "rounds in the run's schedule"},
    {"concurrent", COL_CONTEXT, "count", COL_NOSIDE,
     "pairs measured at once in this pair's round (1: alone)"},
    {"round_disjoint", COL_CONTEXT, "text", COL_NOSIDE,
     "what the pairs of a round never share: cores (--concurrent N, and auto once its check "
     "moved pairs off each other's cores) or pus (auto first: SMT siblings may each run a pair)"},
    {"round_overlap", COL_EVIDENCE, "fraction", COL_NOSIDE,
     "the largest share of this pair's window (both its threads measuring) during which another "
     "pair of its round measured too (a fast pair may end first); NA when measured alone"},
    {"pkg_a", COL_CONTEXT, "index", COL_NOSIDE,
     "cpu_a's package (hwloc logical index over the machine; -1 outside any package)"},
    {"core_a", COL_CONTEXT, "index", COL_NOSIDE,
     "cpu_a's core (hwloc logical index over the machine)"},
    {"smt_a", COL_CONTEXT, "index", COL_NOSIDE,
     "cpu_a's index among its core's PUs (0: the first SMT sibling)"},
    {"node_a", COL_CONTEXT, "NUMA node", COL_NOSIDE, "cpu_a's NUMA node"},
    {"kind_a", COL_CONTEXT, "text", COL_NOSIDE,
     "cpu_a's hwloc CPU kind on a hybrid part (IntelCore, IntelAtom); NA with one kind"},
    {"pkg_b", COL_CONTEXT, "index", COL_NOSIDE,
     "cpu_b's package (hwloc logical index over the machine; -1 outside any package)"},
    {"core_b", COL_CONTEXT, "index", COL_NOSIDE,
     "cpu_b's core (hwloc logical index over the machine)"},
    {"smt_b", COL_CONTEXT, "index", COL_NOSIDE,
     "cpu_b's index among its core's PUs (0: the first SMT sibling)"},
    {"node_b", COL_CONTEXT, "NUMA node", COL_NOSIDE, "cpu_b's NUMA node"},
    {"kind_b", COL_CONTEXT, "text", COL_NOSIDE,
     "cpu_b's hwloc CPU kind on a hybrid part (IntelCore, IntelAtom); NA with one kind"},
    {"check_alone_median_ns", COL_EVIDENCE, "ns", COL_NOSIDE,
     "for a pair of the accuracy sample (--check-pairs per class, default 2): median measured "
     "alone; NA for other pairs and with --concurrent 1"},
    {"check_concurrent_median_ns", COL_EVIDENCE, "ns", COL_NOSIDE,
     "for a pair of the accuracy sample: median measured in its round; NA for other pairs and "
     "with --concurrent 1"},
    {"check_pair_ratio", COL_EVIDENCE, "ratio", COL_NOSIDE,
     "check_concurrent_median_ns / check_alone_median_ns; NA for other pairs and with "
     "--concurrent 1"},
    {"check_class_pairs", COL_EVIDENCE, "count", COL_NOSIDE,
     "sample pairs of the pair's class and mode"},
    {"check_class_ratio", COL_EVIDENCE, "ratio", COL_NOSIDE,
     "median of the class's ratios concurrent/alone"},
    {"check_class_ratio_lo", COL_EVIDENCE, "ratio", COL_NOSIDE, "lowest of those ratios"},
    {"check_class_ratio_hi", COL_EVIDENCE, "ratio", COL_NOSIDE, "highest of those ratios"},
    {"check_status", COL_EVIDENCE, "text", COL_NOSIDE,
     "ok, or outside when the class's ratio is off 1 by more than --check-tolerance (default "
     "5%); with one pair at once the ratio is run-to-run noise; NA with --concurrent 1"},
    {"counted", COL_EVIDENCE, "yes/no", COL_NOSIDE,
     "yes when the counters followed this pair's threads; no for a pair measured in a round "
     "another pair's row started: its counter columns are NA"},
    {"expected_transfers_per_handoff", COL_CONTEXT, "count", COL_NOSIDE,
     "known answer: 1 for load-store; NA for cas (spinning CAS moves the line a variable number "
     "of times)"},
    {"hitm_per_handoff", COL_METRIC, "ratio", COL_NOSIDE,
     "measured HITM events / handoffs; NA when HITM was not counted (na_reason says why)"},
    {"hitm_ratio", COL_EVIDENCE, "ratio", COL_NOSIDE,
     "hitm_per_handoff / expected_transfers_per_handoff; NA when either is"},
    /* imported rows only (c2cbench import, docs/import.md); a run of pingpong writes none */
    {"source_tool", COL_CONTEXT, "text", COL_NOSIDE,
     "imported rows: the tool that measured the matrix (core-to-core-latency)"},
    {"source_file", COL_CONTEXT, "file", COL_NOSIDE,
     "imported rows: the matrix file's name, as given to c2cbench import"},
    {"source_statistic", COL_CONTEXT, "text", COL_NOSIDE,
     "imported rows: what min_ns and median_ns both hold (mean of round trip / 2: the source "
     "publishes one statistic per pair)"},
    {"source_topology", COL_CONTEXT, "text", COL_NOSIDE,
     "imported rows: --topology as given to c2cbench import (the source records none)"},
    {0},
};

/* The verdict (docs/validity.md, "The verdict"): the baseline: a class's typical one-way
 * transfer; min_ns describes its floor */
const char *const pingpong_verdict[] = { "median_ns", NULL };
