/* `c2cbench preset NAME --resume DIR`: what an earlier, interrupted invocation left in DIR. */
#ifndef C2C_PRESET_RESUME_H
#define C2C_PRESET_RESUME_H
#include "harness/context.h"
#include "runner/preset.h"
#include "runner/preset_meta.h"

/* Refuse (one line, for exit 2) a DIR made by another preset or preset text, other validity options
 * given to preset, another schema_version
 * or another machine (host, CPU model, packages, cores, PUs, NUMA nodes), or by an older c2cbench
 * whose metadata.txt was not INI (such directories are not read). */
int resume_check(const char *dir, const struct preset *p, const struct context *ctx,
		 struct resumed *r, char *err);
/* Set ctx->label to the label DIR/metadata.txt records (older directories: none, the default
 * stays). */
void resume_label(const char *dir, struct context *ctx);
/* 1 when DIR/CSV's .meta says the run ended complete and the CSV holds exactly the rows it names,
 * each whole; else 0, with why (empty when the .meta does not claim complete). */
int resume_run_complete(const char *dir, const char *csv, char *why, size_t n);
/* Move what an unfinished run left (CSV, .meta) to DIR/interrupted/, so the directory holds whole
 * runs only. */
int resume_set_aside(const char *dir, const char *csv, char *err);
#endif
