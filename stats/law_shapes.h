/* The bootstrap law's shapes, kept by count (stats/boot_law.h): a law's probabilities depend on n
 * alone, and report draws the intervals of a thousand lists of one n (each machine's repetitions
 * of a configuration), so the shape is made once per n, not once per list. Laws filled from a
 * kept shape are those boot_law_make makes. Per thread, the LAW_SHAPES last used. */
#ifndef C2C_LAW_SHAPES_H
#define C2C_LAW_SHAPES_H
#include <stddef.h>

struct boot_shape;

#define LAW_SHAPES 8

/* The shape of the law of a size-n resample's median (n >= 2), kept: fill a law from it
 * (boot_law_fill) before the next call; the law stays valid until LAW_SHAPES - 1 other counts
 * have been asked for since. */
const struct boot_shape *law_shape_of(size_t n);
/* Free the calling thread's shapes. */
void law_shapes_clear(void);
#endif
