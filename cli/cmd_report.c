/* The `report` subcommand's front end: options and inputs; the work is in analysis/report.c. */
#include "analysis/resultset.h"
#include "analysis/report.h"
#include "cli/bench_fallback.h"
#include "cli/commands.h"
#include "cli/relabel.h"
#include "lib/cmdargs.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_spec report_opts[] = {
    {"out", OPT_TEXT, NULL, "DIR",
     "directory to write report.md, report.html, the PNG charts and their data into (also -o DIR): "
     "new or empty",
     NULL, NULL},
    {"force", OPT_FLAG, NULL, NULL,
     "replace DIR when it is not empty (the old one is removed once the new one is whole)", NULL,
     NULL},
    {"label", OPT_TEXT, NULL, "DIR=NAME",
     "the rows of input DIR (or of a file or directory in it) are machine NAME, whatever label "
     "they hold: two machines run under one label reported without editing files (repeatable)",
     NULL, NULL},
    {0},
};

/* Parse `report INPUT... -o DIR [--force]` and write the report. */
static int cmd_report(int argc, char **argv)
{
	const struct opt_spec *tables[] = { report_opts, NULL };
	struct opts o;
	char err[ERRLEN] = "", **copy = NULL, **av = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) /* -o DIR, as the usage line says */
		av[i] = !strcmp(argv[i], "-o") ? "--out" : argv[i];
	int rc = cli_relabel_args(&argc, av, err);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		free(av);
		return EXIT_BADINPUT;
	}
	rc = opts_parse_mixed(&o, tables, argc, av, &copy, err);
	if (rc && !strcmp(err, "help")) {
		printf("usage: c2cbench report INPUT... -o DIR [--force] [--label "
		       "DIR=NAME]...\nINPUT: result CSV files or result directories; every machine "
		       "is drawn in the same charts.\n");
		opts_help(stdout, report_opts);
		rc = 0;
	} else {
		if (!rc && !o.nargs)
			rc = err_set(
			    err,
			    "report needs one or more inputs (result CSV files or directories)");
		if (!rc && !opt_str(&o, "out"))
			rc = err_set(err,
				     "report needs -o DIR, the directory to write the report into");
		if (rc) {
			fprintf(stderr, "c2cbench: error: %s\n", err);
			rc = EXIT_BADINPUT;
		} else {
			groups_set_desc_fallback(bench_fallback); /* sets without FILE.bench */
			rc = report_write(o.args, o.nargs, opt_str(&o, "out"),
					  opt_flag(&o, "force"));
		}
	}
	opts_free(&o);
	free(copy);
	free(av);
	groups_relabel_clear();
	return rc;
}

static const struct command report_cmd = {
    "report", "report IN... -o DIR [--force]",
    "Markdown and HTML report with gnuplot charts from result CSVs or directories", cmd_report};
COMMAND_REGISTER(report_cmd)
