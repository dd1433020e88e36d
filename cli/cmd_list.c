/* `c2cbench list`: benches, layouts, placements and presets, a line each (a long description
 * wrapped to 100 columns, indented under its first word); `list --columns NAME`: a bench's column
 * declaration (or the harness's), as a table or as Markdown. */
#include "harness/bench.h"
#include "cli/commands.h"
#include "harness/placement.h"
#include "lib/suggest.h"
#include "lib/util.h"
#include "layouts/layout.h"
#include "runner/preset.h"
#include "lib/wrap.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char list_usage[] =
    "usage: c2cbench list [presets | --columns BENCH|BENCH/TABLE|harness [--markdown]]\n"
    "lists the benches, layouts, placements and presets of this build, a line each (a long "
    "description wrapped, its further lines indented)\n"
    "  presets         each preset with its entries: name, bench, and what the entry can show "
    "(its shows key: seed, mechanism, control or baseline), then what each of those means\n"
    "  --columns NAME  the columns bench NAME declares for its rows, or with harness those the "
    "harness writes in every bench's rows: name, kind (configuration, metric, evidence, "
    "context), unit, which way is better, meaning; an upper-case word in a name stands for a "
    "role (ROLE) or an event's label; BENCH/TABLE: a side table the bench writes beside its CSV "
    "(X-TABLE.csv), whose own columns these are\n"
    "  --markdown      the same as a Markdown table (the bench READMEs' column tables; the "
    "harness's grouped by kind, as in results/README.md)\n";

/* Text from column col, wrapped with its further lines under its first word (a description beside
 * its name, a column's meaning under MEANING). */
static void hang(int col, const char *text)
{
	text_wrap(stdout, col, col, TEXT_WIDTH, text);
}

/* A line of text wrapped to TEXT_WIDTH, its further lines indented by two. */
static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	text_wrap(stdout, 0, 2, TEXT_WIDTH, line);
}

/* Markdown cell text: | would end the cell. */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', stdout);
		fputc(*s, stdout);
	}
}

static void md_row(const struct col_decl *t, int with_kind, int with_better)
{
	printf("| `%s` | ", t->name);
	if (with_kind)
		printf("%s | ", col_kind_name(t->kind));
	md_cell(t->unit);
	if (with_better)
		printf(" | %s", col_better_name(t->better));
	printf(" | ");
	md_cell(t->desc);
	printf(" |\n");
}

static void print_columns(const struct col_decl *t, int markdown)
{
	if (markdown)
		printf("| column | kind | unit | better | meaning |\n|---|---|---|---|---|\n");
	else
		printf("%-32s %-13s %-12s %-6s %s\n", "COLUMN", "KIND", "UNIT", "BETTER",
		       "MEANING");
	for (; t->name; t++) {
		if (markdown)
			md_row(t, 1, 1);
		else
			hang(printf("%-32s %-13s %-12s %-6s ", t->name, col_kind_name(t->kind),
				    t->unit, col_better_name(t->better)),
			     t->desc);
	}
}

/* The harness's many columns as Markdown, a table per kind (in the enum's order) under a heading;
 * only metrics have a better side. */
static void print_grouped(const struct col_decl *t)
{
	static const char *const about[] = {
	    [COL_CONFIG] = "settings as requested: compare joins rows on them",
	    [COL_METRIC] = "measurements",
	    [COL_EVIDENCE] = "whether the measurement holds: validity, where threads ran, "
			     "settings as achieved",
	    [COL_CONTEXT] = "the machine, the build, the row's identity",
	};
	for (int k = COL_CONFIG; k <= COL_CONTEXT; k++) {
		printf("%s### %s: %s\n\n", k == COL_CONFIG ? "" : "\n", col_kind_name(k), about[k]);
		printf(k == COL_METRIC ? "| column | unit | better | meaning |\n|---|---|---|---|\n"
				       : "| column | unit | meaning |\n|---|---|---|\n");
		for (const struct col_decl *c = t; c->name; c++)
			if ((int)c->kind == k)
				md_row(c, 0, k == COL_METRIC);
	}
}

static int bad_name(const char *what, const char *name, const char *accepted)
{
	char sug[128], err[ERRLEN];
	err_accepted(err, accepted, "see c2cbench list, or harness",
		     "list --columns: unknown %s '%.200s'%s", what, name,
		     suggest_list(name, accepted, sug, sizeof(sug)));
	fprintf(stderr, "c2cbench: error: %s\n", err);
	return EXIT_BADINPUT;
}

/* BENCH/TABLE: the side table TABLE of bench b. */
static int list_side(const struct bench *b, const char *table, int markdown)
{
	char names[256] = "";
	for (const struct col_side *s = b->sides; s && s->name; s++) {
		if (!strcmp(s->name, table)) {
			print_columns(s->columns, markdown);
			if (!markdown)
				note("and the harness's columns it holds (schema_version, bench, "
				     "rep, attempt, valid, ...): c2cbench list --columns harness");
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s/%s",
			 *names ? "," : "", b->name, s->name);
	}
	char full[512];
	snprintf(full, sizeof(full), "%s/%s", b->name, table);
	return bad_name("side table", full, *names ? names : "none (the bench writes none)");
}

static int list_columns(const char *name, int markdown)
{
	if (!strcmp(name, "harness")) {
		if (markdown) {
			print_grouped(harness_columns);
			return 0;
		}
		print_columns(harness_columns, 0);
		note("ROLE: one of the bench's roles; METRIC, NAME: an event's label");
		return 0;
	}
	char bench[128];
	const char *slash = strchr(name, '/');
	snprintf(bench, sizeof(bench), "%.*s", slash ? (int)(slash - name) : (int)strlen(name),
		 name);
	const struct bench *b = bench_find(bench);
	if (!b) {
		char accepted[512];
		snprintf(accepted, sizeof(accepted), "%s,harness", bench_names());
		return bad_name("bench", bench, accepted);
	}
	if (slash)
		return list_side(b, slash + 1, markdown);
	print_columns(b->columns, markdown);
	if (markdown)
		return 0;
	note("ROLE: one of %s; and the harness's columns in every bench's rows: "
	     "c2cbench list --columns harness",
	     b->validity.roles ? b->validity.roles : "the bench's roles");
	for (const struct col_side *s = b->sides; s && s->name; s++)
		note("side table %s/%s (X-%s.csv): %s; c2cbench list --columns %s/%s", b->name,
		     s->name, s->name, s->about, b->name, s->name);
	return 0;
}

static int list_main(int argc, char **argv)
{
	char err[ERRLEN];
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		text_fit(stdout, TEXT_WIDTH, list_usage);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--columns")) {
		int md = argc == 4 && !strcmp(argv[3], "--markdown");
		if (argc == 3 || md)
			return list_columns(argv[2], md);
		char all[ERRLEN];
		snprintf(all, sizeof(all), "%s,harness", bench_names());
		if (argc == 2)
			err_accepted(err, all, "harness or a bench (`c2cbench list`)",
				     "list --columns needs a name");
		else /* escaped: one line whatever was typed */
			err_set(err,
				"list --columns %.200s: unexpected argument '%.200s'; accepted: "
				"--markdown",
				argv[2], argv[3]);
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	if (argc == 2 && !strcmp(argv[1], "presets")) {
		preset_list(stdout, 1);
		return 0;
	}
	if (argc > 1) {
		err_set(err,
			"list: unexpected '%.200s'; accepted: nothing, presets or --columns BENCH",
			argv[1]);
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	for (int i = 0; bench_at(i); i++)
		hang(printf("bench      %-14s ", bench_at(i)->name), bench_at(i)->desc);
	for (int i = 0; layout_at(i); i++)
		hang(printf("layout     %-14s ", layout_at(i)->name), layout_at(i)->desc);
	for (const struct placement_def *d = placement_defs; d->name; d++)
		hang(printf("placement  %-14s ", d->name), d->desc);
	preset_list(stdout, 0);
	return 0;
}

static const struct command list_cmd = {"list", "list",
					"list benches, layouts, placements and presets", list_main};
COMMAND_REGISTER(list_cmd)
