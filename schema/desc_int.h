/* What the bench description's writer (schema/desc_write.c) and reader (desc.c) share. */
#ifndef C2C_DESC_INT_H
#define C2C_DESC_INT_H
#include "schema/desc.h"

/* The view kinds as the text names them, by enum view_kind ("" for VIEW_END). */
extern const char *const desc_kind_name[VIEW_MATRIX + 1];
#endif
