/* The `report` subcommand: its entry in the command table; the work is in analysis/report.c. */
#include "cli/commands.h"
#include "analysis/report.h"

static const struct command report_cmd = { "report", "report IN... -o DIR", "Markdown report with gnuplot plots from result CSVs or directories", report_main };
COMMAND_REGISTER(report_cmd)
