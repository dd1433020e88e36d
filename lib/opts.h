/* Command-line options as data: the harness and each bench declare tables; one parser serves all.
 */
#ifndef C2C_OPTS_H
#define C2C_OPTS_H
#include "lib/parse.h" /* list_has, list_split */
#include <stdio.h>

enum opt_type {
	OPT_FLAG,    /* no value */
	OPT_COUNT,   /* integer >= 1 */
	OPT_UINT,    /* integer >= 0 */
	OPT_SECONDS, /* number > 0 */
	OPT_CHOICE,  /* one of choices */
	OPT_CHOICES, /* comma list of choices, each at most once */
	OPT_TEXT,    /* free text, checked by its user */
	OPT_PERCENT, /* number from 0 to 100 */
	OPT_COUNT_AUTO, /* integer >= 1, or "auto" */
	OPT_FACTOR,  /* number from 1 to 1000 */
	OPT_OFF,     /* percentage from 0 to 1000: how far a value may be off another */
};

struct opt_spec {
	const char *name; /* long option, without "--" */
	enum opt_type type;
	const char *def;     /* default as text; NULL: unset */
	const char *metavar; /* shown in --help */
	const char *help;
	const char *choices;              /* "a,b,c" for CHOICE/CHOICES */
	const char *(*choices_fn)(void); /* or computed (e.g. from a registry) */
};

#define OPTS_MAX 96
struct opts {
	int n;
	struct {
		const struct opt_spec *spec;
		char *val; /* NULL when unset */
		int given; /* on the command line, not a default */
	} v[OPTS_MAX];
	int nargs;
	char **args; /* positional arguments (point into argv) */
};

/* Parse argv[0..argc) (argv[0] is skipped, as getopt does) against NULL-terminated tables.
 * Every value is type-checked, defaults included. Return 0, or -1 with a one-line message. */
int opts_parse(struct opts *o, const struct opt_spec *const *tables, int argc, char **argv,
	       char *err);
void opts_free(struct opts *o);

const char *opt_str(const struct opts *o, const char *name);
long opt_long(const struct opts *o, const char *name);
double opt_double(const struct opts *o, const char *name);
int opt_flag(const struct opts *o, const char *name);
int opt_given(const struct opts *o, const char *name);
/* Set a value as if given (used by presets). Return 0, or -1 with a message. */
int opt_set(struct opts *o, const char *name, const char *val, char *err);


void opts_help(FILE *f, const struct opt_spec *table);
#endif
