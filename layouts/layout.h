/* A layout: one real struct holding the work item and the read-mostly pointer, and where each
 * lands. */
#ifndef C2C_LAYOUT_H
#define C2C_LAYOUT_H
#include "layouts/work.h"
#include "lib/registry.h"
#include <stddef.h>

struct layout {
	const char *name;
	const char *desc;
	size_t size;     /* sizeof the struct */
	size_t align;    /* _Alignof the struct */
	size_t work_off; /* offsetof the work item (its pending word) */
	size_t meta_off; /* offsetof the read-mostly metadata pointer */
	/* Layouts of two separate globals (section): where the linker put them; NULL for the struct
	 * layouts, whose fields sit at work_off and meta_off of an object the bench allocates. */
	struct work_struct *global_work;
	struct vmap_node **global_meta;
};

/* The work item and the pointer for layout l: in obj (struct layouts) or the globals (section). */
void layout_place(const struct layout *l, char *obj, struct work_struct **work,
		  struct vmap_node ***meta);
/* Bytes from the work item to the pointer as placed (negative when the pointer comes first). */
long layout_distance(const struct layout *l);

void layout_register(const struct layout *l);
const struct layout *layout_find(const char *name);
const struct layout *layout_at(int i);
int layout_count(void);
/* "shared,aligned,padded": the registered names, in a stable order. */
const char *layout_names(void);
/* The registered names in that order, NULL-terminated: a bench's variant order when its variants
 * are the layouts (the bug first), so a new layout needs no bench edit. */
extern const char *layout_order[REG_MAX + 1];

#define LAYOUT_REGISTER(l) \
	static void __attribute__((constructor)) register_##l(void) { layout_register(&l); }
#endif
