/* The layout registry: layouts/ files register themselves; the harness lists and finds them. */
#include "layouts/layout.h"
#include "lib/registry.h"
#include <stdint.h>
#include <string.h>

static const char *layout_name(const void *l)
{
	return ((const struct layout *)l)->name;
}

/* The order users expect to read: the bug first, then by growing distance; layouts of globals
 * (whose distance the linker picks) after the structs. */
static int by_distance(const void *a, const void *b)
{
	const struct layout *x = a, *y = b;
	if (!x->global_work != !y->global_work)
		return x->global_work ? 1 : -1;
	long dx = layout_distance(x), dy = layout_distance(y);
	return dx != dy ? (dx > dy) - (dx < dy) : strcmp(x->name, y->name);
}

void layout_place(const struct layout *l, char *obj, struct work_struct **work,
		  struct vmap_node ***meta)
{
	*work = l->global_work ? l->global_work : (struct work_struct *)(obj + l->work_off);
	*meta = l->global_meta ? l->global_meta : (struct vmap_node **)(obj + l->meta_off);
}

long layout_distance(const struct layout *l)
{
	if (l->global_work)
		return (long)((intptr_t)l->global_meta - (intptr_t)l->global_work);
	return (long)l->meta_off - (long)l->work_off;
}

static struct reg layouts = { .name = layout_name, .order = by_distance };
const char *layout_order[REG_MAX + 1];

void layout_register(const struct layout *l)
{
	reg_add(&layouts, l);
	for (int i = 0; i < layouts.n; i++)
		layout_order[i] = layout_at(i)->name;
	layout_order[layouts.n] = NULL;
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
