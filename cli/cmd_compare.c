/* The `compare` subcommand: its entry in the command table; the work is in analysis/compare.c. */
#include "cli/commands.h"
#include "analysis/compare.h"

static const struct command compare_cmd = { "compare", "compare A B", "join two results on configuration: medians, ratio, 95% CI, Mann-Whitney p", compare_main };
COMMAND_REGISTER(compare_cmd)
