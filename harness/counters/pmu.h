/* libpfm4: which core PMU this CPU has (as PAPI picks it) and how an event string encodes on it. */
#ifndef C2C_PMU_H
#define C2C_PMU_H
#include <stddef.h>

/* Set LIBPFM_FORCE_PMU (when force is non-NULL) and initialise libpfm4; call before PAPI starts. */
int pmu_init(const char *force, char *err);

/* Which PMU counts, and why: what libpfm4 detected, the libpfm4 PMU in use, whose table rows feed
 * the metrics. */
struct pmu_choice {
	char detected[64]; /* libpfm4's own pick ("" when it knows none) */
	char used[64];     /* the libpfm4 PMU events are encoded on ("" when none) */
	char table[64]; /* the platform table's rows in use (differs from used under a fallback) */
	char why[320];     /* how used was chosen, or why there is none */
	int fallback; /* used was forced because libpfm4 has no table for this CPU (or for --pmu) */
};
/* Pick the PMU before PAPI starts: --pmu (a libpfm4 PMU, or a table PMU the installed libpfm4
 * lacks, through its compatible PMU), else libpfm4's detection, else the closest compatible PMU by
 * CPUID; forces it (LIBPFM_FORCE_PMU) and initialises libpfm4. Returns 0, or -1 with a one-line
 * message (bad C2C_CPUID). */
int pmu_select(const char *force, struct pmu_choice *c, char *err);
/* The default core PMU as PAPI's perf_event component chooses it, or NULL when libpfm4 knows none.
 */
const char *pmu_default(void);
/* Is name a PMU compiled into the installed libpfm4 (present on this CPU or not)? */
int pmu_known(const char *name);
/* Comma list of the core PMUs the installed libpfm4 knows (static buffer). */
const char *pmu_known_list(void);
/* Encode an event on the active PMU exactly as PAPI does (PFM_OS_PERF_EVENT_EXT): "config=0x..
 * [config1=0x..]". Returns 0, or -1 with libpfm4's reason in why. */
int pmu_encode(const char *event, char *enc, size_t n, char *why, size_t wn);
/* A perf_event_open attribute for event on the active PMU (user space only), for the multiplexing
 * probe. Returns 0, or -1 with libpfm4's reason. */
struct perf_event_attr;
int pmu_perf_attr(const char *event, struct perf_event_attr *attr, char *why, size_t wn);
/* Does the event (and each of its umasks/modifiers) exist in some PMU table of the installed
 * libpfm4? */
int pmu_name_anywhere(const char *event);
/* Call fn for each event name of the active PMUs (for "did you mean" suggestions). */
void pmu_each_event(void (*fn)(const char *name, void *arg), void *arg);
#endif
