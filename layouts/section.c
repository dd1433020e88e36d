/* The kernel fix as the kernel builds it: drain_vmap_work a __cacheline_aligned global in the
 * aligned data section, vmap_nodes an ordinary initialised global in .data. The linker decides the
 * distance between them (mm/vmalloc.c after seed 003; include/linux/cache.h: __cacheline_aligned
 * adds
 * __section__(".data..cacheline_aligned")). Benches record the distance they got, never assume it.
 */
#include "layouts/layout.h"

static struct vmap_node
	section_single; /* static struct vmap_node single: what vmap_nodes starts at */

/* static __cacheline_aligned_in_smp DECLARE_WORK(drain_vmap_work, ...): 64-byte aligned, own
 * section. The kernel's linker script aligns what follows .data..cacheline_aligned
 * (READ_MOSTLY_DATA starts with ALIGN(L1_CACHE_BYTES)), so nothing else shares the work's line; a
 * userspace linker merges the section into .data with no such step (seen on aarch64: the pointer
 * landed on the work's line), so the object is padded to its line here to give the same guarantee.
 */
static struct {
	struct work_struct w;
} __attribute__((aligned(64))) section_drain_vmap_work
	__attribute__((section(".data..cacheline_aligned"), used));
/* static struct vmap_node *vmap_nodes = &single: plain .data, as in the kernel. */
static struct vmap_node *section_vmap_nodes __attribute__((used)) = &section_single;

static const struct layout section = {
	"section",
	"work a 64-byte-aligned global in .data..cacheline_aligned, pointer an ordinary .data "
	"global (the kernel's fix as linked)",
	sizeof(struct work_struct),
	64,
	0,
	0,
	&section_drain_vmap_work.w,
	&section_vmap_nodes,
};
LAYOUT_REGISTER(section)
