/* `c2cbench import core-to-core-latency FILE --topology TOPO`: a published matrix as a pingpong
 * result set (import/c2cimport.h, docs/import.md). */
#include "cli/commands.h"
#include "import/c2cimport.h"
#include "import/topospec.h"
#include "lib/opts.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <stdio.h>
#include <string.h>

static const struct opt_spec import_opts[] = {
	{"topology", OPT_TEXT, NULL, "TOPO",
	 "the machine that measured the matrix (required): " TOPOSPEC_FORMS
	 " (P packages, C cores, T threads per core, L cores per L3, default C; cpu = t*P*C + "
	 "p*C + c, as Linux numbers x86 servers; one NUMA node per package)",
	 NULL, NULL},
	{"label", OPT_TEXT, NULL, "NAME",
	 "name of the machine in compare and report (default: the file's name without .csv); "
	 "letters, digits, . _ -",
	 NULL, NULL},
	{"out", OPT_TEXT, "results", "DIR",
	 "directory to write the result set into (pingpong-LABEL-TIMESTAMP.csv, .meta, .columns, "
	 ".bench)",
	 NULL, NULL},
	{0},
};

static int usage(void)
{
	text_fit(stdout, TEXT_WIDTH,
		 "usage: c2cbench import core-to-core-latency FILE --topology TOPO [--label NAME] "
		 "[--out DIR]\n"
		 "write the matrix FILE of nviennot/core-to-core-latency's --csv (or pingpong "
		 "--matrix) as a pingpong result set, a row per pair (cas, the value in min_ns and "
		 "median_ns, source_* columns say what it is); docs/import.md\n"
		 "exit status: 0 done; 1 a write failed; 2 bad input (nothing written)\n");
	opts_help(stdout, import_opts);
	return 0;
}

static int import_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = {import_opts, NULL};
	struct opts o;
	char err[ERRLEN] = "", csv[4096];
	long rows = 0, invalid = 0;
	/* FORMAT FILE first, then the options (getopt stops at the first word that is none) */
	int k = 0;
	while (k < 2 && k + 1 < argc && strncmp(argv[k + 1], "-", 1))
		k++;
	const char *fmt = k >= 1 ? argv[1] : NULL, *file = k >= 2 ? argv[2] : NULL;
	int rc = opts_parse(&o, tables, argc - k, argv + k, err);
	if (rc && !strcmp(err, "help")) {
		opts_free(&o);
		return usage();
	}
	if (!rc && (!fmt || strcmp(fmt, "core-to-core-latency")))
		rc = err_set(err,
			     "import: format '%s' is not known; accepted: core-to-core-latency",
			     fmt ? fmt : "");
	else if (!rc && (!file || o.nargs))
		rc = err_set(err,
			     "import core-to-core-latency: %s; accepted: one matrix FILE, then the "
			     "options",
			     !file ? "no FILE given" : "an extra argument after the options");
	if (!rc) {
		struct import_req q = {file, opt_str(&o, "topology"), opt_str(&o, "label"),
				       opt_str(&o, "out")};
		rc = import_c2c(&q, csv, sizeof(csv), &rows, &invalid, err);
	} else
		rc = EXIT_BADINPUT;
	opts_free(&o);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return rc;
	}
	printf("c2cbench: %ld row(s) written to %s (%ld invalid: the source's value is no "
	       "latency)\n",
	       rows, csv, invalid);
	return 0;
}

static const struct command import_cmd = {
    "import", "import core-to-core-latency FILE --topology TOPO [--label NAME] [--out DIR]",
    "write a published core-to-core latency matrix as a pingpong result set", import_main};
COMMAND_REGISTER(import_cmd)
