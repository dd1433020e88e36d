/* The machine an imported matrix was measured on, as `import --topology TOPO` names it. */
#ifndef C2C_TOPOSPEC_H
#define C2C_TOPOSPEC_H
#include "harness/topo.h"

/* Accepted TOPO forms, for --help and errors. */
#define TOPOSPEC_FORMS                                                                      \
	"an lstopo XML file (xml:FILE or a path), an hwloc synthetic description (synthetic:DESC " \
	"or DESC, PUs numbered in topological order) or linux:PxCxT[/L]"

/* Load TOPO: linux:PxCxT[/L] (P packages of C cores of T threads, L cores per L3, default C, one
 * NUMA node per package, numbered as Linux numbers x86 servers: cpu = t*P*C + p*C + c), xml:FILE,
 * synthetic:DESC, an existing file (XML) or else a synthetic description. 0, or -1 with one line.
 */
int topospec_load(struct topo *t, const char *topo, char *err);
/* The synthetic description of linux:PxCxT[/L] (malloc'ed), or NULL with one line. */
char *topospec_linux(const char *shorthand, char *err);
#endif
