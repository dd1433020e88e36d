/* Write a Markdown report with gnuplot charts from result CSVs or directories. */
#ifndef C2C_ANALYSIS_REPORT_H
#define C2C_ANALYSIS_REPORT_H

/* `c2cbench report ...`: argv[0] is "report"; returns the exit status. */
int report_main(int argc, char **argv);
#endif
