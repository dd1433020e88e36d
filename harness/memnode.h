/* Memory for contended objects, placed on a chosen NUMA node with libnuma. */
#ifndef C2C_MEMNODE_H
#define C2C_MEMNODE_H
#include <stddef.h>

/* Page-aligned, zeroed memory bound to node; NULL with a message on failure. */
void *mem_on_node(int node, size_t size, char *err);
/* The same, first touched (zeroed) by a thread pinned on cpu, so that no other core holds its
 * lines first; *toucher (may be NULL) gets the CPU that touched it, -1 when no thread could be
 * pinned there (then the caller touched it). cpu < 0: the caller touches it (mem_on_node). */
void *mem_on_node_by(int node, size_t size, int cpu, int *toucher, char *err);
void mem_free(void *p, size_t size);
/* Take the lines of [p, p + size) back to cpu's cache after the main thread wrote into them (a
 * bench's setup): a thread pinned on cpu does a locked add of 0 on each MEM_OWN_STRIDE bytes, so
 * each line is modified there and in no other core's cache when the workers start. The CPU it ran
 * on, or -1 when no thread could be pinned there. */
#define MEM_OWN_STRIDE 64
int mem_own_by(void *p, size_t size, int cpu);
/* The node the page holding p actually lives on (after first touch), or -1. */
int mem_node_of(void *p);
#endif
