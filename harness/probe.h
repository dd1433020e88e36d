/* The host placement probe: a short ping-pong between two CPUs before and after each repetition.
 * On a VM a change says the hypervisor moved a vCPU (an SMT sibling became another core). */
#ifndef C2C_PROBE_H
#define C2C_PROBE_H
#include "harness/topo.h"
#include <stdint.h>

/* One-way handoff latency in ns between CPUs a and b, within about budget_ns of handoffs
 * (min over a few samples); -1 when it cannot be measured (a == b, a binding refused). */
double probe_pair_ns(const struct topo *t, int a, int b, uint64_t budget_ns);
#endif
