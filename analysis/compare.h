/* Join two result sets on their configuration and say what changed. */
#ifndef C2C_ANALYSIS_COMPARE_H
#define C2C_ANALYSIS_COMPARE_H

/* `c2cbench compare ...`: argv[0] is "compare"; returns the exit status. */
int compare_main(int argc, char **argv);
#endif
