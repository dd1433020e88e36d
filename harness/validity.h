/* Validity rules (docs/validity.md): a repetition is invalid when its evidence shows it did not
 * measure what it claims. Each rule has a tolerance; the reason names the rule and the value. */
#ifndef C2C_VALIDITY_H
#define C2C_VALIDITY_H
#include "harness/evidence.h"
#include <stddef.h>

struct vrules {
	double window_tol;   /* |window - requested| / requested above this: rule "window" */
	double oncpu_min;    /* a co-running thread on a CPU for less of its window: rule "oncpu" */
	double overlap_min;  /* co-running threads' common window / longest below this: rule
				"overlap" */
	double steal_max;    /* steal on a measuring CPU / window above this: rule "steal" */
	double probe_factor; /* placement probe after vs before (either way) above this: rule
				"probe" */
	double setting_tol;  /* |achieved - requested| / requested above this: rule "setting" */
};

/* The defaults the options document (--valid-*). */
extern const struct vrules vrules_default;

/* The rules, in the order the reason names them. */
enum vrule {
	VR_OPS, VR_WINDOW, VR_ONCPU, VR_OVERLAP, VR_STEAL, VR_MIGRATION, VR_PROBE, VR_SETTING,
	VR_N
};
extern const char *const vrule_name[VR_N];

/* Which rules an attempt broke and by how much (the furthest value of each): ops and migration
 * count threads, oncpu and overlap are the lowest fraction, window, steal and setting the largest
 * fraction off (or lost), probe the largest factor. */
struct vbroken {
	int hit[VR_N];
	double worst[VR_N];
	char setting[32]; /* the name of the setting furthest off (rule setting) */
};

/* Check e; returns 1 (valid, reason "") or 0 with every broken rule and its value in reason. */
int validity_check(const struct evidence *e, const struct vrules *v, char *reason, size_t n);
/* The same, also adding what broke to *b (not cleared first: counter passes add to one). */
int validity_judge(const struct evidence *e, const struct vrules *v, char *reason, size_t n,
		   struct vbroken *b);
#endif
