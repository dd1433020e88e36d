#include "harness/csv.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A FIFO with no reader would block open() with no word: say that the run waits for one. A signal
 * (Ctrl-C) ends the wait with EINTR, since the handlers are installed without SA_RESTART. */
static int open_fifo(const char *path)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO) {
		fprintf(stderr,
			"c2cbench: note: --out %s is a FIFO with no reader yet: waiting for one to "
			"open it (Ctrl-C to stop)\n",
			path);
		fd = open(path, O_WRONLY | O_CLOEXEC);
	} else if (fd >= 0)
		fcntl(fd, F_SETFL,
		      fcntl(fd, F_GETFL) & ~O_NONBLOCK); /* rows are written whole, blocking */
	return fd;
}

int csv_open(struct csv *c, const char *path, char *err)
{
	struct stat st;
	memset(c, 0, sizeof(*c));
	if (!strcmp(path, "-")) { /* standard output: written as is, never removed */
		c->fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
		if (c->fd < 0)
			return err_set(err, "--out -: standard output is not open: %s",
				       strerror(errno));
		c->path = xstrdup("-");
		return 0;
	}
	/* A device or pipe (/dev/stdout, /dev/full) is written as is; a regular file must be new.
	 */
	int existing_special = !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
	c->fd =
	    S_ISFIFO(st.st_mode) && existing_special
		? open_fifo(path)
		: open(path,
		       O_WRONLY | O_APPEND | O_CLOEXEC | (existing_special ? 0 : O_CREAT | O_EXCL),
		       0644);
	if (c->fd < 0) {
		if (errno == EINTR)
			return err_set(err,
				       "--out: '%s': interrupted while waiting for a reader of the "
				       "FIFO; nothing was measured",
				       path);
		if (errno == EEXIST)
			return err_set(err,
				       "--out: '%s' already exists; accepted: a new file (results "
				       "are never overwritten)",
				       path);
		return err_set(err,
			       "--out: cannot create '%s': %s; accepted: a writable path in an "
			       "existing directory",
			       path, strerror(errno));
	}
	c->path = xstrdup(path);
	c->created = !existing_special;
	return 0;
}

/* fdatasync, when forced or CSV_SYNC_NS after the last one. */
static int csv_flush(struct csv *c, int force, char *err)
{
	uint64_t now = now_ns();
	if (!force && c->synced_ns && now - c->synced_ns < CSV_SYNC_NS)
		return 0;
	c->synced_ns = now;
	if (fdatasync(c->fd) && errno != EINVAL && errno != EROFS)
		return err_set(err, "cannot flush '%s': %s", c->path, strerror(errno));
	return 0;
}

/* Write all of buf or, on failure, cut the file back so no partial line remains. */
static int write_whole(struct csv *c, const char *buf, size_t len, char *err)
{
	off_t start = lseek(c->fd, 0, SEEK_END); /* -1 on pipes: nothing to cut back there */
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(c->fd, buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;
			if (start >= 0 && ftruncate(c->fd, start)) {
				/* nothing more can be done; the error below still reports the
				 * failure */
			}
			return err_set(err, "cannot write to '%s': %s", c->path, strerror(e));
		}
		done += (size_t)w;
	}
	return csv_flush(c, 0, err);
}

static char *join(const char *const *fields, int n, size_t *len)
{
	size_t cap = 256, k = 0;
	char *buf = malloc(cap);
	if (!buf)
		out_of_memory(0);
	for (int i = 0; i < n; i++) {
		size_t need = 2 * strlen(fields[i]) + 4;
		if (k + need + 2 > cap) {
			cap = (k + need + 2) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				out_of_memory(0);
		}
		if (i)
			buf[k++] = ',';
		k += csv_field(fields[i], buf + k, cap - k);
	}
	buf[k++] = '\n';
	buf[k] = 0;
	*len = k;
	return buf;
}

int csv_write(struct csv *c, const struct row *r, char *err)
{
	size_t len;
	char *line;
	if (!c->cols) {
		c->ncols = r->n;
		c->cols = xcalloc((size_t)r->n, sizeof(char *));
		for (int i = 0; i < r->n; i++)
			c->cols[i] = xstrdup(r->key[i]);
		line = join((const char *const *)c->cols, c->ncols, &len);
		int rc = write_whole(c, line, len, err);
		free(line);
		if (rc)
			return rc;
	}
	if (r->n != c->ncols)
		return err_set(err, "internal: row has %d columns, header %d", r->n, c->ncols);
	/* A row whose bench set the same columns in another order (a branch that found nothing
	 * to measure sets them NA in its own order) is written in the header's order. */
	const char *const *val = (const char *const *)r->val;
	const char **byname = NULL;
	for (int i = 0; i < r->n && !byname; i++)
		if (strcmp(r->key[i], c->cols[i]))
			val = byname = xcalloc((size_t)c->ncols, sizeof(char *));
	for (int i = 0; byname && i < c->ncols; i++)
		if (!(byname[i] = row_get(r, c->cols[i]))) {
			free(byname);
			return err_set(err, "internal: the row has no column '%s' of the header",
				       c->cols[i]);
		}
	line = join(val, c->ncols, &len);
	free(byname);
	int rc = write_whole(c, line, len, err);
	free(line);
	if (!rc)
		c->rows++;
	return rc;
}

int csv_close(struct csv *c, char *err)
{
	int rc = 0;
	if (c->fd >= 0 && c->rows && csv_flush(c, 1, err))
		rc = -1;
	if (c->fd >= 0 && close(c->fd) && !rc)
		rc = err_set(err, "cannot close '%s': %s", c->path, strerror(errno));
	for (int i = 0; i < c->ncols; i++)
		free(c->cols[i]);
	free(c->cols);
	free(c->path);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	return rc;
}
