/* compare's and report's --label DIR=NAME, given once per input to rename (resultset.h). */
#ifndef C2C_CLI_RELABEL_H
#define C2C_CLI_RELABEL_H

/* Take every "--label DIR=NAME" (and "--label=DIR=NAME") out of argv (*argc shrinks) into the
 * grouping engine's relabelling; -1 and err on a bad one or a --label without its value. */
int cli_relabel_args(int *argc, char **argv, char *err);
#endif
