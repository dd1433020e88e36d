/* Validity rules (docs/validity.md): a repetition is invalid when its evidence shows it did not
 * measure what it claims. Each rule has a tolerance; the reason names the rule and the value. */
#ifndef C2C_VALIDITY_H
#define C2C_VALIDITY_H
#include "harness/evidence.h"
#include <stddef.h>

struct vrules {
	double window_tol;   /* |window - requested| / requested above this: rule "window" */
	double oncpu_min;    /* a co-running thread on a CPU for less of its window: rule "oncpu" */
	double overlap_min;  /* co-running threads' common window / longest below this: rule "overlap" */
	double steal_max;    /* steal on a measuring CPU / window above this: rule "steal" */
	double probe_factor; /* placement probe after vs before (either way) above this: rule "probe" */
	double setting_tol;  /* |achieved - requested| / requested above this: rule "setting" */
};

/* The defaults the options document (--valid-*). */
extern const struct vrules vrules_default;

/* Check e; returns 1 (valid, reason "") or 0 with every broken rule and its value in reason. */
int validity_check(const struct evidence *e, const struct vrules *v, char *reason, size_t n);
#endif
