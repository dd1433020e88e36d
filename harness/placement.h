/* Placement policies: which PU each thread gets, decided from the topology before anything runs. */
#ifndef C2C_PLACEMENT_H
#define C2C_PLACEMENT_H
#include "harness/topo.h"

#define PLAN_MAX 1024

struct role_req {
	const char *name; /* "writer", "reader", ... */
	int count;
};

struct slot {
	int role, idx; /* role index into the request, thread index within the role */
	int os, pkg, core, smt, node;
};

struct plan {
	char used[64]; /* the policy actually applied ("auto" is resolved) */
	char auto_why[400]; /* how auto was resolved ("" when not asked for auto) */
	int n;
	struct slot slot[PLAN_MAX];
	const struct role_req *roles;
	int nroles;
	int mem_node; /* NUMA node OS index for the contended object (-1: the topology has none
			 usable) */
};

/* The placements, one table that list, --help and the planner read (harness/placement.c). */
struct placement_def {
	const char *name, *desc;
};
extern const struct placement_def placement_defs[];
#define PLACEMENT_AUTO_DESC                                                                        \
	"on the allowed set: cross-socket where 2+ packages have allowed cores; cross-llc "        \
	"in the home package where the target CPU's HITM stand-in only sees another LLC (AMD Zen " \
	"3+); else "                                                                               \
	"same-socket; on a hybrid part every thread on one CPU kind, the most performant with "    \
	"room"
/* Accepted placement words, for --help and errors (the table's names, in order: a test checks). */
#define PLACEMENTS "auto,smt,same-llc,cross-llc,same-socket,cross-socket,spread,compact,cpus:LIST"

/* Fill p for the given roles; an impossible placement is an error naming what is missing. */
int plan_make(const struct topo *t, const char *placement, const struct role_req *roles, int nroles,
	      struct plan *p, char *err);
/* Resolve --mem-node N|writer|reader (first role = writer, second = reader). */
int plan_mem_node(const struct topo *t, struct plan *p, const char *spec, char *err);
/* CPU list of one role, "3,5,7" (role < 0: all threads). */
void plan_cpus(const struct plan *p, int role, char *buf, size_t n);
void plan_print(const struct plan *p, const struct topo *t, FILE *f);
#endif
