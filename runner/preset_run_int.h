/* What runner/preset_run.c (a preset's plan and its runs) and runner/preset_console.c (what it
 * says on the terminal and in console.log) share. */
#ifndef C2C_RUNNER_PRESET_RUN_INT_H
#define C2C_RUNNER_PRESET_RUN_INT_H
#include "harness/progress.h"
#include "runner/preset.h"
#include "runner/preset_meta.h"
#include <stdio.h>

struct console {
	FILE *log;
	struct progress pg; /* the live line on a terminal (the component `run` uses too) */
};

void __attribute__((format(printf, 3, 4))) say(struct console *c, FILE *to, const char *fmt, ...);
double print_plan(struct console *c, const struct preset *p, const struct planned *pl,
		  const char *where);
int run_one(struct console *c, const struct preset_run *r, const char *csv, const char *label,
	    int i, int n, double left_after, double est, char **nothing);
void print_nothing(struct console *c, const struct preset *p, const struct planned *pl, int n,
		   int nothing);
#endif
