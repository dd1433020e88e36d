/* The layout registry: layouts/ files register themselves; the harness lists and finds them. */
#include "layout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYOUTS_MAX 32
static const struct layout *reg[LAYOUTS_MAX];
static int nreg;

/* The order users expect to read: the bug first, then by growing distance. */
static int by_distance(const void *a, const void *b)
{
	const struct layout *x = *(const struct layout *const *)a, *y = *(const struct layout *const *)b;
	long dx = (long)x->meta_off - (long)x->work_off, dy = (long)y->meta_off - (long)y->work_off;
	return dx != dy ? (dx > dy) - (dx < dy) : strcmp(x->name, y->name);
}

void layout_register(const struct layout *l)
{
	if (nreg >= LAYOUTS_MAX)
		abort();
	reg[nreg++] = l;
	qsort(reg, (size_t)nreg, sizeof(reg[0]), by_distance);
}

const struct layout *layout_find(const char *name)
{
	for (int i = 0; i < nreg; i++)
		if (!strcmp(reg[i]->name, name))
			return reg[i];
	return NULL;
}

const struct layout *layout_at(int i)
{
	return i >= 0 && i < nreg ? reg[i] : NULL;
}

int layout_count(void)
{
	return nreg;
}

const char *layout_names(void)
{
	static char buf[512];
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < nreg && k < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? "," : "", reg[i]->name);
	return buf;
}
