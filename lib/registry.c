#include "lib/registry.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int before(const struct reg *r, const void *a, const void *b)
{
	return r->order ? r->order(a, b) < 0 : strcmp(r->name(a), r->name(b)) < 0;
}

void reg_add(struct reg *r, const void *item)
{
	if (r->n >= REG_MAX)
		abort(); /* more entries than the registry holds is a build error, not a user error
			  */
	int i = r->n++;
	while (i > 0 && before(r, item, r->item[i - 1])) { /* insertion keeps listings stable */
		r->item[i] = r->item[i - 1];
		i--;
	}
	r->item[i] = item;
	size_t k = 0;
	for (int j = 0; j < r->n && k < sizeof(r->names); j++)
		k += (size_t)snprintf(r->names + k, sizeof(r->names) - k, "%s%s", j ? "," : "",
				      r->name(r->item[j]));
}

const void *reg_find(const struct reg *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->name(r->item[i]), name))
			return r->item[i];
	return NULL;
}

const void *reg_at(const struct reg *r, int i)
{
	return i >= 0 && i < r->n ? r->item[i] : NULL;
}
