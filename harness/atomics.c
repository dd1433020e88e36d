#include "harness/atomics.h"
#include "lib/util.h"
#include <string.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#ifndef HWCAP_ATOMICS
#define HWCAP_ATOMICS (1 << 8)
#endif
#endif

int atomics_have_lse(void)
{
#if defined(__aarch64__)
	return (getauxval(AT_HWCAP) & HWCAP_ATOMICS) != 0;
#else
	return 0;
#endif
}

int atomics_resolve(const char *want, int *flavour, char *err)
{
#if defined(__aarch64__)
	if (!strcmp(want, "auto")) {
		*flavour = atomics_have_lse() ? ATOMICS_LSE : ATOMICS_LLSC;
		return 0;
	}
	if (!strcmp(want, "llsc")) {
		*flavour = ATOMICS_LLSC;
		return 0;
	}
	if (!strcmp(want, "lse")) {
		if (!atomics_have_lse())
			return err_set(err, "--atomics lse: this CPU has no LSE atomics "
					    "(HWCAP_ATOMICS not set); accepted here: auto, llsc");
		*flavour = ATOMICS_LSE;
		return 0;
	}
#else
	if (!strcmp(want, "auto") || !strcmp(want, "lock")) {
		*flavour = ATOMICS_LOCK;
		return 0;
	}
#endif
	return err_set(err, "--atomics: '%s' is not accepted; accepted: %s", want, ATOMICS_CHOICES);
}

const char *atomics_name(int flavour)
{
	return flavour == ATOMICS_LSE ? "lse" : flavour == ATOMICS_LLSC ? "llsc" : "lock";
}
