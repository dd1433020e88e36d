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
/* The data rows of the CSV at path (named name in messages) that the one reader
 * (lib/csvstream.h) reads whole: every row up to the end, or up to the first it refuses (a last
 * row cut short), whose message is then in err ("" when none). -1 when it cannot be opened or has
 * no header, with err. */
long csv_whole_rows(const char *path, const char *name, char *err);
/* 1 when DIR/CSV's .meta says the run ended complete and the CSV holds exactly the rows it names,
 * each whole; else 0, with why (empty when the .meta does not claim complete). */
int resume_run_complete(const char *dir, const char *csv, char *why, size_t n);
/* 1 when DIR/CSV, kept as complete, is this run's: its .meta's label, host and fingerprint are
 * this machine's, it started no earlier than the directory (started: metadata.txt's), and every
 * row names bench and this machine (label, host, fingerprint columns); else 0 with why. */
int resume_kept_ours(const char *dir, const char *csv, const char *bench, const struct context *ctx,
		     const char *started, char *why, size_t n);
/* Lock DIR (flock on the directory, held until the process ends) so two presets, or two resumes,
 * never write one directory at once; -1 with err when another holds it. */
int resume_lock(const char *dir, char *err);
/* Move what an unfinished run left (CSV, .meta) to DIR/interrupted/, so the directory holds whole
 * runs only. */
int resume_set_aside(const char *dir, const char *csv, char *err);
#endif
