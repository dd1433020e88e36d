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

/* The placements, one table (harness/placement.c): a name, what it does, and its planner, which
 * fills p for the roles r from t (arg: what follows "cpus:"; list: room for every PU). `list`,
 * --help, the man page and the completions are made from it (tests/test_placement.c checks). */
struct placement_def {
	const char *name, *desc;
	int (*plan)(struct plan *p, const struct topo *t, const char *arg, const struct pu **list,
		    const struct role_req *r, int nr, char *err);
};
extern const struct placement_def placement_defs[];
/* The entry for --placement's value pl ("cpus:1,2" is cpus:LIST's, *arg "1,2"), or NULL. */
const struct placement_def *placement_find(const char *pl, const char **arg);
/* The table's names, comma-separated, for errors and suggestions. */
const char *placement_names(void);
/* --placement's help: every name, then what auto does (a bench's own auto_is and why, if set). */
void placement_help(char *buf, size_t n, const char *auto_is, const char *why);

/* Fill p for the given roles; an impossible placement is an error naming what is missing. */
int plan_make(const struct topo *t, const char *placement, const struct role_req *roles, int nroles,
	      struct plan *p, char *err);
/* Resolve --mem-node N|writer|reader (first role = writer, second = reader). */
int plan_mem_node(const struct topo *t, struct plan *p, const char *spec, char *err);
/* CPU list of one role, "3,5,7" (role < 0: all threads). */
void plan_cpus(const struct plan *p, int role, char *buf, size_t n);
void plan_print(const struct plan *p, const struct topo *t, FILE *f);
#endif
