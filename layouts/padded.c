/* Padded: the pointer 128 bytes away, in another 128-byte block (folly/crossbeam practice on
 * x86-64). */
#include "layouts/layout.h"

struct vmalloc_padded {
	struct work_struct drain_vmap_work __attribute__((aligned(128))); /* +0 */
	struct vmap_node *vmap_nodes __attribute__((aligned(128))); /* +128: another line pair */
} __attribute__((aligned(128)));

static_assert(offsetof(struct vmalloc_padded, vmap_nodes) == 128, "pointer 128 bytes away");

static const struct layout padded = {
	"padded",
	"pointer 128 bytes from the work: separate 128-byte blocks (folly, crossbeam)",
	sizeof(struct vmalloc_padded),
	_Alignof(struct vmalloc_padded),
	offsetof(struct vmalloc_padded, drain_vmap_work),
	offsetof(struct vmalloc_padded, vmap_nodes),
	NULL,
	NULL,
};
LAYOUT_REGISTER(padded)
