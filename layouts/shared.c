/* The bug: drain_vmap_work at +0 and vmap_nodes at +32, one 64-byte line (seed 003, before the
 * fix). */
#include "layouts/layout.h"

struct vmalloc_shared {
	struct work_struct drain_vmap_work; /* +0..31: every lazy free does lock bts on .data */
	struct vmap_node *vmap_nodes;       /* +32: read by every allocation and free */
} __attribute__((aligned(64)));

static_assert(offsetof(struct vmalloc_shared, drain_vmap_work) == 0, "work at +0");
static_assert(offsetof(struct vmalloc_shared, vmap_nodes) == 32, "pointer at +32");
static_assert(offsetof(struct vmalloc_shared, vmap_nodes) / 64 == 0, "both in one 64-byte line");

static const struct layout shared = {
	"shared",
	"work at +0, pointer at +32: one 64-byte line (the bug)",
	sizeof(struct vmalloc_shared),
	_Alignof(struct vmalloc_shared),
	offsetof(struct vmalloc_shared, drain_vmap_work),
	offsetof(struct vmalloc_shared, vmap_nodes),
	NULL,
	NULL,
};
LAYOUT_REGISTER(shared)
