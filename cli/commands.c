/* Registry of subcommands, so each one lives in a file of its own. */
#include "cli/commands.h"
#include "lib/registry.h"

static const char *command_name(const void *c)
{
	return ((const struct command *)c)->name;
}

static struct reg commands = { .name = command_name };

void command_register(const struct command *c)
{
	reg_add(&commands, c);
}

const struct command *command_find(const char *name)
{
	return reg_find(&commands, name);
}

const struct command *command_at(int i)
{
	return reg_at(&commands, i);
}
