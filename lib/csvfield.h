/* One CSV field as RFC 4180 writes it: the result files' writer and the tools that write CSV
 * (compare's) quote the same way. */
#ifndef C2C_CSVFIELD_H
#define C2C_CSVFIELD_H
#include <stddef.h>

/* Quote one field into out (size n) if it needs it; return the length written. */
size_t csv_field(const char *in, char *out, size_t n);
#endif
