/* gnuplot, the plotting program `report` drives: found on PATH, run on a script, errors reported.
 */
#ifndef C2C_GNUPLOT_H
#define C2C_GNUPLOT_H

/* Is an executable gnuplot on PATH? Return 0, or -1 with a message saying how to get one. */
int gnuplot_find(char *err);
/* Run `gnuplot SCRIPT` in directory dir; its messages go to dir/gnuplot.log. Return 0 or -1. */
int gnuplot_run(const char *dir, const char *script, char *err);
#endif
