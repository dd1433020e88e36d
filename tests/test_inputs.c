/* compare and report read each input once and only what it claims to be: a file or row read twice
 * into one side is refused on one line, a .meta or CSV that is a FIFO or a device is refused at
 * once (never waited on), a malformed metric is refused in a row marked valid = no too; what a
 * command prints on a full standard output fails it; typed names with a newline give one-line
 * errors, and a preset may start with a UTF-8 byte order mark. */
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SETS "tests/data/comparable"

static char a[400], b[400]; /* copies of the made-up sets a and b */

static int setup(void **s)
{
	char cmd[1200];
	test_dir_setup(s);
	snprintf(a, sizeof(a), "%s/a", test_dir);
	snprintf(b, sizeof(b), "%s/b", test_dir);
	snprintf(cmd, sizeof(cmd), "cp -r " SETS "/a " SETS "/b '%s'/", test_dir);
	return system(cmd);
}

/* One c2cbench command line under `timeout 20` (a hang fails, never blocks the suite): its exit
 * status, stderr in err. */
static int c2c_sh(char *err, size_t n, const char *args)
{
	char cmd[2400];
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	snprintf(cmd, sizeof(cmd), "timeout 20 '%s' %s 2>&1 >/dev/null", bin, args);
	return sh_capture(err, n, cmd);
}

static void refused(const char *args, const char *says)
{
	char err[4096];
	int st = c2c_sh(err, sizeof(err), args);
	const char *e = strstr(err, "c2cbench: error: "); /* notes on the machines may come first */
	if (st != 2 || !e || count_lines(e) != 1 || !strstr(e, says))
		fail_msg("%s: status %d (124: hung), stderr: %s (wanted '%s')", args, st, err,
			 says);
}

/* DIR/00-copy.csv: csv with rep + 100, attempt 2 and, where it has them, another start time,
 * seed and thread names: its numbering and bookkeeping changed, every measurement the same. */
static void renumbered_copy(const char *csv, const char *dir)
{
	char cmd[2400];
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], "
		 "newline=\"\"))); h = r[0]; f = {\"rep\": lambda s: str(int(s) + 100), "
		 "\"attempt\": lambda s: \"2\", \"started\": lambda s: \"2001-01-01T00:00Z\", "
		 "\"seed\": lambda s: \"7\", \"thread_ids\": lambda s: \"x@0\"}; "
		 "[x.__setitem__(i, f[k](x[i])) for x in r[1:] for i, k in enumerate(h) "
		 "if k in f]; csv.writer(open(sys.argv[2], \"w\", newline=\"\"), "
		 "lineterminator=\"\\n\").writerows(r)' '%s' '%s/00-copy.csv'",
		 csv, dir);
	assert_int_equal(system(cmd), 0);
}

/* A result directory holding a copy of its CSV (as is, or its rep and attempt renumbered), the
 * same file twice, a file and the directory that holds it: each refused with the two places
 * named. Both sides of compare may read one result (it is compared with itself). */
static void read_twice(void **s)
{
	(void)s;
	char args[2000], copy[500], says[1200];
	snprintf(args, sizeof(args), "compare '%s' '%s'", a, a);
	char err[4096];
	assert_int_equal(c2c_sh(err, sizeof(err), args), 0);
	snprintf(args, sizeof(args),
		 "report '%s/01-pending-bit.csv' '%s/01-pending-bit.csv' -o '%s/r1'", a, a,
		 test_dir);
	snprintf(says, sizeof(says),
		 "%s/01-pending-bit.csv: the same file as %s/01-pending-bit.csv, read twice", a, a);
	refused(args, says);
	snprintf(args, sizeof(args), "report '%s' '%s/02-vmalloc.csv' -o '%s/r1'", a, a, test_dir);
	refused(args, "02-vmalloc.csv, read twice (its repetitions would count twice); accepted: "
		      "each result once");
	assert_false(file_exists(strstr(args, "-o '") + 4)); /* nothing written */
	snprintf(copy, sizeof(copy), "%s/01-pending-bit.csv", b);
	snprintf(args, sizeof(args), "cp '%s' '%s/00-copy.csv'", copy, b);
	assert_int_equal(system(args), 0);
	snprintf(args, sizeof(args), "compare '%s' '%s'", a, b);
	snprintf(says, sizeof(says), "%s:2: the same row as %s/00-copy.csv:2", copy, b);
	refused(args, says);
	snprintf(args, sizeof(args), "rm '%s/00-copy.csv'", b);
	assert_int_equal(system(args), 0);
	snprintf(args, sizeof(args), "compare '%s' '%s'", a, b);
	assert_int_equal(c2c_sh(err, sizeof(err), args), 0);
	/* the copy with its repetitions renumbered, and where it has them another start time, seed
	 * and thread names: every measurement the same, so the same result still */
	renumbered_copy(copy, b);
	snprintf(args, sizeof(args), "compare '%s' '%s'", a, b);
	snprintf(says, sizeof(says),
		 "%s:2: the same row as %s/00-copy.csv:2, its numbering aside (a copy of one "
		 "result?",
		 copy, b);
	refused(args, says);
	snprintf(args, sizeof(args), "report '%s' -o '%s/r3'", b, test_dir);
	refused(args, says);
	assert_false(file_exists(strstr(args, "-o '") + 4)); /* nothing written */
	snprintf(args, sizeof(args), "rm '%s/00-copy.csv'", b);
	assert_int_equal(system(args), 0);
	/* a set that records when each row started, the seed and the threads (schema 12): a copy
	 * with only those and the numbering changed is the same result */
	snprintf(args, sizeof(args),
		 "mkdir -p '%s/dup12' && cp tests/data/schemas/v12/01-rmw.* '%s/dup12/' && "
		 "for x in columns bench meta; do cp '%s/dup12/01-rmw.'$x '%s/dup12/00-copy.'$x; "
		 "done && head -1 '%s/dup12/01-rmw.csv' | grep -q ',started,.*,seed'",
		 test_dir, test_dir, test_dir, test_dir, test_dir);
	assert_int_equal(system(args), 0);
	char dir[450];
	snprintf(dir, sizeof(dir), "%s/dup12", test_dir);
	snprintf(copy, sizeof(copy), "%s/01-rmw.csv", dir);
	renumbered_copy(copy, dir);
	snprintf(args, sizeof(args), "compare '%s' '%s'", dir, dir);
	snprintf(says, sizeof(says), "%s:2: the same row as %s/00-copy.csv:2, its numbering aside",
		 copy, dir);
	refused(args, says);
}

/* A .meta that is a FIFO (no writer: a reader would wait for ever), a link to /dev/zero (a read
 * that never ends) or a link that loops or leads nowhere, and a CSV that is a FIFO: refused at
 * once. */
static void not_regular(void **s)
{
	(void)s;
	char meta[500], keep[520], args[1200], fifo[500];
	snprintf(meta, sizeof(meta), "%s/02-vmalloc.meta", a);
	snprintf(keep, sizeof(keep), "%s.keep", meta);
	assert_int_equal(rename(meta, keep), 0);
	assert_int_equal(mkfifo(meta, 0644), 0);
	snprintf(args, sizeof(args), "compare '%s' '%s'", a, b);
	refused(args, "02-vmalloc.meta: a FIFO, not a regular file; accepted:");
	unlink(meta);
	assert_int_equal(symlink("/dev/zero", meta), 0);
	refused(args, "02-vmalloc.meta: a character device, not a regular file");
	snprintf(args, sizeof(args), "report '%s' -o '%s/r2'", a, test_dir);
	refused(args, "02-vmalloc.meta: a character device, not a regular file");
	/* a link that loops, or leads nowhere: refused, never read as no .meta */
	unlink(meta);
	assert_int_equal(symlink("02-vmalloc.meta", meta), 0);
	refused(args, "02-vmalloc.meta: Too many levels of symbolic links; accepted: the .meta");
	unlink(meta);
	assert_int_equal(symlink("/nonexistent/x.meta", meta), 0);
	snprintf(args, sizeof(args), "compare '%s' '%s'", a, b);
	refused(args, "02-vmalloc.meta: a link that leads nowhere; accepted: the .meta");
	unlink(meta);
	assert_int_equal(rename(keep, meta), 0);
	snprintf(fifo, sizeof(fifo), "%s/fifo.csv", test_dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	snprintf(args, sizeof(args), "compare '%s' '%s'", fifo, b);
	refused(args,
		"fifo.csv: a FIFO, not a regular file; accepted: a CSV file or a result directory");
	unlink(fifo);
}

/* A row marked valid = no holds no value that counts, but a malformed one is still malformed. */
static void malformed_in_invalid_row(void **s)
{
	(void)s;
	char path[500], args[1200];
	snprintf(path, sizeof(path), "%s/bad.csv", test_dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("schema_version,bench,layout,rep,attempt,valid,offset,policy,atomics,atomics_"
	      "requested,placement,"
	      "placement_requested,writers,readers,mem_node,mem_node_actual,work_ns,drain_us,"
	      "writer_ns_per_op,"
	      "reader_ns_per_op,duration_requested_s,warmup_requested_s,label,host,cpu_model\n"
	      "8,pending-bit,shared,0,1,yes,32,rmw,lock,auto,same-socket,auto,1,1,0,0,0,0,10,5,1.5,"
	      "0.2,x,x,C\n"
	      "8,pending-bit,shared,1,1,no,32,rmw,lock,auto,same-socket,auto,1,1,0,0,0,0,0x1f,5,1."
	      "5,0.2,x,x,C\n",
	      f);
	fclose(f);
	snprintf(args, sizeof(args), "compare '%s' '%s'", path, path);
	refused(args,
		"bad.csv:3: writer_ns_per_op = '0x1f' is not accepted; accepted: a decimal number");
}

/* stdout on a full disk: the command fails with one line, whatever it printed. */
static void full_stdout(void **s)
{
	(void)s;
	char err[4096], cmd[1200];
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	const char *args[] = {
		"topo", "run pending-bit --dry-run --topology 'synthetic:pack:1 core:2 pu:1'",
		"list"
	};
	for (size_t i = 0; i < ARRAY_SIZE(args); i++) {
		snprintf(cmd, sizeof(cmd), "timeout 20 '%s' %s 2>&1 >/dev/full", bin, args[i]);
		int st = sh_capture(err, sizeof(err), cmd);
		if (st != 1 || !strstr(err, "c2cbench: error: cannot write the standard output: No "
					    "space left on device"))
			fail_msg("%s > /dev/full: status %d, stderr: %s", args[i], st, err);
	}
	snprintf(cmd, sizeof(cmd),
		 "timeout 20 '%s' compare '%s/01-pending-bit.csv' '%s/01-pending-bit.csv' --csv "
		 "2>&1 >/dev/full",
		 bin, a, a);
	int st = sh_capture(err, sizeof(err), cmd);
	if (st != 1 || count_lines(err) != 1 || !strstr(err, "No space left on device"))
		fail_msg("compare --csv > /dev/full: status %d, stderr: %s", st, err);
}

/* Names typed with a newline give one-line errors; a flag given a value is named as a flag. */
static void one_line_names(void **s)
{
	(void)s;
	refused("run \"$(printf 'pend\\ning')\"", "unknown bench 'pend\\ning'; accepted: ");
	refused("\"$(printf 'fro\\nb')\"", "unknown command 'fro\\nb'; accepted: ");
	refused("run pending-bit --dry-run=yes",
		"option --dry-run is a flag and takes no value; accepted: --dry-run alone");
	char args[1200];
	snprintf(args, sizeof(args), "compare '%s' '%s' --csv=1", a, b);
	refused(args, "option --csv is a flag and takes no value");
	char err[4096];
	snprintf(args, sizeof(args), "compare '%s' '%s' --metric=writer_ns_per_op", a,
		 b); /* --opt=value */
	assert_int_equal(c2c_sh(err, sizeof(err), args), 0);
	assert_int_equal(c2c_sh(err, sizeof(err),
				"run pending-bit --duration=0.5 --dry-run "
				"--topology='synthetic:pack:1 core:2 pu:1'"),
			 0);
}

/* A preset that starts with a UTF-8 byte order mark reads as without it. */
static void preset_bom(void **s)
{
	(void)s;
	char ini[500], args[700], err[4096];
	snprintf(ini, sizeof(ini), "%s/bom.ini", test_dir);
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fputs("\xef\xbb\xbf[preset]\ndescription = with a BOM\n[a]\nbench = pending-bit\nduration "
	      "= 0.02\n",
	      f);
	fclose(f);
	snprintf(args, sizeof(args), "preset '%s' --dry-run", ini);
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	char cmd[1000];
	snprintf(cmd, sizeof(cmd), "timeout 20 '%s' %s 2>&1", bin, args);
	int st = sh_capture(err, sizeof(err), cmd);
	if (st != 0 || !strstr(err, "preset bom (") || !strstr(err, "with a BOM") ||
	    !strstr(err, "[a] pending-bit --duration 0.02"))
		fail_msg("status %d: %s", st, err);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(read_twice),
		cmocka_unit_test(not_regular),
		cmocka_unit_test(malformed_in_invalid_row),
		cmocka_unit_test(full_stdout),
		cmocka_unit_test(one_line_names),
		cmocka_unit_test(preset_bom),
	};
	return cmocka_run_group_tests(t, setup, test_dir_teardown);
}
