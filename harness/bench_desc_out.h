/* A bench's description (schema/desc.h) from its struct bench, and FILE.bench written beside each
 * result set. */
#ifndef C2C_BENCH_DESC_OUT_H
#define C2C_BENCH_DESC_OUT_H
#include "harness/bench.h"

/* d points into b: the fields that describe it. */
void bench_desc_of(const struct bench *b, struct bench_desc *d);
/* b's description as text (malloc'ed), or NULL with a message. */
char *bench_desc_text(const struct bench *b, char *err);
/* FILE.bench beside the declaration columns_path (FILE.columns), written whole. 0, or -1 with a
 * message. */
int bench_desc_out(const struct bench *b, const char *columns_path, char *err);
#endif
