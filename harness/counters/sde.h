/* Software-defined events: benches export their own tallies through libsde, readable by any PAPI
 * tool (and by --events) as sde:::c2cbench::NAME. This path works on every machine, VMs included.
 */
#ifndef C2C_SDE_H
#define C2C_SDE_H
#include "lib/util.h"
#include <stdint.h>

#define SDE_LIB "c2cbench"
#define SDE_PREFIX "sde:::" SDE_LIB "::"
/* Every counter NAME also has NAME.this_thread: the reading thread's own tally (a libsde callback
 * on a thread-local value), so a per-thread PAPI event set attributes each tally to its thread's
 * role. */
#define SDE_THREAD_SUFFIX ".this_thread"

/* One exported counter: cumulative over the process, bumped once per thread when its measured phase
 * ends (never in the hot loop), so a PAPI read around a run sees exactly that run's measured-phase
 * tally. */
struct sde_counter {
	const char *name;
	const char *desc;
	C2C_ALIGNED long long value;
	int slot; /* index of its thread-local tally (set by sde_export) */
};

/* Register counters with libsde (once per name; later calls for the same array are no-ops). */
void sde_export(struct sde_counter *c, int n);
/* Add v to the process total and to the calling thread's own tally (once per thread, after its
 * measured phase). */
void sde_add(struct sde_counter *c, uint64_t v);
/* Is NAME (without the sde::: prefix) exported by a bench that has run its prepare? */
int sde_known(const char *name);
/* Comma list of exported names, with the prefix (static buffer). */
const char *sde_names(void);
#endif
