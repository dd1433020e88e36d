/* The bootstrap law's shapes by count, the last used kept (stats/law_shapes.h). */
#include "stats/law_shapes.h"
#include "stats/boot_law.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* The kept shapes, the least recently used first. */
static __thread struct boot_shape *shapes;
static __thread int nshapes;

const struct boot_shape *law_shape_of(size_t n)
{
	struct boot_shape s;
	int i = 0;
	if (!shapes)
		shapes = xcalloc(LAW_SHAPES, sizeof(*shapes));
	while (i < nshapes && shapes[i].n != n)
		i++;
	if (i < nshapes) {
		s = shapes[i];
	} else {
		boot_shape_make(&s, n);
		if (nshapes == LAW_SHAPES) { /* the least recently used goes */
			boot_shape_free(&shapes[0]);
			i = 0;
		} else
			i = nshapes++;
	}
	/* to the end: the most recently used */
	memmove(&shapes[i], &shapes[i + 1], (size_t)(nshapes - 1 - i) * sizeof(*shapes));
	shapes[nshapes - 1] = s;
	return &shapes[nshapes - 1];
}

void law_shapes_clear(void)
{
	for (int i = 0; i < nshapes; i++)
		boot_shape_free(&shapes[i]);
	free(shapes);
	shapes = NULL;
	nshapes = 0;
}
