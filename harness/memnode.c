#include "harness/memnode.h"
#include "lib/util.h"
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

/* The first touch of a block, from a thread pinned on cpu (< 0: the caller's, unpinned). */
struct toucher {
	void *p;
	size_t size;
	int cpu, got; /* got: the CPU it touched from, -1 when it could not be pinned there */
	int own;      /* take the lines back (a locked add of 0 a line), not zero them */
};

static void *touch_main(void *arg)
{
	struct toucher *t = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	int pinned = !sched_setaffinity(0, sizeof(set), &set);
	if (t->own && pinned) /* each line now modified in this CPU's cache, in no other */
		for (size_t i = 0; i + sizeof(long) <= t->size; i += MEM_OWN_STRIDE)
			__atomic_fetch_add((long *)(void *)((char *)t->p + i), 0,
					   __ATOMIC_SEQ_CST);
	else if (!t->own)
		memset(t->p, 0, t->size); /* first touch: the pages now exist, on the node */
	t->got = pinned ? sched_getcpu() : -1;
	return NULL;
}

int mem_own_by(void *p, size_t size, int cpu)
{
	struct toucher t = {p, size, cpu, -1, 1};
	pthread_t tid;
	if (cpu < 0 || cpu >= CPU_SETSIZE || pthread_create(&tid, NULL, touch_main, &t))
		return -1;
	pthread_join(tid, NULL);
	return t.got;
}

static void first_touch(void *p, size_t size, int cpu, int *toucher)
{
	struct toucher t = {p, size, cpu, -1, 0};
	pthread_t tid;
	if (cpu < 0 || cpu >= CPU_SETSIZE || pthread_create(&tid, NULL, touch_main, &t)) {
		memset(p, 0, size);
		t.got = -1;
	} else
		pthread_join(tid, NULL);
	if (toucher)
		*toucher = t.got;
}

void *mem_on_node(int node, size_t size, char *err)
{
	return mem_on_node_by(node, size, -1, NULL, err);
}

void *mem_on_node_by(int node, size_t size, int cpu, int *toucher, char *err)
{
	if (numa_available() < 0 && node != 0) {
		err_set(err,
			"libnuma reports NUMA is not available on this kernel (or under "
			"qemu-user); cannot place memory on node %d, only on node 0",
			node);
		return NULL;
	}
	if (numa_available() <
	    0) { /* no NUMA in this kernel: all memory is node 0's; numa_free (munmap) frees it */
		void *p =
		    mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			err_set(err, "mmap(%zu bytes) failed", size);
			return NULL;
		}
		first_touch(p, size, cpu, toucher);
		return p;
	}
	if (node < 0 || node > numa_max_node()) {
		err_set(err, "--mem-node: node %d does not exist; accepted: 0-%d", node,
			numa_max_node());
		return NULL;
	}
	void *p = numa_alloc_onnode(size, node);
	if (!p) {
		err_set(err, "numa_alloc_onnode(%zu bytes, node %d) failed", size, node);
		return NULL;
	}
	first_touch(p, size, cpu, toucher); /* the pages now exist on node */
	return p;
}

void mem_free(void *p, size_t size)
{
	if (p)
		numa_free(p, size);
}

int mem_node_of(void *p)
{
	int node = -1;
	if (numa_available() < 0) /* a kernel without NUMA: its memory is node 0 */
		return 0;
	if (get_mempolicy(&node, NULL, 0, p, MPOL_F_NODE | MPOL_F_ADDR))
		return -1;
	return node;
}
