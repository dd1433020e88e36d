/* The `preset` subcommand: its entry in the command table; the work is in runner/preset_run.c. */
#include "cli/commands.h"
#include "runner/preset_run.h"

static const struct command preset_cmd = { "preset", "preset NAME",
					   "run a preset (a list of runs) into "
					   "results/LABEL-DATE-PRESET/",
					   preset_main };
COMMAND_REGISTER(preset_cmd)
