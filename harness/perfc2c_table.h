/* The Shared Data Cache Line Table of `perf c2c report --stdio`: the HITM sample counts of one
 * cache line. Columns are found by their headers (perf's layout differs between versions: `Load
 * Hitm` with LclHitm/RmtHitm in perf 6.x, `LLC Load Hitm` with Lcl/Rmt in perf 5.x), never by
 * position alone. */
#ifndef C2C_PERFC2C_TABLE_H
#define C2C_PERFC2C_TABLE_H
#include <stddef.h>

struct c2c_hitm {
	long long total, local, remote; /* HITM samples of the line: all, same node, other node */
	unsigned long long line;        /* the line's address as perf lists it */
};

/* Look up the cache line holding addr in report (the whole text; line: the cache line size of the
 * machine that recorded it, perf's Address column being each line's start): 0 with *out filled, 1
 * when the line is not in the table, -1 when the report has no table perf's way (why says what is
 * missing). */
int c2c_table_hitm(const char *report, unsigned long long addr, unsigned long long line,
		   struct c2c_hitm *out, char *why, size_t n);
#endif
