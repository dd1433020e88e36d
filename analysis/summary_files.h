/* `c2cbench summary FILE...`: the summary of result files, from the files alone. */
#ifndef C2C_SUMMARY_FILES_H
#define C2C_SUMMARY_FILES_H
#include <stdio.h>

/* Read the n result CSVs or directories into one set and print its summary to f. 0, or -1 with
 * a one-line message (bad input: exit 2). */
int summary_files(FILE *f, char *const *files, int n, char *err);
#endif
