/* The command line's conventions through the real binary: help that lists exactly what each bench
 * takes, --out -, did-you-mean, the progress line on a pseudo-terminal only, deps.sh's mapping. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "harness/bench.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char out_path[400];

static int setup(void **s)
{
	(void)s;
	char cwd[400], p[512];
	test_dir_setup(NULL);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(p, sizeof(p), "%s/presets",
		 cwd); /* a sanitizer build's binary is not beside presets/ */
	setenv("C2C_PRESET_PATH", p, 1);
	return 0;
}

static const char *bin(void)
{
	return getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
}

/* The options a --help text lists: "  --name [METAVAR]  help..." lines, in order. */
struct listed {
	int n;
	char name[64][40], meta[64][40], line[64][1000];
};

static void parse_help(const char *text, const char *from, struct listed *l)
{
	const char *p = from ? strstr(text, from) : text;
	int in_opt = 0; /* the line before is an option's */
	memset(l, 0, sizeof(*l));
	assert_non_null(p);
	if (from)
		p += strlen(from);
	for (; p && *p && l->n < 64; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (from && p[0] != ' ' && p[0] != '\n')
			break; /* the next section */
		int len = (int)strcspn(p, "\n");
		if (in_opt && !strncmp(p, "      ", 6)) { /* the option's text continues */
			size_t k = strlen(l->line[l->n - 1]);
			snprintf(l->line[l->n - 1] + k, sizeof(l->line[0]) - k, " %.*s",
				 len - (int)strspn(p, " "), p + strspn(p, " "));
			continue;
		}
		in_opt = !strncmp(p, "  --", 4);
		if (!in_opt)
			continue;
		snprintf(l->line[l->n], sizeof(l->line[0]), "%.*s", len, p);
		sscanf(p + 4, "%39[a-z0-9-]", l->name[l->n]);
		const char *m = p + 4 + strlen(l->name[l->n]);
		if (*m == ' ' && m[1] != ' ')
			sscanf(m + 1, "%39s", l->meta[l->n]);
		l->n++;
	}
}

/* A value the option accepts, from its own help line: its default, its first choice, or by kind. */
static const char *valid_value(const char *name, const char *meta, const char *line, char *buf,
			       size_t n)
{
	const char *d = strstr(line, "(default ");
	if (!strcmp(name, "out") || !strcmp(name, "meta") || !strcmp(name, "matrix")) {
		snprintf(buf, n, "%s/%s-%d.csv", test_dir, name, rand());
		return buf;
	}
	if (!strcmp(name, "resume")) { /* pingpong: a run stopped before its first row */
		snprintf(buf, n, "%s/resume-%d.csv", test_dir, rand());
		FILE *f = fopen(buf, "w");
		assert_non_null(f);
		fputs("bench,seed,cpu_a,cpu_b,mode,rep,attempt,valid,min_ns\n", f);
		fclose(f);
		return buf;
	}
	if (!strcmp(name, "topology"))
		return "synthetic:pack:1 core:4 pu:1";
	if (!strcmp(name, "pmu"))
		return "skx";
	if (!strcmp(name, "label"))
		return "t1";
	if (!strcmp(name, "offset-sweep"))
		return "8:16:8";
	if (!strcmp(name, "mem-node") && !strncmp(meta, "a|b", 3))
		return "a";
	if (!strcmp(name, "home"))
		return "reader";
	size_t len = d ? strcspn(d + 9, ")") : 0;
	if (len && !memchr(d + 9, ' ', len) &&
	    !memchr(d + 9, ':', len)) { /* "(default X)", one word */
		snprintf(buf, n, "%.*s", (int)len, d + 9);
		return buf;
	}
	const char *ch = strchr(line, '[');
	if (ch && strchr(ch, ']')) {
		snprintf(buf, n, "%.*s", (int)strcspn(ch + 1, ",]"), ch + 1);
		return buf;
	}
	return !strcmp(meta, "SECONDS") ? "0.5" : "1";
}

/* Every option a bench's --help lists is taken by that bench (a valid value, in a dry run), and
 * every harness option it does not list is refused with "does not take". */
static void help_lists_exactly_what_each_bench_takes(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r)), *all = malloc(sizeof(*all));
	struct listed *h = malloc(sizeof(*h)), *b = malloc(sizeof(*b)),
		      *every = malloc(sizeof(*every));
	char benches[2048], buf[500];
	run_c2c(r, "list", NULL);
	benches[0] = 0;
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "bench ", 6)) {
			char name[64];
			sscanf(l + 6, "%63s", name);
			strcat(strcat(benches, name), " ");
		}
	assert_true(strlen(benches) > 20);
	run_c2c(all, "run", "pending-bit", "--help",
		NULL); /* pending-bit takes every harness option */
	parse_help(all->out, "harness options:\n", every);
	for (char *save = NULL, *name = strtok_r(benches, " ", &save); name;
	     name = strtok_r(NULL, " ", &save)) {
		char from[80];
		run_c2c(r, "run", name, "--help", NULL);
		assert_int_equal(r->status, 0);
		parse_help(r->out, "harness options:\n", h);
		snprintf(from, sizeof(from), "%s options:\n", name);
		parse_help(r->out, strstr(r->out, from) ? from : "harness options:\n", b);
		struct listed *both[2] = { h, b };
		for (int t = 0; t < 2; t++)
			for (int i = 0; i < both[t]->n; i++) {
				const char *o = both[t]->name[i], *args[12];
				char opt[48];
				int k = 0;
				if (!strcmp(o, "dry-run"))
					continue;
				snprintf(opt, sizeof(opt), "--%s", o);
				args[k++] = "run";
				args[k++] = name;
				args[k++] = opt;
				if (both[t]->meta[i][0])
					args[k++] = valid_value(o, both[t]->meta[i],
								both[t]->line[i], buf, sizeof(buf));
				args[k++] = "--dry-run";
				args[k] = NULL;
				run_c2cv(r, args);
				int ok = r->status == 0 ||
					(!strcmp(o, "require-counters") &&
					 r->status == 3); /* 3: no PMU here, not refused */
				if (!ok || strstr(r->err, "does not take") ||
				    strstr(r->err, "unknown option"))
					fail_msg("%s lists %s but refuses it (%s %s): status %d: "
						 "%s",
						 name, opt, opt, k > 5 ? args[3] : "", r->status,
						 r->err);
			}
		for (int i = 0; i < every->n; i++) { /* harness options this bench does not list */
			int listed = 0;
			for (int j = 0; j < h->n; j++)
				listed |= !strcmp(h->name[j], every->name[i]);
			if (listed)
				continue;
			char opt[48];
			snprintf(opt, sizeof(opt), "--%s", every->name[i]);
			run_c2c(r, "run", name, opt, "1", "--dry-run", NULL);
			if (r->status != 2 || !strstr(r->err, "does not take") ||
			    count_lines(r->err) != 1)
				fail_msg("%s does not list %s but does not refuse it by name: %d "
					 "%s",
					 name, opt, r->status, r->err);
		}
	}
	free(r);
	free(all);
	free(h);
	free(b);
	free(every);
}

/* help, run --help and every subcommand's --help answer on stdout with status 0. */
static void every_help_exits_zero(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r)), *c = malloc(sizeof(*c));
	run_c2c(r, "help", NULL);
	assert_int_equal(r->status, 0);
	int n = 0;
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char cmd[64];
		if (strncmp(l, "  ", 2) || l[2] == ' ' || sscanf(l + 2, "%63s", cmd) != 1)
			continue;
		run_c2c(c, cmd, "--help", NULL);
		if (c->status != 0 || !c->out[0])
			fail_msg("c2cbench %s --help: status %d, stderr %s", cmd, c->status,
				 c->err);
		n++;
	}
	assert_true(n >= 9);
	run_c2c(r, "run", "--help", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\n  pending-bit  "));
	assert_non_null(strstr(r->out, "\n  pingpong     "));
	assert_null(strstr(r->out, "commands:")); /* the benches, not the top-level help */
	run_c2c(r, "-V", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "(git "));
	run_c2c(c, "--version", NULL);
	assert_string_equal(c->out, r->out);
	free(r);
	free(c);
}

/* Each typo gets the closest valid name; a word close to nothing gets none. */
static void did_you_mean(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r));
	static const char *const cases[][5] = {
		{ "run", "pending-bit", "--duraton", "1", "(did you mean '--duration'?)" },
		{ "run", "pending-bit", "--layout", "paded", "(did you mean 'padded'?)" },
		{ "run", "pending-bit", "--placement", "sread", "(did you mean 'spread'?)" },
		{ "run", "shepherd", "--check", "atomc", "(did you mean 'atomic'?)" },
		{ "run", "pending-bit", "--events", "hitm_locl", "closest: hitm_local" },
		{ "preset", "quik", "--dry-run", NULL, "(did you mean 'quick'?)" },
		{ "run", "pingpng", NULL, NULL, "(did you mean 'pingpong'?)" },
		{ "lsit", NULL, NULL, NULL, "(did you mean 'list'?)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[8] = { cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL };
		run_c2cv(r, args);
		if (r->status != 2 || !strstr(r->err, cases[i][4]) || count_lines(r->err) != 1)
			fail_msg("%s %s %s: status %d, wanted '%s' in one line: %s", cases[i][0],
				 cases[i][1] ? cases[i][1] : "", cases[i][2] ? cases[i][2] : "",
				 r->status, cases[i][4], r->err);
	}
	run_c2c(r, "run", "pending-bit", "--zqxwvy", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_null(strstr(r->err, "did you mean"));
	run_c2c(r, "run", "pending-bit", "--layout", "zqxwvy", "--dry-run", NULL);
	assert_null(strstr(r->err, "did you mean"));
	free(r);
}


/* --out - writes the CSV, only the CSV, to stdout: the same table (header, rows, configurations in
 * the seeded order) as --out FILE; the summary goes to stderr; no file named '-' is left. */
static void out_dash_is_the_same_csv(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r));
	char file[500], piped[500], meta[500], e[ERRLEN];
	struct table a, b;
	snprintf(file, sizeof(file), "%s/file.csv", test_dir);
	snprintf(piped, sizeof(piped), "%s/piped.csv", test_dir);
	snprintf(meta, sizeof(meta), "%s/piped.meta", test_dir);
	const char *common[] = {
	    "run",    "pending-bit", "--duration", "0.03", "--warmup=0.01", "--max-attempts=1",
	    "--reps", "2",           "--seed",     "7",    "--out",         NULL,
	    NULL,     NULL,          NULL};
	common[11] = file;
	run_c2cv(r, common);
	assert_true(RAN(r->status));
	assert_non_null(strstr(r->out, "repetition(s)")); /* a file: the summary on stdout */
	common[11] = "-";
	common[12] = "--meta";
	common[13] = meta;
	assert_int_equal(chdir(test_dir), 0);
	run_c2cv(r, common);
	assert_true(RAN(r->status));
	assert_false(file_exists("-"));
	assert_false(file_exists("-.meta"));
	assert_int_equal(chdir(getenv("PWD") ? getenv("PWD") : "/"), 0);
	assert_null(strstr(r->out, "repetition(s)"));
	assert_non_null(strstr(r->err, "repetition(s)")); /* the summary went to stderr */
	assert_non_null(strstr(r->err, "row(s) written to standard output"));
	assert_int_equal(strncmp(r->out, "schema_version,", 15), 0);
	FILE *f = fopen(piped, "w");
	fputs(r->out, f);
	fclose(f);
	assert_int_equal(table_read(&a, file, e), 0);
	assert_int_equal(table_read(&b, piped, e), 0);
	assert_int_equal(a.ncols, b.ncols);
	for (int c = 0; c < a.ncols; c++)
		assert_string_equal(a.cols[c], b.cols[c]);
	assert_int_equal(a.nrows, 6);
	assert_int_equal(b.nrows, a.nrows);
	for (long k = 0; k < a.nrows; k++) /* the same configurations in the same (seeded) order */
		for (int c = 0; c < 4; c++)
			assert_string_equal(a.cell[k][c], b.cell[k][c]);
	table_free(&a);
	table_free(&b);
	char *m = slurp(meta); /* --meta says where the context goes */
	assert_non_null(m);
	assert_non_null(strstr(m, "\n[run]\nstatus = complete\n"));
	free(m);
	free(r);
}

/* The elapsed seconds of every drawing of the line for configuration "(1 of 1)", in order. */
static int elapsed_draws(const char *out, long *sec, int max)
{
	int n = 0;
	long h, m, x;
	for (const char *p = out; n < max && (p = strstr(p, "(1 of 1)  elapsed ")); p++)
		if (sscanf(p + 18, "%ld:%ld:%ld", &h, &m, &x) == 3)
			sec[n++] = h * 3600 + m * 60 + x;
	return n;
}

/* cmd through sh_capture (into out, 64 KiB) ran to its end. */
static void ran_script(char *out, const char *cmd)
{
	int st = sh_capture(out, 65536, cmd);
	if (!RAN(st))
		fail_msg("exit %d: %s", st, out);
}

/* The progress line appears on a (pseudo-)terminal only, and not with --quiet. script(1) gives the
 * run a pty; its output is everything the terminal received. */
static void progress_line_on_a_terminal_only(void **s)
{
	(void)s;
	char cmd[2000], *out = malloc(65536);
	struct cmd_result *r = malloc(sizeof(*r));
	snprintf(cmd, sizeof(cmd),
		 "script -qec \"%s run pending-bit --duration 0.05 --warmup 0.01 --reps 2 --out "
		 "%s/tty.csv\" /dev/null 2>&1",
		 bin(), test_dir);
	ran_script(out, cmd);
	if (!strstr(out, "\r\033[K[pending-bit] rep 1/2, layout ") ||
	    !strstr(out, "(1 of 6)  elapsed 0:00:0") || !strstr(out, ", about 0:00:"))
		fail_msg("no progress line on the terminal:\n%s", out);
	assert_non_null(strstr(out, "rep 2/2"));
	snprintf(cmd, sizeof(cmd),
		 "script -qec \"%s run pending-bit --duration 1.5 --warmup 0.01 --reps 1 --layout "
		 "padded --max-attempts 1 --quiet --out %s/quiet.csv\" "
		 "/dev/null 2>&1",
		 bin(), test_dir);
	ran_script(out, cmd);
	assert_null(strstr(out, "rep 1/")); /* not before the configuration, nor while it runs */
	assert_null(strstr(out, "\033[K"));
	snprintf(out_path, sizeof(out_path), "%s/pipe.csv", test_dir);
	run_c2c(r, "run", "pending-bit", "--duration", "1.5", "--warmup", "0.01", "--reps", "1",
		"--layout", "padded", "--max-attempts", "1", "--out", out_path, NULL);
	assert_true(RAN(r->status));
	assert_null(strstr(r->err, "\033[K")); /* not a terminal: nothing of it */
	assert_null(strstr(r->err, "rep 1/1"));
	free(out);
	free(r);
}

/* What is left counts retries: every attempt is invalid (a drain every microsecond cannot be had,
 * tests/test_settings.c), so the first repetition takes 3 attempts, and at the start of the second
 * what is left is about 3 attempts, more than at the start of the first (2 repetitions of one
 * attempt as planned); before, it was one attempt's time. Read from the lines preset's runs write.
 */
static void eta_counts_retries(void **s)
{
	(void)s;
	char cmd[2000], *out = malloc(65536);
	snprintf(cmd, sizeof(cmd),
		 "C2C_PROGRESS_LINES=1 %s run pending-bit --duration 0.2 --warmup 0.01 --reps 2 "
		 "--layout aligned --drain-us 1 --max-attempts 3 "
		 "--out %s/eta.csv 2>&1 >/dev/null",
		 bin(), test_dir);
	assert_int_equal(sh_capture(out, 65536, cmd), 4);
	const char *a = strstr(out, "c2cbench-progress: left "),
		   *b = strstr(out, " (rep 2 of 2, attempt 1 of 3)\n");
	if (!a || !b || !strstr(a, " (rep 1 of 2, attempt 1 of 3)\n") ||
	    !strstr(out, " (rep 1 of 2, attempt 3 of 3)\n"))
		fail_msg("no progress lines for both repetitions:\n%s", out);
	while (b > out && b[-1] != ' ')
		b--;
	double first = strtod(a + strlen("c2cbench-progress: left "), NULL),
	       second = strtod(b, NULL);
	if (!(second > first) || !(first >= 0.4))
		fail_msg("left %.2f s at the first attempt, %.2f s at the second repetition's "
			 "first:\n%s",
			 first, second, out);
	free(out);
}

/* One repetition of 3 s on a terminal: the line is redrawn while it runs (about once a second, by
 * the controlling thread's wait), with the elapsed time moving on; no timing ratio is checked. */
static void progress_line_redrawn_during_a_repetition(void **s)
{
	(void)s;
	char cmd[2000], *out = malloc(65536);
	long sec[64];
	snprintf(cmd, sizeof(cmd),
		 "script -qec \"%s run pending-bit --duration 2.8 --warmup 0.2 --reps 1 --layout "
		 "padded --max-attempts 1 --out %s/long.csv\" "
		 "/dev/null 2>&1",
		 bin(), test_dir);
	ran_script(out, cmd);
	int n = elapsed_draws(out, sec, 64);
	if (n < 3 ||
	    sec[n - 1] <= sec[0]) /* the draw before it started, then at least two while it ran */
		fail_msg("%d drawing(s) of the line during one 3 s repetition, elapsed %ld s to "
			 "%ld s:\n%s",
			 n, n ? sec[0] : -1L, n ? sec[n - 1] : -1L, out);
	free(out);
}

/* The widest line of a text, in columns (bytes: the summaries are ASCII). */
static int widest(const char *t, const char **at)
{
	int w = 0;
	for (const char *p = t; *p;) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p);
		if (n > w)
			w = n, *at = p;
		p += n + (e != NULL);
	}
	return w;
}

/* Every registered bench's summary (stdout, with --out FILE) fits in 100 columns, invalid attempts
 * or not: each run with what its declaration takes (short_args), so a new bench is checked too.
 * 0.5 s windows: in an emulated 8-vCPU guest on a busy host, 0.1 s windows of shepherd's workload
 * threads did not all overlap (those attempts are invalid, rule ops; the summary still prints). */
static void summaries_fit_in_100_columns(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r));
	const char *pl = two_cpus();
	for (int i = 0; bench_at(i); i++) {
		const struct bench *b = bench_at(i);
		const char *at = "";
		for (int lenient = 0; lenient < 2;
		     lenient++) { /* as the machine judges, then every section (all valid) */
			const char *argv[40] = { "run", b->name }, *lax[] = { LENIENT };
			int n = 2;
			if (short_args(b, pl, "0.5", argv, &n)) {
				print_message("%s not run: it needs two usable CPUs\n", b->name);
				break;
			}
			snprintf(out_path, sizeof(out_path), "%s/wide-%d-%d.csv", test_dir, i,
				 lenient);
			const char *more[] = { "--reps", "2", "--max-attempts", "1", "--out",
					       out_path };
			for (size_t k = 0; lenient && k < sizeof(lax) / sizeof(lax[0]); k++)
				argv[n++] = lax[k];
			for (size_t k = 0; k < sizeof(more) / sizeof(more[0]); k++)
				argv[n++] = more[k];
			argv[n] = NULL;
			run_c2cv(r, argv);
			if (!RAN(r->status)) /* 4: the machine judged a configuration invalid
						throughout */
				fail_msg("%s: exit %d: %s", b->name, r->status, r->err);
			assert_non_null(strstr(r->out, "repetition(s) requested"));
			int w = widest(r->out, &at);
			if (w > 100)
				fail_msg("%s: a summary line of %d columns: %.*s", b->name, w, w,
					 at);
		}
	}
	free(r);
}

/* The widest line of c2cbench's output for these arguments, which must exit 0. */
static int help_width(struct cmd_result *r, const char *a, const char *b, const char *c,
		      const char **at)
{
	run_c2c(r, a, b, c, NULL);
	if (r->status != 0)
		fail_msg("c2cbench %s %s %s: status %d: %s", a, b ? b : "", c ? c : "", r->status,
			 r->err);
	return widest(r->out, at);
}

/* `c2cbench --help`, each command's --help, `run --help` and each bench's fit in 100 columns. */
static void every_help_fits_in_100_columns(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r)), *c = malloc(sizeof(*c));
	const char *at = "";
	char what[200];
	int n = 0, w;
	run_c2c(r, "--help", NULL);
	assert_int_equal(r->status, 0);
	if ((w = widest(r->out, &at)) > TEXT_WIDTH)
		fail_msg("c2cbench --help: a line of %d columns: %.*s", w, w, at);
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char cmd[64];
		if (strncmp(l, "  ", 2) || l[2] == ' ' || sscanf(l + 2, "%63s", cmd) != 1)
			continue;
		snprintf(what, sizeof(what), "%s --help", cmd);
		if (!strcmp(cmd, "slurm")) { /* its actions' own */
			if ((w = help_width(c, "slurm", "submit", "--help", &at)) > TEXT_WIDTH)
				fail_msg("slurm submit --help: a line of %d columns: %.*s", w, w,
					 at);
			if ((w = help_width(c, "slurm", "status", "--help", &at)) > TEXT_WIDTH)
				fail_msg("slurm status --help: a line of %d columns: %.*s", w, w,
					 at);
		}
		if ((w = help_width(c, cmd, "--help", NULL, &at)) > TEXT_WIDTH)
			fail_msg("%s: a line of %d columns: %.*s", what, w, w, at);
		n++;
	}
	assert_true(n >= 9);
	run_c2c(r, "list", NULL);
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char b[64];
		if (strncmp(l, "bench ", 6) || sscanf(l + 6, "%63s", b) != 1)
			continue;
		if ((w = help_width(c, "run", b, "--help", &at)) > TEXT_WIDTH)
			fail_msg("run %s --help: a line of %d columns: %.*s", b, w, w, at);
		n++;
	}
	assert_true(n >= 9 + 5);
	free(r);
	free(c);
}

/* Fails when a line of what c2cbench printed for these arguments is over 100 columns. */
static void fits(struct cmd_result *r, const char *a, const char *b, const char *c)
{
	const char *at = "";
	int w = help_width(r, a, b, c, &at);
	if (w > TEXT_WIDTH)
		fail_msg("c2cbench %s %s %s: a line of %d columns: %.*s", a, b ? b : "",
			 c ? c : "", w, w, at);
}

/* `list`, `list presets` and `list --columns` of each bench, each side table and the harness fit
 * in 100 columns: a long description or meaning is wrapped (--markdown is exempt: a table row
 * is one line); so do `events`, its --check and every PMU's rows (--all). */
static void every_listing_fits_in_100_columns(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r)), *c = malloc(sizeof(*c));
	int benches = 0, sides = 0;
	fits(r, "list", "presets", NULL);
	fits(r, "list", "--columns", "harness");
	fits(r, "events", NULL, NULL);
	fits(r, "events", "--check", NULL);
	fits(r, "events", "--all", NULL);
	fits(r, "list", NULL, NULL);
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char b[64];
		if (strncmp(l, "bench ", 6) || sscanf(l + 6, "%63s", b) != 1)
			continue;
		fits(c, "list", "--columns", b);
		benches++;
		for (char *t = c->out; (t = strstr(t, "\nside table ")); t++) {
			char name[128];
			if (sscanf(t + 12, "%127s", name) == 1) {
				struct cmd_result *side = malloc(sizeof(*side));
				fits(side, "list", "--columns", name);
				free(side);
				sides++;
			}
		}
	}
	assert_true(benches >= 5);
	assert_true(sides >= 1); /* shepherd/gaps */
	free(r);
	free(c);
}

/* The widest line of a C file in columns, tabs every 8, UTF-8 characters one each; its number in
 * *line. */
static int source_width(const char *path, int *line)
{
	FILE *f = fopen(path, "r");
	int w = 0, col = 0, n = 1, ch;
	*line = 0;
	if (!f)
		return -1;
	while ((ch = fgetc(f)) != EOF) {
		if (ch == '\n') {
			if (col > w)
				w = col, *line = n;
			col = 0, n++;
		} else if (ch == '\t')
			col = (col / 8 + 1) * 8;
		else if ((ch & 0xc0) != 0x80)
			col++;
	}
	if (col > w)
		w = col, *line = n;
	fclose(f);
	return w;
}

static int sources_seen;

/* Every .c and .h under dir whose widest line is over 100 columns, as "path:line: N columns". */
static void wide_sources(const char *dir, char *out, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[1024];
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			wide_sources(p, out, n);
			continue;
		}
		if (len < 3 ||
		    (strcmp(e->d_name + len - 2, ".c") && strcmp(e->d_name + len - 2, ".h")))
			continue;
		int line, w = source_width(p, &line);
		sources_seen++;
		if (w > TEXT_WIDTH && strlen(out) + 200 < n)
			snprintf(out + strlen(out), n - strlen(out), "%s:%d: %d columns\n", p, line,
				 w);
	}
	if (d)
		closedir(d);
}

/* No C line is over 100 columns at tab width 8 (docs/hacking.md); the measure itself counts tabs
 * to the next multiple of 8. */
static void source_lines_fit_in_100_columns(void **s)
{
	(void)s;
	const char *dirs[] = { "lib",	  "stats", "schema", "harness", "layouts", "benches",
			       "analysis", "runner", "import", "cli",	   "scripts", "tests" };
	char path[512], *wide = calloc(1, 16384);
	int line;
	snprintf(path, sizeof(path), "%s/wide.c", test_dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	/* seven tabs are 56 columns: 100, then 101 */
	fprintf(f, "int a;\n\t\t\t\t\t\t\t%*s\n\t\t\t\t\t\t\t%*s\nint b;\n", 44, "x", 45,
		"x");
	fclose(f);
	assert_int_equal(source_width(path, &line), 101);
	assert_int_equal(line, 3);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		wide_sources(dirs[i], wide, 16384);
	assert_true(sources_seen > 300); /* run from the repository root, where the sources are */
	if (wide[0])
		fail_msg("lines over 100 columns at tab width 8:\n%s", wide);
	free(wide);
}

/* deps.sh maps the Debian names to dnf's and zypper's and prints the exact command; nothing
 * installs. */
static void deps_mapping_per_manager(void **s)
{
	(void)s;
	char *out = malloc(16384);
	assert_int_equal(sh_capture(out, 16384, "bash scripts/deps.sh --print dnf"), 0);
	assert_int_equal(strncmp(out,
				 "dnf install -y gcc make pkgconf-pkg-config hwloc-devel hwloc "
				 "numactl-devel papi-devel papi libpfm-devel "
				 "libcmocka-devel inih-devel gnuplot binutils ",
				 141),
			 0);
	assert_null(strstr(out, "-dev ")); /* no Debian name left */
	assert_non_null(strstr(out, " util-linux-script zsh")); /* script(1) and zsh, for the pty
								   and completion tests */
	assert_int_equal(sh_capture(out, 16384, "bash scripts/deps.sh --print zypper"), 0);
	assert_non_null(strstr(
		out, " man groff util-linux zsh")); /* openSUSE's man-db is the package "man" */
	assert_non_null(strstr(out, "zypper install -y gcc make "));
	assert_non_null(strstr(out, " libnuma-devel "));
	assert_non_null(strstr(out, " libinih-devel "));
	assert_null(strstr(out, "-dev "));
	assert_int_equal(sh_capture(out, 16384, "bash scripts/deps.sh --print apt"), 0);
	assert_non_null(strstr(out, "apt-get install -y build-essential pkg-config libhwloc-dev "));
	assert_int_equal(
		sh_capture(out, 16384, "C2C_EXTRA_PKGS=valgrind bash scripts/deps.sh --print dnf"),
		0);
	assert_non_null(strstr(out, " valgrind"));
	assert_int_equal(sh_capture(out, 16384, "bash scripts/deps.sh --print pacman 2>&1"), 2);
	assert_non_null(strstr(out, "accepted: apt, dnf, zypper"));
	/* on a dnf system (forced here) it installs nothing and prints the command to run */
	assert_int_equal(sh_capture(out, 16384,
				    "PATH=/usr/bin:/bin C2C_PKG_MANAGER=dnf bash scripts/deps.sh "
				    "2>&1"),
			 1);
	assert_non_null(strstr(out, "so run: sudo dnf install -y "));
	/* make run / make test ask for their set only (make run not the suite's tools); a set not
	 * known is refused, installing nothing */
	assert_int_equal(sh_capture(out, 16384,
				    "PATH=/usr/bin:/bin C2C_PKG_MANAGER=dnf "
				    "bash scripts/deps.sh --need run 2>&1"),
			 1);
	assert_non_null(strstr(out, "so run: sudo dnf install -y gcc make "));
	assert_null(strstr(out, "chromium"));
	assert_int_equal(sh_capture(out, 16384, "bash scripts/deps.sh --need all 2>&1"), 2);
	assert_non_null(strstr(out, "--need 'all' is not accepted; accepted: run, test"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_help_exits_zero),
		cmocka_unit_test(help_lists_exactly_what_each_bench_takes),
		cmocka_unit_test(did_you_mean),
		cmocka_unit_test(out_dash_is_the_same_csv),
		cmocka_unit_test(progress_line_on_a_terminal_only),
		cmocka_unit_test(progress_line_redrawn_during_a_repetition),
		cmocka_unit_test(eta_counts_retries),
		cmocka_unit_test(summaries_fit_in_100_columns),
		cmocka_unit_test(every_help_fits_in_100_columns),
		cmocka_unit_test(every_listing_fits_in_100_columns),
		cmocka_unit_test(source_lines_fit_in_100_columns),
		cmocka_unit_test(deps_mapping_per_manager),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
