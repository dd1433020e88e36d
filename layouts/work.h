/* Userspace stand-ins for the kernel's work item, laid out as in include/linux/workqueue_types.h.
 */
#ifndef C2C_WORK_H
#define C2C_WORK_H
#include <assert.h>
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

/* struct work_struct without lockdep: 32 bytes on 64-bit, data (the flag word) first. */
struct work_struct {
	long data; /* atomic_long_t; bit 0 is WORK_STRUCT_PENDING_BIT; accessed with __atomic
		      builtins */
	struct list_head entry;
	void (*func)(struct work_struct *);
};
static_assert(sizeof(struct work_struct) == 32, "work_struct is 32 bytes, as in the kernel");
static_assert(offsetof(struct work_struct, data) == 0, "the pending word leads the work item");

#define WORK_STRUCT_PENDING_BIT 0
#define WORK_STRUCT_PENDING (1L << WORK_STRUCT_PENDING_BIT)

/* What readers reach through the read-mostly pointer: per-node structs nobody writes. */
struct vmap_node {
	long nr_busy;
	long pad[7];
};
static_assert(sizeof(struct vmap_node) == 64, "one node per line");
#endif
