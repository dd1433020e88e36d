/* `preset --resume`: is a CSV kept in the run directory of the configuration its run asks now? */
#ifndef C2C_PRESET_CONFIG_H
#define C2C_PRESET_CONFIG_H
#include "runner/preset.h"
#include <stddef.h>

/* 1 when DIR/CSV was made with the options run r gives now: every option of r whose request the
 * rows record (a column OPT_requested or OPT_requested_s, or a configuration column of the bench
 * named as the option) has that value in every row, and a list option (--layout shared,aligned)
 * exactly its items; --reps (given or default) is the number of repetitions; the validity options
 * (given or default) are the .meta's [validity]. Else 0, with why naming the file, the option and
 * both values. Settings that the run resolves (--mem-node writer, --seed 0) are not compared. */
int resume_same_config(const char *dir, const char *csv, const struct preset_run *r, char *why,
		       size_t n);
/* The rows' part of it, on the CSV's text (NUL-terminated) read through lib/csvread.h, csv
 * naming it in why: a CSV that reader refuses is not kept, why naming the file and line. */
int resume_same_rows(const char *text, const char *csv, const struct preset_run *r, char *why,
		     size_t n);
#endif
