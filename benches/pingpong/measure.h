/* pingpong's measurement: one or more pairs at once, each pair its own threads, its own page and
 * its own K lines (measured one after the other), started together behind one barrier. */
#ifndef C2C_PP_MEASURE_H
#define C2C_PP_MEASURE_H
#include "benches/pingpong/pairs.h"
#include "harness/evidence.h"
#include "harness/threads.h"
#include <stdint.h>

enum { MODE_LOAD_STORE, MODE_CAS, NMODES };
enum { PP_INITIATOR, PP_RESPONDER, PP_NROLES }; /* thread roles: the pair's first and second PU */
extern const char *const pp_mode_names[NMODES];

/* --home: where each pair's page lives (its home node); a node >= 0 is --home node:N */
#define PP_HOME_FIRST (-1)  /* first touch from the pair's first PU (the writer), not bound */
#define PP_HOME_READER (-2) /* bound to cpu_b's node, first touched by cpu_b */
#define PP_HOME_WRITER (-3) /* bound to cpu_a's node, first touched by cpu_a */
#define PP_SLOT                                                                                    \
	256 /* bytes per line slot: ping at +0, pong at +128 (never the same 128-byte pair) */

struct pp_setup {
	const struct topo *topo;
	int mode, lines, mem;     /* mem: a PP_HOME_* or a NUMA node (libnuma placement) */
	long samples, round_trips;
	uint64_t preheat_ns;
	const struct thr_hooks *hooks; /* given to the threads of pair `hooked` only (-1: none) */
	int hooked;
};

/* One pair's result. */
struct pp_meas {
	double min, median, cv;          /* over every sample of every line */
	double line_med_lo, line_med_hi; /* lowest and highest per-line median */
	uint64_t handoffs;               /* initiator handoffs, preheat included */
	int plan_node;                   /* node --home binds the page to, -1 first (not bound) */
	int mem_node;                    /* node the page is on after the run, -1 unknown */
	uintptr_t line_addr;             /* virtual address of the first line */
	int touch_cpu;                   /* the CPU that first touched the lines, -1 unknown */
	struct ev_thread
	    ev[2];            /* validity evidence: initiator, responder (corun set by the bench) */
	double round_overlap; /* share of its window another pair of the round measured too */
};

/* Measure the n pairs (disjoint PUs) at the same time on fresh lines; 0 or -1 with a message. */
int pp_measure_round(const struct pp_setup *su, const struct pu_pair *const *pairs, int n,
		     struct pp_meas *out, char *err);
#endif
