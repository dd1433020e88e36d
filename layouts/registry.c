/* The layout registry: layouts/ files register themselves; the harness lists and finds them. */
#include "layouts/layout.h"
#include "harness/registry.h"
#include <string.h>

static const char *layout_name(const void *l)
{
	return ((const struct layout *)l)->name;
}

/* The order users expect to read: the bug first, then by growing distance. */
static int by_distance(const void *a, const void *b)
{
	const struct layout *x = a, *y = b;
	long dx = (long)x->meta_off - (long)x->work_off, dy = (long)y->meta_off - (long)y->work_off;
	return dx != dy ? (dx > dy) - (dx < dy) : strcmp(x->name, y->name);
}

static struct reg layouts = { .name = layout_name, .order = by_distance };

void layout_register(const struct layout *l)
{
	reg_add(&layouts, l);
}

const struct layout *layout_find(const char *name)
{
	return reg_find(&layouts, name);
}

const struct layout *layout_at(int i)
{
	return reg_at(&layouts, i);
}

int layout_count(void)
{
	return layouts.n;
}

const char *layout_names(void)
{
	return layouts.names;
}
