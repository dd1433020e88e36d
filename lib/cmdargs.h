/* Subcommands that take inputs (compare, report, preset) accept options before or after them. */
#ifndef C2C_CMDARGS_H
#define C2C_CMDARGS_H
#include "lib/opts.h"

/* opts_parse, after moving options (and their values) ahead of positional arguments; "--" ends
 * options. argv is left unchanged; o->args point into *copy, which the caller frees (always). */
int opts_parse_mixed(struct opts *o, const struct opt_spec *const *tables, int argc, char **argv,
		     char ***copy, char *err);
#endif
