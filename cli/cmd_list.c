/* `c2cbench list`: benches, layouts, placements and presets, a line each; `list --columns NAME`:
 * a bench's column declaration (or the harness's), as a table or as Markdown. */
#include "harness/bench.h"
#include "cli/commands.h"
#include "harness/placement.h"
#include "lib/suggest.h"
#include "lib/util.h"
#include "layouts/layout.h"
#include "runner/preset.h"
#include <stdio.h>
#include <string.h>

static const char list_usage[] =
    "usage: c2cbench list [--columns BENCH|harness [--markdown]]\n"
    "lists the benches, layouts, placements and presets of this build, a line each\n"
    "  --columns NAME  the columns bench NAME declares for its rows, or with harness those the "
    "harness writes in every bench's rows: name, kind (configuration, metric, evidence, "
    "context), unit, which way is better, meaning; an upper-case word in a name stands for a "
    "role (ROLE) or an event's label\n"
    "  --markdown      the same as a Markdown table (the bench READMEs' column tables)\n";

/* Markdown cell text: | would end the cell. */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', stdout);
		fputc(*s, stdout);
	}
}

static void print_columns(const struct col_decl *t, int markdown)
{
	if (markdown)
		printf("| column | kind | unit | better | meaning |\n|---|---|---|---|---|\n");
	else
		printf("%-32s %-13s %-12s %-6s %s\n", "COLUMN", "KIND", "UNIT", "BETTER",
		       "MEANING");
	for (; t->name; t++) {
		if (!markdown) {
			printf("%-32s %-13s %-12s %-6s %s\n", t->name, col_kind_name(t->kind),
			       t->unit, col_better_name(t->better), t->desc);
			continue;
		}
		printf("| `%s` | %s | ", t->name, col_kind_name(t->kind));
		md_cell(t->unit);
		printf(" | %s | ", col_better_name(t->better));
		md_cell(t->desc);
		printf(" |\n");
	}
}

static int list_columns(const char *name, int markdown)
{
	if (!strcmp(name, "harness")) {
		print_columns(harness_columns, markdown);
		if (!markdown)
			printf("ROLE: one of the bench's roles; METRIC, NAME: an event's label\n");
		return 0;
	}
	const struct bench *b = bench_find(name);
	if (!b) {
		char sug[128], err[ERRLEN];
		err_set(err, "list --columns: unknown bench '%.200s'%s; accepted: %s,harness", name,
			suggest_list(name, bench_names(), sug, sizeof(sug)), bench_names());
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	print_columns(b->columns, markdown);
	if (!markdown)
		printf("ROLE: one of %s; and the harness's columns in every bench's rows: "
		       "c2cbench list --columns harness\n",
		       b->roles ? b->roles : "the bench's roles");
	return 0;
}

static int list_main(int argc, char **argv)
{
	char err[ERRLEN];
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(list_usage, stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--columns")) {
		int md = argc == 4 && !strcmp(argv[3], "--markdown");
		if (argc == 3 || md)
			return list_columns(argv[2], md);
		if (argc == 2)
			err_set(err, "list --columns needs a bench name; accepted: %s,harness",
				bench_names());
		else /* escaped: one line whatever was typed */
			err_set(err,
				"list --columns %.200s: unexpected argument '%.200s'; accepted: "
				"--markdown",
				argv[2], argv[3]);
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	if (argc > 1) {
		err_set(err,
			"list: unexpected argument '%.200s'; accepted: none, or --columns BENCH",
			argv[1]);
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	for (int i = 0; bench_at(i); i++)
		printf("bench      %-14s %s\n", bench_at(i)->name, bench_at(i)->desc);
	for (int i = 0; layout_at(i); i++)
		printf("layout     %-14s %s\n", layout_at(i)->name, layout_at(i)->desc);
	for (const struct placement_def *d = placement_defs; d->name; d++)
		printf("placement  %-14s %s\n", d->name, d->desc);
	preset_list(stdout);
	return 0;
}

static const struct command list_cmd = {"list", "list",
					"list benches, layouts, placements and presets", list_main};
COMMAND_REGISTER(list_cmd)
