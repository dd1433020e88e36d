/* Whether a CPU can run a pinned thread right now: it exists, is online, is in this process's
 * affinity. */
#ifndef C2C_CPUCHECK_H
#define C2C_CPUCHECK_H
#include <stddef.h>

#define SYSFS_CPU "/sys/devices/system/cpu"

/* 0 when CPU cpu can take a pinned thread; else 1 and why (naming the CPU) in why[n].
 * root is the sysfs CPU directory (SYSFS_CPU; another one only in tests). */
int cpu_unusable(const char *root, int cpu, char *why, size_t n);
#endif
