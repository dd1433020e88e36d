/* Shared between the counters files (not for benches): PAPI state, the kernel probe, name helpers.
 */
#ifndef C2C_COUNTERS_INTERNAL_H
#define C2C_COUNTERS_INTERNAL_H
#include <stddef.h>

struct evtab;

/* PAPI and its thread support, initialised once per process after LIBPFM_FORCE_PMU is set: 0 or -1.
 */
int ctr_papi_start(void);
/* 0: not started, 1: up, -1: failed. */
int ctr_papi_state(void);
/* Why PAPI could not start ("" when it did). */
const char *ctr_papi_why(void);
/* Ask the kernel for a cycle counter on this thread: 0, or -1 with "no PMU"/"paranoid=N" in why. */
int ctr_perf_probe(char *why, size_t n);
/* A raw event name as a snake_case column stem. */
void ctr_snake(const char *in, char *out, size_t n);
/* The three names closest to bad: metrics, table events, SDE names, events of the active PMUs. */
void ctr_closest(const char *bad, const struct evtab *tab, const char *pmu, char *out, size_t n);
#endif
