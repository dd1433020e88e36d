/* Write a Markdown and HTML report with gnuplot charts from result CSVs or directories. */
#ifndef C2C_ANALYSIS_REPORT_H
#define C2C_ANALYSIS_REPORT_H

/* Report on the inputs (CSV files or result directories) into dir: a new or empty directory, or
 * any when force (it is replaced whole). Returns the exit status: 0, 1 (a write or gnuplot
 * failed: nothing left behind), 2 (bad input or a refused directory); errors on stderr. */
int report_write(char **inputs, int ninputs, const char *dir, int force);
#endif
