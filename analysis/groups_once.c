/* Inputs read once: a file given twice to one side (by two names, or inside a directory given too)
 * and a row seen before on that side (a copy of a CSV, even renumbered) are refused, so no
 * repetition counts twice. A row is known by its content: every field but its numbering.
 * The two sides of compare may read the same file: that compares a result with itself. */
#include "analysis/groups_int.h"
#include "lib/csvstream.h"
#include "lib/util.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct once_file {
	dev_t dev;
	ino_t ino;
	int scope;
	char *path;
};

/* 16 bytes a row, at most 3/4 full: the table of a million rows stays 32 MB. */
struct once_row {
	uint64_t h;   /* 0: empty slot */
	uint64_t loc; /* its file (above ONCE_LINE_BITS) and line, or ONCE_NOWHERE */
};

#define ONCE_LINE_BITS 40
#define ONCE_NOWHERE UINT64_MAX

struct grp_once {
	struct once_file *file;
	int nfile;
	struct once_row *row;
	size_t cap, n;
	/* the header's names hashed, for the file name_file (0: a numbering column, left out) */
	uint64_t *name_h;
	int name_file, name_n;
};

static struct grp_once *once_of(struct groups *g)
{
	if (!g->once)
		g->once = xcalloc(1, sizeof(*g->once));
	return g->once;
}

int grp_once_file(struct groups *g, const char *path, int scope, char *err)
{
	struct grp_once *o = once_of(g);
	struct stat st;
	if (stat(path, &st))
		return 0; /* the reader says why it cannot open it */
	for (int i = 0; i < o->nfile; i++)
		if (o->file[i].dev == st.st_dev && o->file[i].ino == st.st_ino &&
		    o->file[i].scope == scope)
			return err_set(err,
				       "%s: the same file as %s, read twice (its repetitions would "
				       "count twice); "
				       "accepted: each result once",
				       path, o->file[i].path);
	o->file = realloc(o->file, (size_t)(o->nfile + 1) * sizeof(*o->file));
	if (!o->file)
		out_of_memory(0);
	o->file[o->nfile++] = (struct once_file){ st.st_dev, st.st_ino, scope, xstrdup(path) };
	return 0;
}

/* A row's numbering and bookkeeping, not its content: its repetition and attempt, when it started,
 * the run's seed and its threads' names and CPUs (the placement is a configuration column). A copy
 * with these changed and every measurement the same is the same result. */
static int numbering(const char *name)
{
	switch (name[0]) {
	case 'r':
		return !strcmp(name, "rep");
	case 'a':
		return !strcmp(name, "attempt");
	case 's':
		return !strcmp(name, "started") || !strcmp(name, "seed");
	case 't':
		return !strcmp(name, "thread_ids");
	default:
		return 0;
	}
}

/* h with n bytes at s and then sep mixed in, eight bytes at a time (a million rows of 30 fields
 * each are hashed: byte by byte cost a tenth of compare's time). Its length goes in with sep, so
 * where one field ends is part of the hash. */
static uint64_t mix_bytes(uint64_t h, const char *s, size_t n, unsigned sep)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, sizeof(w));
		h = (h ^ w) * 0x9fb21c651e98df25ull;
		h ^= h >> 32;
	}
	uint64_t w = 0, t = (uint64_t)sep << 16 | (n & 0xffff);
	memcpy(&w, s + i, n - i); /* the last 0..7 bytes */
	h = (h ^ w) * 0x9fb21c651e98df25ull;
	h = (h ^ t) * 0x9fb21c651e98df25ull;
	return h ^ (h >> 29);
}

uint64_t grp_once_hash(struct groups *g, int scope, const char *const *name,
		       const struct csvs *s)
{
	struct grp_once *o = once_of(g);
	if (o->name_file != o->nfile || o->name_n != s->nf) { /* a new file's header: once */
		free(o->name_h);
		o->name_h = xcalloc((size_t)s->nf + 1, sizeof(uint64_t));
		for (int i = 0; i < s->nf; i++)
			o->name_h[i] = numbering(name[i])
					   ? 0
					   : mix_bytes(1, name[i], strlen(name[i]), '=') | 1;
		o->name_file = o->nfile;
		o->name_n = s->nf;
	}
	uint64_t h = (1469598103934665603ull ^ (uint64_t)(unsigned)scope) * 1099511628211ull;
	for (int i = 0; i < s->nf; i++) /* the scope, then name=value pairs */
		if (o->name_h[i]) {
			size_t end = i + 1 < s->nf ? s->off[i + 1] : s->fb_len;
			h = (h ^ o->name_h[i]) * 0x9fb21c651e98df25ull;
			h = mix_bytes(h, csvs_field(s, i), end - s->off[i] - 1, 0x1f);
		}
	return h ? h : 1;
}

static void grow(struct grp_once *o)
{
	size_t cap = o->cap ? 2 * o->cap : 1024;
	struct once_row *old = o->row, *nr = xcalloc(cap, sizeof(*nr));
	/* written before it is probed: a page read first costs a second fault to copy */
	memset(nr, 0, cap * sizeof(*nr));
	for (size_t i = 0; i < o->cap; i++)
		if (old[i].h) {
			size_t j = old[i].h & (cap - 1);
			while (nr[j].h)
				j = (j + 1) & (cap - 1);
			nr[j] = old[i];
		}
	free(old);
	o->row = nr;
	o->cap = cap;
}

int grp_once_row(struct groups *g, uint64_t h, const char *path, long line, char *err)
{
	struct grp_once *o = once_of(g);
	if (4 * (o->n + 1) > 3 * o->cap)
		grow(o);
	size_t j = h & (o->cap - 1);
	for (; o->row[j].h; j = (j + 1) & (o->cap - 1))
		if (o->row[j].h == h) {
			uint64_t loc = o->row[j].loc;
			int known = loc != ONCE_NOWHERE;
			const char *was = known ? o->file[loc >> ONCE_LINE_BITS].path : "?";
			return err_set(err,
				       "%s:%ld: the same row as %s:%ld, its numbering aside (a "
				       "copy of one result? its repetitions would count twice); "
				       "accepted: each result once",
				       path, line, was,
				       known ? (long)(loc & ((1ull << ONCE_LINE_BITS) - 1)) : -1L);
		}
	uint64_t file = (uint64_t)(o->nfile - 1);
	int fits = o->nfile > 0 && file < (1ull << (64 - ONCE_LINE_BITS)) && line >= 0 &&
		   (uint64_t)line < (1ull << ONCE_LINE_BITS);
	o->row[j] = (struct once_row){ h, fits ? file << ONCE_LINE_BITS | (uint64_t)line
					      : ONCE_NOWHERE };
	o->n++;
	return 0;
}

void grp_once_free(struct groups *g)
{
	struct grp_once *o = g->once;
	if (!o)
		return;
	for (int i = 0; i < o->nfile; i++)
		free(o->file[i].path);
	free(o->file);
	free(o->row);
	free(o->name_h);
	free(o);
	g->once = NULL;
}
