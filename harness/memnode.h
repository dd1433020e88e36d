/* Memory for contended objects, placed on a chosen NUMA node with libnuma. */
#ifndef C2C_MEMNODE_H
#define C2C_MEMNODE_H
#include <stddef.h>

/* Page-aligned, zeroed memory bound to node; NULL with a message on failure. */
void *mem_on_node(int node, size_t size, char *err);
void mem_free(void *p, size_t size);
/* The node the page holding p actually lives on (after first touch), or -1. */
int mem_node_of(void *p);
#endif
