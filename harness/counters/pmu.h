/* libpfm4: which core PMU this CPU has (as PAPI picks it) and how an event string encodes on it. */
#ifndef C2C_PMU_H
#define C2C_PMU_H
#include <stddef.h>

/* Set LIBPFM_FORCE_PMU (when force is non-NULL) and initialise libpfm4; call before PAPI starts. */
int pmu_init(const char *force, char *err);
/* The default core PMU as PAPI's perf_event component chooses it, or NULL when libpfm4 knows none. */
const char *pmu_default(void);
/* Is name a PMU compiled into the installed libpfm4 (present on this CPU or not)? */
int pmu_known(const char *name);
/* Comma list of the core PMUs the installed libpfm4 knows (static buffer). */
const char *pmu_known_list(void);
/* Encode an event on the active PMU exactly as PAPI does (PFM_OS_PERF_EVENT_EXT): "config=0x.. [config1=0x..]".
 * Returns 0, or -1 with libpfm4's reason in why. */
int pmu_encode(const char *event, char *enc, size_t n, char *why, size_t wn);
/* Does the event (and each of its umasks/modifiers) exist in some PMU table of the installed libpfm4? */
int pmu_name_anywhere(const char *event);
/* Call fn for each event name of the active PMUs (for "did you mean" suggestions). */
void pmu_each_event(void (*fn)(const char *name, void *arg), void *arg);
#endif
