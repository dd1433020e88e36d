/* `c2cbench summary FILE...`: a run's summary from its files (analysis/runsum.c), the one the run
 * printed; and the run's hook to print it (harness/ writes rows, analysis/ reads them). */
#include "analysis/resultset.h"
#include "analysis/runsum.h"
#include "harness/bench.h"
#include "cli/bench_fallback.h"
#include "cli/commands.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static int summary_main(int argc, char **argv)
{
	char err[ERRLEN];
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: c2cbench summary FILE...\n"
		       "FILE: result CSVs or result directories, read as one set. Prints each\n"
		       "configuration's valid rows and medians, then each variant against its "
		       "bench's\nbaseline with the verdict (docs/validity.md, \"The verdict\"), "
		       "from the files alone.\nExit status 2: bad input.\n");
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
	for (int i = 1; i < argc; i++)
		if (runsum_print(stdout, argv[i], err)) {
			fprintf(stderr, "c2cbench: error: %s\n", err);
			return EXIT_BADINPUT;
		}
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
					   "a result set's summary from its files: medians, each "
					   "variant against the baseline, the verdict",
					   summary_main};
COMMAND_REGISTER(summary_cmd)
