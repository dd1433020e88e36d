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
	char auto_why[200]; /* how auto was resolved ("" when not asked for auto) */
	int n;
	struct slot slot[PLAN_MAX];
	const struct role_req *roles;
	int nroles;
	int mem_node; /* NUMA node OS index for the contended object */
};

/* Accepted placement words, for --help and errors. */
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
