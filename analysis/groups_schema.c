/* Every schema read as today's: the changes that a join needs (results/CHANGELOG-schema.md lists
 * them all), and what an older run asked for, from its result directory's record. */
#include "analysis/groups_schema.h"
#include "lib/infile.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "schema/desc.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per version, the configuration columns (what compare joins on) and the columns whose meaning
 * changed. A column not listed that a file lacks is not recorded there either, with no stand-in.
 * Versions 3, 4 (pingpong's round columns, shepherd's threshold and pcp_batch: no stand-in), 6 and
 * 9 added context and measurements only. */
const struct grp_schema_change grp_schema_changes[] = {
	/* 13: vmalloc's drains_per_crossing leaves the re-queued drains out (before: drains /
	 * crossings, re-queues included; a file of 12 or before did not record them apart) */
	{ 13, "vmalloc", "drains_per_crossing", NULL, NULL, NULL, NULL },
	/* 12: one meaning per name. pingpong's request, mem_node_req, is mem_node_requested as in
	 * every bench; pingpong's and refill's mem_node (the node found) is mem_node_actual, and
	 * their mem_node the node their plan binds to, which no older file recorded (listed
	 * before the change of 10 of every bench's mem_node_requested: the first match counts) */
	{ 12, "pingpong", "mem_node_requested", "mem_node_req", NULL, NULL, NULL },
	{ 12, "pingpong", "mem_node_actual", "mem_node", NULL, NULL, NULL },
	{ 12, "pingpong", "mem_node", NULL, NULL, NULL, NULL },
	{ 12, "refill", "mem_node_actual", "mem_node", NULL, NULL, NULL },
	{ 12, "refill", "mem_node", NULL, NULL, NULL, NULL },
	/* pingpong runs by samples, never for a duration: its rows wrote the harness's default
	 * duration and warm-up (1 and 0.2 s, used by nothing) until it wrote 0 (schema 5 on) */
	{ 5, "pingpong", "duration_requested_s", NULL, NULL, "0",
	  "pingpong's, which runs by samples and takes no duration" },
	{ 5, "pingpong", "warmup_requested_s", NULL, NULL, "0",
	  "pingpong's, which runs by samples and takes no warm-up" },
	/* 2: pingpong's --lines and --mem-node (before: one line, first touched by the pair's first
	 * PU: today's defaults) */
	{ 2, "pingpong", "lines", NULL, NULL, "1",
	  "one line a pair, the only kind before --lines" },
	{ 2, "pingpong", "mem_node_req", NULL, NULL, "first",
	  "the pair's first PU's node (first touch), the only kind before --mem-node" },
	/* 2: the requested duration and warm-up; before, the measured duration stands in */
	{ 2, NULL, "duration_requested_s", NULL, "duration_s", NULL, "the measured duration" },
	{ 2, NULL, "warmup_requested_s", NULL, NULL, NULL, NULL },
	/* 3: pending-bit's --atomics (before: a locked RMW, x86's lock, the only kind) */
	{ 3, "pending-bit", "atomics_requested", NULL, "atomics", "lock",
	  "the atomics used (lock: the only kind before --atomics)" },
	/* 5: pending-bit's placement as given; before, what auto or the placement became */
	{ 5, "pending-bit", "placement_requested", NULL, "placement", NULL, "the placement used" },
	/* 7: vmalloc's purge_us_achieved became CPU time (it was wall time): not the same quantity
	 */
	{ 7, "vmalloc", "purge_us_achieved", NULL, NULL, NULL, NULL },
	/* 8: vmalloc's lazy_max as given (its lazy_max was the effective value, now
	 * lazy_max_effective) and placement as given; refill's CPUs as given */
	{ 8, "vmalloc", "lazy_max", NULL, "lazy_max", NULL, "the effective lazy_max" },
	{ 8, "vmalloc", "lazy_max_effective", "lazy_max", NULL, NULL, NULL },
	{ 8, "vmalloc", "placement_requested", NULL, "placement", NULL, "the placement used" },
	{ 8, "refill", "caller_cpu_requested", NULL, "caller_cpu", NULL, "the caller's CPU" },
	{ 8, "refill", "worker_cpu_requested", NULL, "worker_cpu", NULL, "the worker's CPU" },
	/* 10: --mem-node as given; before, the node planned */
	{ 10, NULL, "mem_node_requested", NULL, "mem_node", NULL, "the node used" },
	{ 10, "shepherd", "cpus_requested", NULL, "cpus", NULL, "the CPUs modelled" },
	/* 11: vmalloc's purge costs --flush-us plus --area-ns per area (before: a fixed --purge-us,
	 * another model, so nothing stands in) */
	{ 11, "vmalloc", "flush_us", NULL, NULL, NULL, NULL },
	{ 11, "vmalloc", "area_ns", NULL, NULL, NULL, NULL },
	{ 0, NULL, NULL, NULL, NULL, NULL, NULL },
};

/* The first change of col (of bench) older than version `before` (the table's first match). */
static const struct grp_schema_change *change_of(const char *bench, const char *col, int before)
{
	for (const struct grp_schema_change *c = grp_schema_changes; c->since; c++)
		if (c->since < before && !strcmp(c->col, col) &&
		    (!c->bench || !strcmp(c->bench, bench)))
			return c;
	return NULL;
}

/* A column renamed at version N is followed back under its older name through the changes
 * before N (pingpong's mem_node_requested: mem_node_req from 2 to 11, not recorded before 2). */
const char *grp_schema_col(int v, const char *bench, const char *col,
			   const struct grp_schema_change **ch)
{
	*ch = NULL;
	for (const struct grp_schema_change *c = change_of(bench, col, INT_MAX); c;
	     c = change_of(bench, col, c->since)) {
		*ch = c;
		if (v >= c->since || !(col = c->old))
			return col;
	}
	return col;
}

const char *grp_schema_today(int v, const char *bench, const char *col)
{
	for (const struct grp_schema_change *c = grp_schema_changes; c->since; c++) {
		const struct grp_schema_change *ch;
		const char *today;
		if (c->old && !strcmp(c->old, col) && v < c->since &&
		    (!c->bench || !strcmp(c->bench, bench)) &&
		    (today = grp_schema_col(v, bench, c->col, &ch)) && !strcmp(today, col))
			return c->col;
	}
	return col;
}

const char *grp_schema_value(const char *bench, const char *col, const char *v, char *buf,
			     size_t n)
{
	long node;
	if (!v || strcmp(bench, "pingpong") || strcmp(col, "mem_node_requested"))
		return v;
	if (!strcmp(v, "a"))
		return "first";
	if (!strcmp(v, "b"))
		return "reader";
	if (v[0] >= '0' && v[0] <= '9' && !parse_long(v, &node)) {
		snprintf(buf, n, "node:%ld", node);
		return buf;
	}
	return v;
}

void grp_schema_desc(int v, const char *bench, struct bench_desc *d)
{
	for (int i = 0; d->config && d->config[i]; i++) /* the parser's own array */
		((const char **)d->config)[i] = grp_schema_today(v, bench, d->config[i]);
	for (struct bench_resolved *r = (struct bench_resolved *)d->resolved; r && r->requested;
	     r++) {
		r->requested = grp_schema_today(v, bench, r->requested);
		r->resolved = grp_schema_today(v, bench, r->resolved);
	}
}

/* The options that give a configuration column, per bench (NULL: every bench), and the default
 * every schema had (NULL: none the record may stand in for). */
static const struct {
	const char *bench, *col, *opt, *dflt;
} asked[] = {
	{ NULL, "duration_requested_s", "--duration", NULL },
	{ NULL, "warmup_requested_s", "--warmup", NULL },
	{ "pending-bit", "placement_requested", "--placement", "auto" },
	{ "pending-bit", "atomics_requested", "--atomics", NULL },
	{ "pending-bit", "mem_node_requested", "--mem-node", NULL },
	{ "vmalloc", "placement_requested", "--placement", NULL },
	{ "vmalloc", "mem_node_requested", "--mem-node", NULL },
};

/* The command line of the run that wrote the file named base, from metadata.txt in dir: the INI
 * form ([run NAME] command = ..., csv = FILE) or the older "run: NAME | CMD | ... | FILE". */
static int command_of(const char *dir, const char *base, char *cmd, size_t n)
{
	char path[4300], line[2048], last[2048] = "";
	snprintf(path, sizeof(path), "%.4200s/metadata.txt", dir);
	FILE *f = fopen_regular(path);
	if (!f)
		return 0;
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!strncmp(line, "command = ", 10))
			snprintf(last, sizeof(last), "%s", line + 10);
		else if (!strncmp(line, "csv = ", 6) && !strcmp(line + 6, base) && last[0])
			found = snprintf(cmd, n, "%s", last) > 0;
		else if (!strncmp(line, "[", 1))
			last[0] = 0;
		else if (!strncmp(line, "run: ", 5)) { /* run: NAME | CMD | exit ... | FILE */
			char *p1 = strchr(line, '|'), *pl = strrchr(line, '|');
			char *p2 = p1 ? strchr(p1 + 1, '|') : NULL;
			if (p1 && p2 && pl && !strcmp(pl + 1 + (pl[1] == ' '), base)) {
				*p2 = 0;
				found = snprintf(cmd, n, "%s", p1 + 1) > 0;
			}
		}
	}
	fclose(f);
	return found;
}

int grp_schema_asked(const char *csv, const char *bench, const char *col, char *out, size_t n)
{
	size_t i = 0;
	while (i < ARRAY_SIZE(asked) &&
	       !((!asked[i].bench || !strcmp(asked[i].bench, bench)) && !strcmp(asked[i].col, col)))
		i++;
	if (i == ARRAY_SIZE(asked))
		return 0;
	char dir[4200], cmd[2048];
	const char *slash = strrchr(csv, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - csv) : 1, slash ? csv : ".");
	if (!command_of(dir, slash ? slash + 1 : csv, cmd, sizeof(cmd)))
		return 0;
	char word[2][256] = { "", "" }; /* the command's words, one pair at a time */
	int given = 0;
	for (char *p = cmd; *p && !given;) {
		size_t l = strcspn(p, " ");
		if (l) {
			snprintf(word[0], sizeof(word[0]), "%s", word[1]);
			snprintf(word[1], sizeof(word[1]), "%.*s", (int)l, p);
			given = !strcmp(word[0], asked[i].opt);
		}
		p += l + (p[l] == ' ');
	}
	if (given)
		snprintf(out, n, "%s", word[1]);
	else if (asked[i].dflt && strstr(cmd, " run ")) /* the default of every schema */
		snprintf(out, n, "%s", asked[i].dflt);
	else
		return 0;
	return 1;
}
