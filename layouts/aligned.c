/* The kernel's fix at its worst case: the work __cacheline_aligned_in_smp on its own 64-byte line
 * and the pointer on the very next line, of the same 128-byte pair (exposes the adjacent-line
 * prefetcher). The fix itself does not put the pointer there: `section` is the fix as linked. */
#include "layouts/layout.h"

struct vmalloc_aligned {
	struct work_struct drain_vmap_work __attribute__((aligned(64))); /* +0: its own line */
	struct vmap_node *vmap_nodes __attribute__((aligned(64)));       /* +64: the next line */
} __attribute__((aligned(128)));

static_assert(offsetof(struct vmalloc_aligned, vmap_nodes) == 64,
	      "pointer on the next 64-byte line");
static_assert(offsetof(struct vmalloc_aligned, vmap_nodes) / 128 == 0,
	      "same 128-byte pair as the work");

static const struct layout aligned = {
	"aligned",
	"work on its own 64-byte line, pointer on the adjacent line "
	"(the worst case of the kernel's fix; section is the fix as linked)",
	sizeof(struct vmalloc_aligned),
	_Alignof(struct vmalloc_aligned),
	offsetof(struct vmalloc_aligned, drain_vmap_work),
	offsetof(struct vmalloc_aligned, vmap_nodes),
	NULL,
	NULL,
};
LAYOUT_REGISTER(aligned)
