/* What harness/context.c and its collectors share: the facts table's writers and a sysfs
 * reader (context_facts.c), and the settings collectors (context_settings.c). */
#ifndef C2C_CONTEXT_FACTS_H
#define C2C_CONTEXT_FACTS_H
#include "harness/context.h"
#include <stddef.h>

struct ctx_fact *fact_new(struct context *c, const char *key);
void __attribute__((format(printf, 3, 4)))
fact_set(struct context *c, const char *key, const char *fmt, ...);
void fact_na(struct context *c, const char *key, const char *why);
/* First line of a small sysfs/procfs file, without the newline; -1 if it cannot be read. */
int ctx_read_line(const char *path, char *out, size_t n);

/* The settings facts, in the order .meta lists them. */
void ctx_governor(struct context *c, const struct topo *t);
void ctx_boost(struct context *c);
void ctx_system_settings(struct context *c);
void ctx_numa_per_package(struct context *c, const struct topo *t);
void ctx_prefetch_snoop(struct context *c, const struct topo *t);
#endif
