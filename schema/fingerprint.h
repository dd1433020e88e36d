/* A machine's fingerprint: the facts that make two result sets come from the same hardware, guest
 * and kernel (CPU identity, hypervisor, DMI, topology, kernel, NUMA nodes per package: SNC, NPS),
 * and one short id hashed from them.
 * Memory per node is recorded beside them (mem_per_node) but not hashed: a guest's hot-plugged or
 * ballooned memory changes from run to run (this development VM's node 0: 5.6, then 5.8 GiB).
 * compare and report use it to never pool two machines under one label. */
#ifndef C2C_FINGERPRINT_H
#define C2C_FINGERPRINT_H
#include <stddef.h>

#define FP_ID_LEN 12 /* hex digits of the id */

/* The fingerprint's fields, in hashing order (keys of a .meta [context] section), NULL-terminated.
 */
extern const char *const fp_keys[];

/* The id of the fields: FNV-1a 64 over "key=value\n" of each field in fp_keys order (value "NA"
 * where get returns NULL), as FP_ID_LEN hex digits. get(arg, key) gives a field's value. A field
 * added after ids were first written (numa_per_package) is hashed only where known (not NULL, empty
 * or NA): an older .meta's id is still that of its fields. */
void fp_id(const char *(*get)(void *arg, const char *key), void *arg, char out[FP_ID_LEN + 1]);
#endif
