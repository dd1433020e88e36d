/* Registry of subcommands, so each one lives in a file of its own. */
#include "commands.h"
#include <stdlib.h>
#include <string.h>

#define COMMANDS_MAX 32
static const struct command *reg[COMMANDS_MAX];
static int nreg;

void command_register(const struct command *c)
{
	if (nreg >= COMMANDS_MAX)
		abort();
	int i = nreg++;
	while (i > 0 && strcmp(reg[i - 1]->name, c->name) > 0) {
		reg[i] = reg[i - 1];
		i--;
	}
	reg[i] = c;
}

const struct command *command_find(const char *name)
{
	for (int i = 0; i < nreg; i++)
		if (!strcmp(reg[i]->name, name))
			return reg[i];
	return NULL;
}

const struct command *command_at(int i)
{
	return i >= 0 && i < nreg ? reg[i] : NULL;
}
