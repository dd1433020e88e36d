/* Run a preset: each entry as a child c2cbench run, into one result directory. */
#ifndef C2C_RUNNER_PRESET_RUN_H
#define C2C_RUNNER_PRESET_RUN_H

/* `c2cbench preset ...`: argv[0] is "preset"; returns the exit status. */
int preset_main(int argc, char **argv);
#endif
