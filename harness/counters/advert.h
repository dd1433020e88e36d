/* Arm PMUv3: does the kernel's PMU advertise an event? The kernel lists in sysfs (events/ of each
 * armv8_ PMU in /sys/bus/event_source/devices) the common events its PMCEID registers say are
 * implemented; an event the PMU does not implement still opens and counts 0: c2cbench gives NA. */
#ifndef C2C_ADVERT_H
#define C2C_ADVERT_H
#include <stddef.h>

enum adv_verdict {
	ADV_NONE,       /* no armv8_ PMU under the devices folder: the check does not apply */
	ADV_YES,        /* advertised (itself, or through its parent common event) */
	ADV_NO,         /* not advertised: NA */
	ADV_UNVERIFIED, /* the PMU is there, but this event cannot be checked against it */
};

/* The folder the kernel lists PMUs in: $C2C_SYSFS_ROOT/bus/event_source/devices (C2C_SYSFS_ROOT
 * stands in for /sys, for tests with made-up trees). */
const char *adv_devices_dir(char *buf, size_t n);
/* Is pmu (a libpfm4 PMU or platform-table name) an Arm one, whose events are PMUv3 numbers? */
int adv_arm_pmu(const char *pmu);
/* The PMUv3 event number in an encoding "config=0x47 ..." (libpfm4's, the table's): 0, or -1. */
int adv_event_number(const char *encoding, unsigned *ev);
/* The verdict for PMUv3 event ev (name: its native name, for the reason; have_ev 0: no number
 * known) against every armv8_ PMU under devdir, with the reason in why. */
enum adv_verdict adv_check(const char *devdir, int have_ev, unsigned ev, const char *name,
			   char *why, size_t n);
#endif
