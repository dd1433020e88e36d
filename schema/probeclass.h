/* Probe classes: which hidden placement a repetition ran on, from its placement probe's latency
 * (docs/validity.md, "Probe classes"). A vCPU pair that the hypervisor moves shows latencies
 * that cluster apart (30, 60-75, 260-320 ns on one VM); a class is such a cluster. */
#ifndef C2C_PROBECLASS_H
#define C2C_PROBECLASS_H
#include <stddef.h>

/* Two latencies are of one class while the larger is at most this factor of the smaller. */
#define PROBE_CLASS_GAP 1.5

/* A row's latency of one probed pair: the mean of its before and after probes, either alone
 * when the other is missing (< 0); -1 when neither was measured. */
double probe_latency(double before, double after);
/* Are x and y (n pairs' latencies each) of one class: every pair measured on both within
 * PROBE_CLASS_GAP? */
int probe_same_class(const double *x, const double *y, int n);
/* The classes of n latencies (< 0: none; class -1): sorted, a new class where a value exceeds the
 * one before by more than PROBE_CLASS_GAP. cls[i]: the class of lat[i], 0 the fastest. Returns
 * the number of classes. */
int probe_classes(const double *lat, int n, int *cls);
/* "28-33 ns (3 repetitions), 260-320 ns (2)": each class's range and count. */
void probe_classes_text(const double *lat, const int *cls, int n, int ncls, char *out, size_t len);
#endif
