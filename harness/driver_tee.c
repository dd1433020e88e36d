/* The run summary from the files (harness/driver_tee.h). */
#include "harness/driver_tee.h"
#include "harness/context.h"
#include "schema/meta.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bench_summary_fn summary_fn;

void bench_set_summary(bench_summary_fn fn)
{
	summary_fn = fn;
}

int driver_summary(FILE *f, const char *csv, char *err)
{
	return summary_fn ? summary_fn(f, csv, err) : 0;
}

int tee_open(struct bench_ctx *c, const char *csv, const char *meta, struct tee *t, char *err)
{
	char own[4200];
	memset(t, 0, sizeof(*t));
	context_meta_path(csv, own, sizeof(own));
	if (!summary_fn || (meta[0] && strcmp(csv, "-") && !strcmp(meta, own)))
		return 0;
	const char *tmp = getenv("TMPDIR");
	snprintf(t->dir, sizeof(t->dir), "%s/c2cbench-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t->dir))
		return err_set(err,
			       "cannot create a directory for the summary's copy '%s'; accepted: a "
			       "writable TMPDIR",
			       t->dir);
	snprintf(t->csv, sizeof(t->csv), "%s/run.csv", t->dir);
	context_meta_path(t->csv, t->meta, sizeof(t->meta));
	bench_columns_path(t->meta, t->columns, sizeof(t->columns));
	if (csv_open(&t->out, t->csv, err)) {
		rmdir(t->dir);
		return -1;
	}
	if (context_write_meta(c->ctx, t->meta, err)) {
		csv_close(&t->out, err);
		unlink(t->csv);
		rmdir(t->dir);
		return -1;
	}
	t->on = 1;
	c->tee = &t->out;
	c->tee_columns = t->columns;
	return 0;
}

const char *tee_csv(const struct tee *t, const char *csv)
{
	return t->on ? t->csv : csv;
}

void tee_close(struct tee *t)
{
	char e[ERRLEN], side[4300];
	if (!t->on)
		return;
	csv_close(&t->out, e);
	unlink(t->csv);
	unlink(t->meta);
	unlink(t->columns);
	bench_desc_path(t->meta, side, sizeof(side));
	unlink(side);
	rmdir(t->dir);
	t->on = 0;
}
