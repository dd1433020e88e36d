/* Probe classes: latencies that cluster apart, split at gaps of more than PROBE_CLASS_GAP. */
#include "schema/probeclass.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>

double probe_latency(double before, double after)
{
	if (before >= 0 && after >= 0)
		return (before + after) / 2;
	return before >= 0 ? before : after >= 0 ? after : -1;
}

int probe_same_class(const double *x, const double *y, int n)
{
	for (int i = 0; i < n; i++) {
		if (x[i] <= 0 || y[i] <= 0)
			continue;
		double hi = x[i] > y[i] ? x[i] : y[i], lo = x[i] > y[i] ? y[i] : x[i];
		if (hi > PROBE_CLASS_GAP * lo)
			return 0;
	}
	return 1;
}

int probe_classes(const double *lat, int n, int *cls)
{
	int *ix = xcalloc((size_t)n + 1, sizeof(int)), m = 0, ncls = 0;
	for (int i = 0; i < n;
	     i++) { /* the measured ones, sorted by latency (insertion: few rows) */
		cls[i] = -1;
		if (lat[i] <= 0)
			continue;
		int j = m++;
		for (; j > 0 && lat[ix[j - 1]] > lat[i]; j--)
			ix[j] = ix[j - 1];
		ix[j] = i;
	}
	for (int k = 0; k < m; k++) {
		if (k == 0 || lat[ix[k]] > PROBE_CLASS_GAP * lat[ix[k - 1]])
			ncls++;
		cls[ix[k]] = ncls - 1;
	}
	free(ix);
	return ncls;
}

void probe_classes_text(const double *lat, const int *cls, int n, int ncls, char *out, size_t len)
{
	size_t k = 0;
	out[0] = 0;
	for (int c = 0; c < ncls && k < len; c++) {
		double lo = -1, hi = -1;
		int cnt = 0;
		for (int i = 0; i < n; i++)
			if (cls[i] == c) {
				lo = lo < 0 || lat[i] < lo ? lat[i] : lo;
				hi = lat[i] > hi ? lat[i] : hi;
				cnt++;
			}
		k += (size_t)snprintf(out + k, len - k, "%s%.0f-%.0f ns (%d%s)", c ? ", " : "", lo,
				      hi, cnt, c ? "" : " repetition(s)");
	}
}
