/* The `slurm` subcommand: fleet runs of a preset on a Slurm cluster; the work is in
 * runner/slurm*.c. */
#include "cli/commands.h"
#include "runner/slurm.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static int slurm_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf(
		    "usage: c2cbench slurm submit PRESET --constraints F1,F2 --results DIR [...]\n"
		    "       c2cbench slurm status DIR [--id ID | --all]\n"
		    "run a preset on one node per Slurm node feature and follow it (see "
		    "docs/fleet.md);\n"
		    "`c2cbench slurm submit --help` for every option\n");
		return argc < 2 ? EXIT_BADINPUT : 0;
	}
	if (!strcmp(argv[1], "submit"))
		return slurm_submit_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status") || !strcmp(argv[1], "collect"))
		return slurm_status_main(argc - 1, argv + 1);
	char err[ERRLEN];
	err_set(err, "slurm: unknown action '%.200s'; accepted: submit, status", argv[1]);
	fprintf(stderr, "c2cbench: error: %s\n", err); /* escaped: one line whatever was typed */
	return EXIT_BADINPUT;
}

static const struct command slurm_cmd = { "slurm", "slurm submit|status ...",
					  "run a preset on every node type of a Slurm cluster and "
					  "follow it",
					  slurm_main };
COMMAND_REGISTER(slurm_cmd)
