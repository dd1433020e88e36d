/* The environment variables c2cbench reads are options: each checked at start like the option it
 * stands for (one line, exit 2), listed in one table (docs/cli.md#environment). */
#ifndef C2C_CLI_ENV_H
#define C2C_CLI_ENV_H

/* 0, or -1 with the first variable set to what its check refuses, and what it accepts, in err. */
int env_check(char *err);
#endif
