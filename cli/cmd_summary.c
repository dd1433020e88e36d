/* `c2cbench summary FILE...`: a run's summary from its files (analysis/runsum.c), the one the run
 * printed; and the run's hook to print it (harness/ writes rows, analysis/ reads them). */
#include "analysis/resultset.h"
#include "analysis/runsum.h"
#include "harness/bench.h"
#include "cli/bench_fallback.h"
#include "cli/commands.h"
#include "lib/util.h"
#include "schema/meta.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The CSVs to summarise: each FILE, or each result CSV (one with its .meta) of a directory, in
 * name order. */
struct csvs_found {
	char **path;
	int n;
};

static void found_push(struct csvs_found *f, const char *p)
{
	f->path = realloc(f->path, (size_t)(f->n + 1) * sizeof(char *));
	if (!f->path)
		out_of_memory(0);
	f->path[f->n++] = xstrdup(p);
}

static int csv_name(const struct dirent *d)
{
	size_t l = strlen(d->d_name);
	return l > 4 && !strcmp(d->d_name + l - 4, ".csv");
}

static int found_add(struct csvs_found *f, const char *arg, char *err)
{
	struct stat st;
	struct dirent **ent;
	if (stat(arg, &st) || !S_ISDIR(st.st_mode)) {
		found_push(f, arg);
		return 0;
	}
	int n = scandir(arg, &ent, csv_name, alphasort), had = f->n;
	if (n < 0)
		return err_set(err, "summary: cannot read directory '%.200s': %s", arg,
			       strerror(errno));
	size_t al = strlen(arg);
	while (al > 1 && arg[al - 1] == '/') /* DIR/: its files DIR/FILE, not DIR//FILE */
		al--;
	for (int i = 0; i < n; i++) {
		char p[4200], meta[4300];
		snprintf(p, sizeof(p), "%.*s/%s", (int)al, arg, ent[i]->d_name);
		context_meta_path(p, meta, sizeof(meta));
		if (!access(meta, R_OK)) /* a result set's CSV, not a side table */
			found_push(f, p);
		free(ent[i]);
	}
	free(ent);
	if (f->n == had)
		return err_set(err,
			       "summary: '%.200s' holds no result CSV; accepted: a result CSV or a "
			       "directory of them (each with its .meta)",
			       arg);
	return 0;
}

static void found_free(struct csvs_found *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->path[i]);
	free(f->path);
}

static int summary_main(int argc, char **argv)
{
	char err[ERRLEN];
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: c2cbench summary FILE...\n"
		       "FILE: a run's result CSV, or a directory of them. Prints each run's "
		       "summary\nfrom its files alone, the one the run printed: medians, spread "
		       "and ratios per\nvariant, then each variant against its bench's baseline "
		       "with the verdict\n(docs/validity.md, \"The verdict\").\nExit status 2: "
		       "bad input.\n");
		return argc < 2 ? EXIT_BADINPUT : 0;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr,
				"c2cbench: error: summary: unknown option '%s'; accepted: result "
				"CSVs or directories\n",
				argv[i]);
			return EXIT_BADINPUT;
		}
	groups_set_desc_fallback(bench_fallback); /* result sets without FILE.bench */
	struct csvs_found all = { 0 };
	for (int i = 1; i < argc; i++)
		if (found_add(&all, argv[i], err)) {
			fprintf(stderr, "c2cbench: error: %s\n", err);
			found_free(&all);
			return EXIT_BADINPUT;
		}
	for (int i = 0; i < all.n; i++) {
		if (all.n > 1)
			printf("%s== %s\n", i ? "\n" : "", all.path[i]);
		if (runsum_print(stdout, all.path[i], err)) {
			fprintf(stderr, "c2cbench: error: %s\n", err);
			found_free(&all);
			return EXIT_BADINPUT;
		}
	}
	found_free(&all);
	return 0;
}

static int run_summary(void *f, const char *csv, char *err)
{
	groups_set_desc_fallback(bench_fallback);
	return runsum_print(f, csv, err);
}

/* Every run prints its summary from the files it wrote. */
static void __attribute__((constructor)) summary_hook(void)
{
	bench_set_summary(run_summary);
}

static const struct command summary_cmd = {"summary", "summary FILE...",
					   "a run's summary from its files, the one the run "
					   "printed: medians, each variant against the baseline, "
					   "the verdict",
					   summary_main};
COMMAND_REGISTER(summary_cmd)
