/* The kernel fix as the kernel builds it: drain_vmap_work a __cacheline_aligned global in the aligned
 * data section, vmap_nodes an ordinary initialised global in .data. The linker decides the distance
 * between them (mm/vmalloc.c after seed 003; include/linux/cache.h: __cacheline_aligned adds
 * __section__(".data..cacheline_aligned")). Benches record the distance they got, never assume it. */
#include "layouts/layout.h"

static struct vmap_node section_single; /* static struct vmap_node single: what vmap_nodes starts at */

/* static __cacheline_aligned_in_smp DECLARE_WORK(drain_vmap_work, ...): 64-byte aligned, own section. */
static struct work_struct section_drain_vmap_work
	__attribute__((aligned(64), section(".data..cacheline_aligned"), used));
/* static struct vmap_node *vmap_nodes = &single: plain .data, as in the kernel. */
static struct vmap_node *section_vmap_nodes __attribute__((used)) = &section_single;

static const struct layout section = {
	"section", "work a 64-byte-aligned global in .data..cacheline_aligned, pointer an ordinary .data global (the kernel fix as linked)",
	sizeof(struct work_struct), 64, 0, 0, &section_drain_vmap_work, &section_vmap_nodes,
};
LAYOUT_REGISTER(section)
