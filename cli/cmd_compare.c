/* `c2cbench compare A B`: options and exit statuses; the work is in analysis/compare.c. */
#include "analysis/compare.h"
#include "analysis/resultset.h"
#include "cli/bench_fallback.h"
#include "cli/commands.h"
#include "cli/relabel.h"
#include "lib/cmdargs.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_spec compare_opts[] = {
    {"csv", OPT_FLAG, NULL, NULL,
     "CSV on stdout: one row per configuration and metric, the configuration in its columns, "
     "label, host and CPU model of each side, what each side resolved its settings to, "
     "how each side was judged and its probe range",
     NULL, NULL},
    {"json", OPT_FLAG, NULL, NULL,
     "JSON on stdout: the same rows, each side's machines, the geometric means", NULL, NULL},
    {"metric", OPT_TEXT, NULL, "COL,...",
     "metric columns to compare (default: each bench's summary and chart columns)", NULL, NULL},
    {"label", OPT_TEXT, NULL, "DIR=NAME",
     "the rows of input DIR (or of a file or directory in it) are machine NAME, whatever label "
     "they hold: two machines run under one label compared without editing files (repeatable)",
     NULL, NULL},
    {0},
};

static void usage(void)
{
	text_fit(stdout, TEXT_WIDTH,
		 "usage: c2cbench compare A B [options]\n"
		 "A and B: result CSV files or result directories; B is compared with A (the "
		 "baseline).\n"
		 "Rows are joined on their full configuration (bench, variant, every configuration "
		 "column, the\n"
		 "requested duration and warm-up); only valid rows count. The table fits 100\n"
		 "columns; --csv and --json hold every column. The table ends with each input\n"
		 "file's own run summary (the one `c2cbench summary FILE` prints). Exit status 2:\n"
		 "bad input, an unknown metric, no configuration in common; 1: the output could\n"
		 "not be written.\n");
	opts_help(stdout, compare_opts);
}

static int compare_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { compare_opts, NULL };
	struct opts o;
	struct cmp c = { 0 };
	char err[ERRLEN] = "", **argcopy = NULL;
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	memcpy(av, argv, (size_t)argc * sizeof(char *));
	int lrc = cli_relabel_args(&argc, av, err);
	int rc = lrc ? lrc : opts_parse_mixed(&o, tables, argc, av, &argcopy, err), out = 0;
	if (lrc)
		memset(&o, 0, sizeof(o));
	if (rc && !strcmp(err, "help")) {
		usage();
		opts_free(&o);
		free(argcopy);
		free(av);
		groups_relabel_clear();
		return 0;
	}
	if (!rc && o.nargs != 2)
		rc = err_set(
		    err,
		    "compare needs two inputs A and B (CSV files or result directories), got %d",
		    o.nargs);
	if (!rc && opt_flag(&o, "csv") && opt_flag(&o, "json"))
		rc = err_set(err,
			     "--csv and --json cannot both be given; accepted: one output format");
	groups_set_desc_fallback(bench_fallback); /* result sets without FILE.bench */
	if (!rc)
		rc = cmp_run(&c, o.args[0], o.args[1], opt_str(&o, "metric"), err);
	if (!rc) {
		errno = 0;
		out = opt_flag(&o, "csv")    ? cmp_print_csv(stdout, &c)
		      : opt_flag(&o, "json") ? cmp_print_json(stdout, &c)
					     : cmp_print_text(stdout, &c);
		out |= fflush(stdout) !=
		       0; /* what is still buffered fails here, not unseen at exit */
		if (out)
			snprintf(err, ERRLEN, "cannot write the output: %s",
				 errno ? strerror(errno) : "write error");
		else if (c.small && (opt_flag(&o, "csv") || opt_flag(&o, "json")))
			fprintf(stderr,
				"c2cbench: warning: %d line(s) have too few valid repetitions on "
				"a side for the U test to reach p < 0.05 (%d a side when both have "
				"as many); their verdict says so\n",
				c.small, ts_min_reps());
	}
	cmp_free(&c);
	opts_free(&o);
	free(argcopy);
	free(av);
	groups_relabel_clear();
	if (rc || out)
		fprintf(stderr, "c2cbench: error: %s\n", err);
	return rc ? EXIT_BADINPUT : out ? 1 : 0;
}

static const struct command compare_cmd = {"compare", "compare A B",
					   "join two results on their full configuration: medians, "
					   "ratio B/A with 95% CI, U-test p, verdict",
					   compare_main};
COMMAND_REGISTER(compare_cmd)
