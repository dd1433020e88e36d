#include "harness/perfc2c_table.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TBL_COLS 64

/* One header cell: its text and where it sits on the line (perf right-aligns values under it). */
struct cell {
	char text[48];
	int start, end;
};

/* The table's header: the group line (`--- Load Hitm ---`) and the column-name line. */
struct table_head {
	struct cell group[TBL_COLS], col[TBL_COLS];
	int ngroup, ncol;
};

/* Copy the line at p (without its newline) into buf; returns the next line or NULL at the end. */
static const char *next_line(const char *p, char *buf, size_t n)
{
	size_t k = strcspn(p, "\n");
	snprintf(buf, n, "%.*s", (int)(k < n ? k : n - 1), p);
	return p[k] ? p + k + 1 : NULL;
}

/* Header cells are separated by two or more blanks ("PA cnt" and "Ld Miss" are one cell each). */
static int split_cells(const char *line, struct cell *c, int max)
{
	int n = 0, i = line[0] == '#' ? 1 : 0, len = (int)strlen(line);
	while (i < len && n < max) {
		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		int s = i;
		while (i < len && !(line[i] == ' ' && (i + 1 >= len || line[i + 1] == ' ')))
			i++;
		snprintf(c[n].text, sizeof(c[n].text), "%.*s", i - s, line + s);
		c[n].start = s;
		c[n++].end = i - 1;
	}
	return n;
}

/* Which group cell spans column c (-1: none): spans overlap. */
static int group_of(const struct table_head *h, int c)
{
	for (int g = 0; g < h->ngroup; g++)
		if (h->group[g].start <= h->col[c].end && h->col[c].start <= h->group[g].end)
			return g;
	return -1;
}

/* The first column named one of a / b inside group g (any group when g < 0). */
static int find_col(const struct table_head *h, int g, const char *a, const char *b)
{
	for (int c = 0; c < h->ncol; c++)
		if ((!strcmp(h->col[c].text, a) || (b && !strcmp(h->col[c].text, b))) &&
		    (g < 0 || group_of(h, c) == g))
			return c;
	return -1;
}

/* The group whose label names the load HITMs ("Load Hitm" or "LLC Load Hitm"). */
static int hitm_group(const struct table_head *h)
{
	for (int g = 0; g < h->ngroup; g++)
		if (strstr(h->group[g].text, "Load Hitm"))
			return g;
	return -1;
}

/* A data row as blank-separated fields (no value in this table holds a blank). */
static int split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
		f[n++] = t;
	return n;
}

/* A count cell: digits only, else -1 (so a shifted column is caught, not read as a number). */
static long long count_of(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	return end != s && !*end && v >= 0 ? v : -1;
}

/* Read the header lines after the table's title; returns where the data rows start, or NULL. */
static const char *read_head(const char *p, struct table_head *h)
{
	char line[4096];
	memset(h, 0, sizeof(*h));
	while (p && (p = next_line(p, line, sizeof(line)))) {
		if (line[0] == '#' && strstr(line, "Cacheline") && !h->ngroup)
			h->ngroup = split_cells(line, h->group, TBL_COLS);
		else if (line[0] == '#' && strstr(line, "Index") && strstr(line, "Address"))
			h->ncol = split_cells(line, h->col, TBL_COLS);
		else if (line[0] == '#' && h->ncol && strstr(line, "....."))
			return p; /* the dots under the names: the rows follow (after a lone "#") */
		else if (line[0] != '#' && line[0] != '=' && line[0])
			return NULL;
	}
	return NULL;
}

/* The columns this lookup needs; -1 with why when one is missing. */
static int head_columns(const struct table_head *h, int *addr, int *tot, int *lcl, int *rmt,
			char *why, size_t n)
{
	int g = hitm_group(h);
	*addr = find_col(h, -1, "Address", NULL);
	*tot = g < 0 ? -1 : find_col(h, g, "Total", NULL);
	*lcl = g < 0 ? -1 : find_col(h, g, "LclHitm", "Lcl");
	*rmt = g < 0 ? -1 : find_col(h, g, "RmtHitm", "Rmt");
	if (*addr < 0 || g < 0 || *tot < 0 || *lcl < 0 || *rmt < 0) {
		snprintf(why, n,
			 "perf's Shared Data Cache Line Table has no %s column (display mode "
			 "without HITM?)",
			 *addr < 0 ? "Address"
			 : g < 0   ? "Load Hitm group"
				   : "Load Hitm Total/Lcl/Rmt");
		return -1;
	}
	return 0;
}

/* Scan the data rows for the line of addr. */
static int scan_rows(const char *p, const struct table_head *h, unsigned long long addr,
		     unsigned long long size, struct c2c_hitm *out, char *why, size_t n)
{
	char line[4096], *f[TBL_COLS + 1];
	int a, t, l, r;
	if (head_columns(h, &a, &t, &l, &r, why, n))
		return -1;
	while (p && (p = next_line(p, line, sizeof(line)))) {
		if (line[0] == '#')
			continue;
		if (!line[strspn(line, " \t")] || line[strspn(line, " ")] == '=')
			return 1; /* the table ended without the line */
		if (split_fields(line, f, TBL_COLS + 1) != h->ncol) {
			snprintf(why, n,
				 "a row of perf's Shared Data Cache Line Table has not the %d "
				 "columns of its header",
				 h->ncol);
			return -1;
		}
		unsigned long long start = strtoull(f[a], NULL, 16);
		if (addr < start || addr - start >= size)
			continue;
		*out = (struct c2c_hitm){ count_of(f[t]), count_of(f[l]), count_of(f[r]), start };
		if (out->total < 0 || out->local < 0 || out->remote < 0) {
			snprintf(why, n, "perf's HITM cells for line 0x%llx are not counts", addr);
			return -1;
		}
		return 0;
	}
	return 1;
}

int c2c_table_hitm(const char *report, unsigned long long addr, unsigned long long line,
		   struct c2c_hitm *out, char *why, size_t n)
{
	struct table_head *h = calloc(1, sizeof(*h));
	const char *p = report ? strstr(report, "Shared Data Cache Line Table") : NULL;
	int rc = -1;
	if (!h)
		return -1;
	if (!p)
		snprintf(why, n, "perf's report has no Shared Data Cache Line Table");
	else if (!(p = read_head(strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL, h)))
		snprintf(why, n,
			 "perf's Shared Data Cache Line Table has no header perf's way "
			 "(Cacheline/Index/Address)");
	else
		rc = scan_rows(p, h, addr, line, out, why, n);
	free(h);
	return rc;
}
