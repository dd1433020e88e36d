/* CPUs the installed libpfm4 has no table for: the closest compatible PMU, by CPU vendor, family
 * and model. */
#ifndef C2C_FALLBACK_H
#define C2C_FALLBACK_H
#include <stddef.h>

/* What CPUID says (x86); vendor "" where there is no CPUID (other architectures). */
struct cpu_sig {
	char vendor[16]; /* "GenuineIntel", "AuthenticAMD" */
	int family, model; /* display family and model, extended fields folded in */
	int fake;          /* from C2C_CPUID, not from the CPU */
};

struct pmu_fallback {
	const char *vendor;
	int family, model_lo, model_hi;
	const char *cpu;    /* "Emerald Rapids" */
	const char *target; /* the platform table's rows for this CPU ("emr") */
	const char *use;    /* the libpfm4 4.13 PMU whose table encodes them ("spr") */
	const char *why;    /* why that table is compatible */
};

/* This CPU's signature, or the one C2C_CPUID=VENDOR:FAMILY:MODEL gives (made-up CPUs, for tests).
 * Returns 0, or -1 with a one-line reason when C2C_CPUID is malformed. */
int cpu_sig_read(struct cpu_sig *s, char *err);
/* The fallback for a CPU signature, or NULL (why says there is none and why). */
const struct pmu_fallback *pmu_fallback_for_cpu(const struct cpu_sig *s, char *why, size_t n);
/* The fallback whose table rows are target ("emr" -> spr), or NULL. */
const struct pmu_fallback *pmu_fallback_for_target(const char *target);
#endif
