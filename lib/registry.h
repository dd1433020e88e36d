/* One small registry behind benches, layouts and commands: each file registers itself at start-up.
 */
#ifndef C2C_REG_H
#define C2C_REG_H
#include <stddef.h>

#define REG_MAX 32

struct reg {
	const void *item[REG_MAX];
	int n;
	const char *(*name)(const void *item);     /* the name users type */
	int (*order)(const void *a, const void *b); /* listing order; NULL: by name */
	char names[512];                            /* "a,b,c", rebuilt on each add */
};

void reg_add(struct reg *r, const void *item);
const void *reg_find(const struct reg *r, const char *name);
const void *reg_at(const struct reg *r, int i);
#endif
