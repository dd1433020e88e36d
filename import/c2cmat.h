/* A core-to-core latency matrix as nviennot/core-to-core-latency writes it with --csv (and
 * `pingpong --matrix` does): N lines of N comma-separated cells, no header, no CPU ids; row i,
 * column j is the pair of Linux CPUs i and j, in ns. That tool fills the lower triangle only,
 * pingpong both. */
#ifndef C2C_C2CMAT_H
#define C2C_C2CMAT_H

#define C2CMAT_MAX 8192 /* rows: TOPO_MAX_PUS, the most PUs a topology may have */

enum c2cmat_cell { CELL_EMPTY = 0, CELL_VALUE };

struct c2cmat {
	int n;
	double *v;           /* n * n, row-major; a value as written (NaN, 0, negative kept) */
	unsigned char *cell; /* n * n: CELL_EMPTY or CELL_VALUE */
};

/* Read path whole. 0, or -1 with a one-line message naming the file, the line and what is
 * accepted: not a regular file, a cell that is not a number (console text), a line whose cell
 * count differs from the first's (ragged), a cell count other than the line count (not square),
 * no line, or more than C2CMAT_MAX. */
int c2cmat_read(const char *path, struct c2cmat *m, char *err);
/* The pair's value: the lower triangle's cell (i > j), else the upper's; 0 when both are empty. */
int c2cmat_pair(const struct c2cmat *m, int i, int j, double *v);
void c2cmat_free(struct c2cmat *m);
#endif
