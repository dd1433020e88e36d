/* Presets: parsing and validation (file:line errors, exit 2), planning with skip reasons, a real
 * run. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "lib/util.h"
#include <dirent.h>
#include <ini.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* The timing rules a busy machine breaks most, relaxed (short: a metadata.txt line inih reads back
 * has at most 200 characters). A window more than 100% off still breaks its rule. */
#define LENIENT_INI "valid-oncpu = 0\nvalid-overlap = 0\nvalid-window = 1000\n"
#define LENIENT_ARGS "--valid-oncpu", "0", "--valid-overlap", "0", "--valid-window", "1000"

static char *write_ini(const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", test_dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void expect_error(const char *text, int line, const char *what)
{
	char want[600];
	struct cmd_result r;
	const char *path = write_ini("bad.ini", text);
	run_c2c(&r, "preset", path, "--dry-run", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	if (!strstr(r.err, want) || !strstr(r.err, what))
		fail_msg("expected '%s' and '%s' in: %s", want, what, r.err);
	assert_int_equal(r.out[0], 0); /* nothing planned, nothing printed */
}

static const char *valid =
	"; a comment\n"
	"[preset]\n"
	"description = two quick runs\n"
	"[defaults]\n"
	"duration = 0.05\n"
	"warmup = 0.01\n"
	"reps = 2\n"
	"max-attempts = 1\n"
	"[layouts]\n"
	"bench = pending-bit\n"
	"layout = shared,aligned\n"
	"[own]\n"
	"bench = pending-bit\n"
	"layout = aligned\n"
	"policy = rmw\n"
	"reps = 3\n";

/* Whether the plan holds phrase, its lines read as one. */
static int plan_has(const char *out, const char *phrase)
{
	char *a = one_spaced(out), *b = one_spaced(phrase);
	int has = strstr(a, b) != NULL;
	free(a);
	free(b);
	return has;
}

static void valid_preset_plans(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "preset", write_ini("ok.ini", valid), "--dry-run", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "preset ok ("));
	assert_non_null(strstr(r.out, "2 run(s), 0 skipped"));
	assert_true(plan_has(r.out, "estimated duration"));
	/* a run's own value replaces the default, once */
	assert_true(plan_has(r.out, "[own] pending-bit --duration 0.05 --warmup 0.01 --reps 3 "
				    "--max-attempts 1 --layout aligned --policy rmw"));
}

static void unknown_key(void **state)
{
	(void)state;
	expect_error("[r]\nbench = pending-bit\n\ncolour = red\n", 4,
		     "unknown key 'colour' for bench pending-bit; accepted: bench, optional, "
		     "shows, duration");
}

static void bad_values(void **state)
{
	(void)state;
	expect_error("[r]\nbench = pending-bit\nlayout = shared,shard\n", 3,
		     "--layout: 'shard' is not accepted (did you mean 'shared'?); see --help");
	expect_error("[defaults]\nreps = 0\n[r]\nbench = pending-bit\n", 2,
		     "--reps: '0' is out of range; accepted: 1..1000000 or auto");
	expect_error("[r]\nbench = pending-bit\nduration = fast\n", 3,
		     "--duration: 'fast' is not a number of seconds; accepted: > 0");
	expect_error("[r]\nbench = pending-bit\nquiet = maybe\n", 3,
		     "quiet = 'maybe' is not accepted; accepted: yes, no");
	expect_error("[r]\nbench = pending-bit\nout = x.csv\n", 3,
		     "'out' cannot be set in a preset");
	expect_error("[r]\nbench = pending-bit\npolicy = rmw\npolicy = rmw\n", 4,
		     "key 'policy' given twice");
	/* the bench's own refusal, at plan time: the mitigation with nothing to clear PENDING */
	expect_error("[r]\nbench = pending-bit\npolicy = test-then-set\n", 1,
		     "run [r]: --policy test-then-set with --drain-us 0 is not accepted");
}

/* The same grammar as the command line: empty elements, lenient numbers and bad CPU lists are
 * refused. */
static void strict_values(void **state)
{
	(void)state;
	expect_error("[r]\nbench = pending-bit\nlayout = shared,,padded\n", 3,
		     "(element 2 is empty)");
	expect_error("[r]\nbench = pending-bit\nlayout = shared,\n", 3, "(element 2 is empty)");
	expect_error("[r]\nbench = shepherd\ncheck = ,pending\n", 3, "(element 1 is empty)");
	expect_error("[r]\nbench = refill\nworker = bound,,unbound\n", 3, "(element 2 is empty)");
	expect_error("[r]\nbench = pending-bit\nevents = cycles,\n", 1, "(element 2 is empty)");
	expect_error("[r]\nbench = pending-bit\nduration = 0x1\n", 3,
		     "--duration: '0x1' is not a number of seconds");
	expect_error("[r]\nbench = pending-bit\nduration = inf\n", 3,
		     "--duration: 'inf' is not a number of seconds");
	expect_error("[r]\nbench = pending-bit\nreps = +2\n", 3,
		     "--reps: '+2' is not a whole number");
	expect_error("[r]\nbench = pending-bit\noffset-sweep = 8::64\n", 1,
		     "--offset-sweep: '8::64' is not accepted");
	expect_error("[r]\nbench = pending-bit\nplacement = cpus:-1,0\n", 1,
		     "element 1 is not a CPU number");
	expect_error("[r]\nbench = pending-bit\nmem-node = 4294967296\n", 1,
		     "--mem-node: '4294967296' is not accepted");
	/* an inline comment would cut the value silently (inih ends it at " ;"): refused */
	expect_error("[r]\nbench = pending-bit\nlayout = shared ; padded\n", 3,
		     "' ;' inside a value (inih would end the value there");
	expect_error("[preset]\ndescription = a\t; b\n[r]\nbench = pending-bit\n", 2,
		     "' ;' inside a value");
	/* a control byte in a key is printed escaped: the error stays one line */
	expect_error("[r]\nbench = pending-bit\ncolo\x01ur = red\n", 3,
		     "unknown key 'colo\\x01ur'");
	/* the unknown-key list offers only keys a preset accepts */
	struct cmd_result r;
	run_c2c(&r, "preset", write_ini("bad.ini", "[r]\nbench = pending-bit\ncolour = red\n"),
		"--dry-run", NULL);
	assert_non_null(strstr(r.err, "policy"));
	assert_null(strstr(r.err, ", out"));
	assert_null(strstr(r.err, "dry-run"));
	assert_null(strstr(r.err, "topology"));
}

/* A run switches off its [defaults] flag; pingpong takes placement in a preset as it does on run.
 */
static void defaults_flag_off_and_placement(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "preset",
		write_ini("flags.ini",
			  "[defaults]\nquiet = yes\n[a]\nbench = pending-bit\nquiet = no\n"
			  "[b]\nbench = pending-bit\n[pp]\nbench = pingpong\nplacement = "
			  "cpus:0,1\nsamples = 10\n"),
		"--dry-run", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "[a] pending-bit  ("));
	assert_non_null(strstr(r.out, "[b] pending-bit --quiet  ("));
	assert_non_null(strstr(r.out, "[pp] pingpong --quiet --placement cpus:0,1 --samples 10"));
	expect_error("[sh]\nbench = shepherd\nmem-node = 0\n", 3,
		     "bench shepherd does not take mem-node");
	expect_error("[pp]\nbench = pingpong\nduration = 1\n", 3,
		     "bench pingpong does not take duration");
	/* a [defaults] key serves the runs whose bench takes it: pingpong counts samples, not
	 * seconds */
	run_c2c(&r, "preset",
		write_ini("untimed.ini",
			  "[defaults]\nduration = 0.5\n[a]\nbench = pending-bit\n[pp]\nbench = "
			  "pingpong\nsamples = 10\n"),
		"--dry-run", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "[a] pending-bit --duration 0.5  ("));
	assert_non_null(strstr(r.out, "[pp] pingpong --samples 10  ("));
}

static void bad_structure(void **state)
{
	(void)state;
	expect_error("bench = pending-bit\n", 1, "'bench' is outside any section");
	expect_error("[r]\nbench = pending-bit\nthis line has no equals sign\n", 3,
		     "not an INI line");
	expect_error("[r]\nlayout = shared\n", 1, "run [r] has no bench key");
	expect_error("[r]\nbench = pending-bit\n[r]\nbench = pending-bit\n", 3,
		     "section [r] appears twice");
	expect_error("[preset]\ndescription = nothing\n", 2, "no runs");
	expect_error("[r]\nbench = nosuch\n", 1, "bench 'nosuch' is not in this build");
	expect_error("[a b]\nbench = pending-bit\n", 1, "run name 'a b' is not accepted");
	/* an option value the bench refuses when it prepares: the reference machine refuses it too
	 */
	expect_error("[r]\nbench = pending-bit\noffset-sweep = 0:256:8\n", 1,
		     "run [r]: --offset-sweep: '0:256:8' is not accepted");
}

/* A preset's file name reaches its result directory's name, as a run's name does: control
 * characters are refused (as slurm submit refuses them), in one line, before anything runs and
 * with no directory made. A description's BEL and OSC escapes are printed escaped (--dry-run,
 * list). */
static void names_and_descriptions_have_no_control_bytes(void **state)
{
	(void)state;
	struct cmd_result r;
	char res[600];
	snprintf(res, sizeof(res), "%s/ctl-results", test_dir);
	run_c2c(&r, "preset", write_ini("a\nb.ini", valid), "--results", res, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "the preset's name 'a\\nb' (its file name without .ini) "
				      "holds a control character"));
	assert_false(file_exists(res));
	run_c2c(&r, "preset", write_ini("t\x1b]0;x\a.ini", valid), "--dry-run", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "holds a control character"));
	assert_null(strchr(r.err, '\033'));
	/* its folder too: the path is in the plan's first line and in metadata.txt */
	const char *dirs[][2] = { { "x\x1b]0;PWN\ay", "x\\x1b]0;PWN\\x07y/ok.ini'" },
				  { "c1\xc2\x9by", "c1\\xc2\\x9by/ok.ini'" },
				  { "raw\x9by", "raw\\x9by/ok.ini'" } };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char dir[600], ini[700];
		snprintf(dir, sizeof(dir), "%s/%s", test_dir, dirs[i][0]);
		assert_int_equal(mkdir(dir, 0755), 0);
		snprintf(ini, sizeof(ini), "%s/ok.ini", dirs[i][0]);
		run_c2c(&r, "preset", write_ini(ini, valid), "--dry-run", NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, "the preset's path '"));
		assert_non_null(strstr(r.err, dirs[i][1]));
		assert_non_null(strstr(r.err, " holds a control character; accepted: printable "
					      "text"));
		assert_null(strchr(r.err, '\033'));
		unlink(write_ini(ini, ""));
		rmdir(dir);
	}
	/* a description's C0 and C1 controls escaped (a raw 0x9b is CSI, as is U+009B); ± kept */
	const char *esc = "[preset]\ndescription = ring\a \x1b]0;title\a\x1b[31mred \x9b"
			  "2J \xc2\x9b" "2J \xc2\x9d" "0;t \xc2\xb1\n[r]\nbench = pending-bit\n";
	const char *shown = "ring\\x07 \\x1b]0;title\\x07\\x1b[31mred \\x9b2J \\xc2\\x9b2J "
			    "\\xc2\\x9d0;t \xc2\xb1";
	char want[300];
	run_c2c(&r, "preset", write_ini("esc.ini", esc), "--dry-run", NULL);
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "  %s\n", shown);
	assert_non_null(strstr(r.out, want));
	assert_null(strchr(r.out, '\033'));
	assert_null(strchr(r.out, '\a'));
	assert_null(strstr(r.out, "red \x9b"));
	assert_null(strstr(r.out, "\xc2\x9b"));
	assert_null(strstr(r.out, "\xc2\x9d"));
	char saved[600]; /* the group's own path: presets/ of the tree, not beside every binary */
	snprintf(saved, sizeof(saved), "%s",
		 getenv("C2C_PRESET_PATH") ? getenv("C2C_PRESET_PATH") : "");
	setenv("C2C_PRESET_PATH", test_dir, 1); /* list: the names and descriptions found there */
	run_c2c(&r, "list", NULL);
	setenv("C2C_PRESET_PATH", saved, 1);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "preset     esc            ring\\x07 \\x1b]0;title"));
	/* the line wraps at 100 columns: each word on its own */
	assert_non_null(strstr(r.out, " \\x9b2J"));
	assert_non_null(strstr(r.out, " \\xc2\\x9b2J"));
	assert_non_null(strstr(r.out, " \\xc2\\x9d0;t"));
	assert_null(strstr(r.out, "red \x9b"));
	assert_null(strstr(r.out, "\xc2\x9b"));
	assert_null(strstr(r.out, "\xc2\x9d"));
	assert_non_null(strstr(r.out, "preset     a\\nb "));
	assert_null(strchr(r.out, '\033'));
	assert_null(strchr(r.out, '\a'));
	const char *made[] = { "a\nb.ini", "t\x1b]0;x\a.ini", "esc.ini" };
	for (size_t i = 0; i < ARRAY_SIZE(made); i++)
		unlink(write_ini(made[i], ""));
}

static void missing_file(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "preset", "/nonexistent/dir/p.ini", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "/nonexistent/dir/p.ini: cannot open the preset"));
	run_c2c(&r, "preset", "no-such-preset", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "preset 'no-such-preset' not found"));
	assert_non_null(strstr(r.err, "see c2cbench list presets"));
	run_c2c(&r, "preset", "quik", NULL); /* a typo: its closest */
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "preset 'quik' not found (did you mean 'quick'?)"));
}

static void optional_bench_is_skipped_with_reason(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "preset",
		write_ini("opt.ini",
			  "[a]\nbench = pending-bit\nreps = 1\n[b]\nbench = nosuch\noptional = "
			  "yes\ncheck = x\n"),
		"--dry-run", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 run(s), 1 skipped"));
	assert_non_null(strstr(r.out, "skipped: bench 'nosuch' is not in this build"));
}

static void machine_limits_are_skipped_not_disguised(void **state)
{
	(void)state;
	struct cmd_result r;
	const char *p = write_ini("x.ini",
				  "[cross]\nbench = pending-bit\nplacement = "
				  "cross-socket\n[same]\nbench = pending-bit\nplacement = "
				  "same-socket\n");
	run_c2c(&r, "preset", p, "--dry-run", "--topology", "synthetic:pack:1 core:4 pu:1", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 run(s), 1 skipped"));
	assert_non_null(
	    strstr(r.out, "skipped: placement cross-socket needs allowed cores on 2 packages"));
	run_c2c(&r, "preset", p, "--dry-run", "--topology", "synthetic:pack:2 numa:1 core:4 pu:1",
		NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "2 run(s), 0 skipped"));
	run_c2c(&r, "preset", p, "--topology", "synthetic:pack:2 core:4 pu:1", NULL);
	assert_int_equal(r.status, 2); /* a foreign topology only plans */
}

static int count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The widest line of s, in bytes (the plans are ASCII). */
static int widest(const char *s)
{
	int w = 0;
	for (const char *p = s; *p;) {
		int n = (int)strcspn(p, "\n");
		w = n > w ? n : w;
		p += n + (p[n] == '\n');
	}
	return w;
}

/* Every shipped preset loads, every skip says why, and every line of its plan fits 100 columns,
 * with runs skipped (this machine) and planned (a two-package machine). */
static void shipped_presets_load(void **state)
{
	(void)state;
	struct cmd_result r;
	const char *names[] = { "quick", "seeds", "sweep", "two-socket" };
	for (int i = 0; i < 4; i++) {
		run_c2c(&r, "preset", names[i], "--dry-run", NULL);
		if (r.status != 0)
			fail_msg("preset %s: %s", names[i], r.err);
		assert_int_equal(count(r.out, "  skip  ["),
				 count(r.out, "skipped: ")); /* every skip says why */
		assert_in_range(widest(r.out), 1, 100);
	}
	run_c2c(&r, "preset", "two-socket", "--dry-run", "--topology",
		"synthetic:pack:2 numa:1 core:8 pu:2", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "17 run(s), 0 skipped"));
	assert_in_range(widest(r.out), 1, 100);
	run_c2c(&r, "preset", "sweep", "--dry-run", NULL);
	assert_non_null(strstr(r.out, "--offset-sweep 8:256:8"));
	run_c2c(&r, "list", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "preset     quick"));
	assert_non_null(strstr(r.out, "preset     two-socket"));
}

/* A key of one section of an INI file, read with inih. */
struct ini_key {
	const char *section, *key;
	char value[128];
	int sections; /* run sections seen (not preset, not defaults), and with a shows key */
	int with_shows;
	char last[64];
	char missing[256]; /* run sections without a shows key */
};

static int ini_key_cb(void *user, const char *section, const char *name, const char *value)
{
	struct ini_key *k = user;
	if (strcmp(section, "preset") && strcmp(section, "defaults") && strcmp(section, k->last)) {
		snprintf(k->last, sizeof(k->last), "%s", section);
		k->sections++;
	}
	if (!strcmp(name, "shows"))
		k->with_shows++;
	if (k->section && !strcmp(section, k->section) && !strcmp(name, k->key))
		snprintf(k->value, sizeof(k->value), "%s", value);
	return 1;
}

static const char *ini_value(const char *path, const char *section, const char *key)
{
	static struct ini_key k;
	memset(&k, 0, sizeof(k));
	k.section = section;
	k.key = key;
	assert_int_equal(ini_parse(path, ini_key_cb, &k), 0);
	return k.value;
}

/* Every entry of every preset in presets/ declares what it can show, with a value the parser
 * accepts, and `list presets` prints it beside the entry; a bad or repeated value is refused. */
static void every_shipped_entry_says_what_it_shows(void **state)
{
	(void)state;
	struct cmd_result r;
	DIR *d = opendir("presets");
	assert_non_null(d);
	int files = 0;
	run_c2c(&r, "list", "presets", NULL);
	assert_int_equal(r.status, 0);
	char *listing = strdup(r.out);
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".ini"))
			continue;
		char path[512], name[256];
		snprintf(path, sizeof(path), "presets/%s", e->d_name);
		snprintf(name, sizeof(name), "preset     %.*s ", (int)(l - 4), e->d_name);
		struct ini_key k = { 0 };
		assert_int_equal(ini_parse(path, ini_key_cb, &k), 0);
		if (k.sections == 0 || k.with_shows != k.sections)
			fail_msg("%s: %d run section(s), %d with a shows key", path, k.sections,
				 k.with_shows);
		files++;
		const char *p = strstr(listing, name);
		assert_non_null(p);
		/* as many declared entries beneath the preset's line as it has runs */
		int n = 0;
		const char *q = strchr(p, '\n') + 1;
		while (!strncmp(q, "           ", 11)) /* the description's wrapped lines */
			q = strchr(q, '\n') + 1;
		for (; !strncmp(q, "  entry ", 8); q = strchr(q, '\n') + 1) {
			const char *nl = strchr(q, '\n');
			const char *sh = strstr(q, "shows: ");
			assert_true(sh && sh < nl);
			sh += 7;
			assert_true(!strncmp(sh, "seed\n", 5) || !strncmp(sh, "mechanism\n", 10) ||
				    !strncmp(sh, "control\n", 8) || !strncmp(sh, "baseline\n", 9));
			n++;
		}
		assert_int_equal(n, k.sections);
	}
	closedir(d);
	assert_true(files >= 4);
	assert_non_null(strstr(listing, "shows: control "));
	free(listing);
	expect_error(
		"[r]\nbench = pending-bit\nshows = maybe\n", 3,
		"shows = 'maybe' is not accepted; accepted: seed, mechanism, control, baseline");
	expect_error("[r]\nbench = pending-bit\nshows = seed\nshows = control\n", 4,
		     "key 'shows' given twice in [r]");
	/* a user's preset may leave it out: the listing says so */
	run_c2c(&r, "preset", write_ini("plain.ini", valid), "--dry-run", NULL);
	assert_int_equal(r.status, 0);
}

/* The seed entries of vmalloc run the seed's own setting: its 16 workers, spread, at its lazy_max
 * (fls(32) x 8192), in the seeds preset and in two-socket; on a smaller machine they are skipped
 * with the reason. */
static void vmalloc_seed_entries_are_the_seeds_setting(void **state)
{
	(void)state;
	const char *const where[][2] = { { "presets/seeds.ini", "vmalloc" },
					 { "presets/two-socket.ini", "vmalloc-16-workers" } };
	for (int i = 0; i < 2; i++) {
		assert_string_equal(ini_value(where[i][0], where[i][1], "shows"), "seed");
		assert_string_equal(ini_value(where[i][0], where[i][1], "threads"), "16");
		assert_string_equal(ini_value(where[i][0], where[i][1], "lazy-max"), "49152");
		assert_string_equal(ini_value(where[i][0], where[i][1], "placement"), "spread");
	}
	assert_string_equal(ini_value("presets/seeds.ini", "vmalloc-2-workers", "shows"),
			    "control");
	assert_string_equal(ini_value("presets/seeds.ini", "vmalloc-lazy-max-1", "shows"),
			    "mechanism");
	struct cmd_result r;
	run_c2c(&r, "preset", "seeds", "--dry-run", "--topology", "synthetic:pack:1 core:2 pu:1",
		NULL);
	assert_int_equal(r.status, 0);
	const char *sk = strstr(r.out, "  skip  [vmalloc] ");
	assert_non_null(sk);
	assert_non_null(strstr(sk, "skipped: placement spread needs 16 allowed cores"));
	run_c2c(&r, "preset", "seeds", "--dry-run", "--topology",
		"synthetic:pack:2 numa:1 core:8 pu:2", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "  skip  [vmalloc] "));
}

static char *only_entry(const char *parent)
{
	DIR *d = opendir(parent);
	assert_non_null(d);
	char *name = NULL;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.') {
			assert_null(name);
			name = strdup(e->d_name);
		}
	closedir(d);
	assert_non_null(name);
	return name;
}

/* What a test reads back from metadata.txt with inih. */
struct ini_seen {
	char state[64], status_layouts[64];
	int runs;
};

static int ini_count(void *user, const char *section, const char *name, const char *value)
{
	struct ini_seen *s = user;
	if (!strcmp(section, "preset") && !strcmp(name, "state"))
		snprintf(s->state, sizeof(s->state), "%s", value);
	if (!strcmp(section, "run layouts") && !strcmp(name, "status"))
		snprintf(s->status_layouts, sizeof(s->status_layouts), "%s", value);
	s->runs += !strncmp(section, "run ", 4) && !strcmp(name, "command");
	return 1;
}

static void run_writes_one_directory(void **state)
{
	(void)state;
	struct cmd_result r;
	char res[600], run[1200], f[1400];
	snprintf(res, sizeof(res), "%s/results", test_dir);
	/* as in a Slurm task whose environment holds escapes: recorded in metadata.txt escaped */
	const char *slurm[][2] = { { "SLURM_JOB_ID", "7\x1b]0;PWN\a" },
				   { "SLURMD_NODENAME", "n\xc2\x9b" "1\nslurm_node = forged" },
				   { "SLURM_JOB_PARTITION", "p\x9bq;x" },
				   { "SLURM_ARRAY_TASK_ID", "3" } };
	for (size_t i = 0; i < ARRAY_SIZE(slurm); i++)
		setenv(slurm[i][0], slurm[i][1], 1);
	/* relaxed: on a busy machine still valid */
	run_c2c(&r, "preset", write_ini("tiny.ini", valid), "--results", res, LENIENT_ARGS, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(slurm); i++)
		unsetenv(slurm[i][0]);
	if (!RAN(r.status)) /* 4: a run measured nothing (a loaded host); its directory the same */
		fail_msg("preset run failed: %s", r.err);
	assert_null(strstr(r.err, "c2cbench-progress")); /* the runs' progress lines: read */
	assert_true(plan_has(r.out, "estimated duration"));
	/* stderr is not a terminal here: one summary line per run, ok or measured nothing */
	const char *runs[] = { "layouts", "own" };
	int rows[] = { 4, 3 }, nothing = 0, layouts_ok = 0;
	for (int i = 0; i < 2; i++) {
		char ok[96], none[96];
		snprintf(ok, sizeof(ok), "[run %d of 2] %s: ok, %d row(s)", i + 1, runs[i],
			 rows[i]);
		snprintf(none, sizeof(none), "[run %d of 2] %s: measured nothing, %d row(s)", i + 1,
			 runs[i], rows[i]);
		if (!strstr(r.err, ok) && !strstr(r.err, none))
			fail_msg("neither '%s' nor '%s' in: %s", ok, none, r.err);
		nothing += strstr(r.err, ok) == NULL;
		layouts_ok += !i && strstr(r.err, ok);
	}
	assert_int_equal(r.status, nothing ? 4 : 0);
	snprintf(f, sizeof(f), "preset tiny: 2 run(s), 0 failed, %d measured nothing; results in ",
		 nothing);
	assert_non_null(strstr(r.out, f));
	char *name = only_entry(res);
	assert_non_null(strstr(name, "-tiny"));
	snprintf(run, sizeof(run), "%s/%s", res, name);
	free(name);
	snprintf(f, sizeof(f), "%s/01-layouts.csv", run);
	char *csv = slurp(f);
	assert_non_null(csv);
	assert_int_equal(count_lines(csv), 1 + 4);
	free(csv);
	snprintf(f, sizeof(f), "%s/02-own.csv", run);
	assert_true(file_exists(f));
	snprintf(f, sizeof(f), "%s/metadata.txt", run);
	char *meta = slurp(f);
	assert_non_null(meta);
	assert_non_null(strstr(meta, "[c2cbench]\nversion = "));
	assert_non_null(strstr(meta, "\nstate = finished\n"));
	assert_non_null(strstr(meta, "\ncpu_model = "));
	assert_non_null(strstr(meta, "\n[run layouts]\ncommand = c2cbench run pending-bit"));
	/* the validity options given to preset: recorded, and in every run's command */
	assert_non_null(strstr(
		meta, "\nvalidity = --valid-window 1000 --valid-oncpu 0 --valid-overlap 0\n"));
	assert_non_null(strstr(meta,
			       "--reps 3 --max-attempts 1 --layout aligned --policy "
			       "rmw --valid-window 1000 --valid-oncpu 0 --valid-overlap 0\n"));
	/* the Slurm values: one line each, ESC, BEL and C1 escaped, ";" made "," as elsewhere */
	assert_non_null(strstr(meta, "\n[slurm]\nslurm_array_task_id = 3\n"));
	assert_non_null(strstr(meta, "\nslurm_task_job_id = 7\\x1b]0,PWN\\x07\n"));
	assert_non_null(strstr(meta, "\nslurm_node = n\\xc2\\x9b1 slurm_node = forged\n"));
	assert_non_null(strstr(meta, "\nslurm_partition = p\\x9bq,x\n"));
	assert_null(strchr(meta, '\033'));
	assert_null(strchr(meta, '\a'));
	assert_null(strstr(meta, "\xc2\x9b"));
	assert_null(strstr(meta, "p\x9b"));
	free(meta);
	struct ini_seen seen = { 0 };
	assert_int_equal(ini_parse(f, ini_count, &seen),
			 0); /* INI that inih reads back, as every .meta */
	assert_string_equal(seen.state, "finished");
	assert_string_equal(seen.status_layouts, layouts_ok ? "complete" : "measured nothing");
	assert_int_equal(seen.runs, 2);
	snprintf(f, sizeof(f), "%s/preset.ini", run);
	char *text = slurp(f);
	assert_non_null(text);
	assert_non_null(strstr(text, "; a comment\n[preset]\n")); /* the preset text, verbatim */
	free(text);
	snprintf(f, sizeof(f), "%s/console.log", run);
	char *log = slurp(f);
	assert_non_null(log);
	assert_non_null(strstr(log, "[run 2 of 2] own: ok"));
	assert_non_null(strstr(log, "writer_ns_per_op")); /* the runs' own summaries */
	assert_non_null(strstr(log, "c2cbench: 4 row(s) written to ")); /* their stderr */
	assert_null(strstr(log, "c2cbench-progress"));
	free(log);
}

/* Run b is long enough to be interrupted in its middle; durations are tiny so the test takes
 * seconds. */
static const char *resumable =
	"[defaults]\n"
	"duration = 0.03\n"
	"warmup = 0.01\n"
	"max-attempts = 1\n"
	LENIENT_INI /* relaxed rules; a thread that did not run still makes exit 4 (RAN) */
	"[a]\n"
	"bench = pending-bit\n"
	"layout = shared,aligned\n"
	"reps = 2\n"
	"[b]\n"
	"bench = pending-bit\n"
	"layout = shared,aligned,padded\n"
	"reps = 12\n"
	"[c]\n"
	"bench = pending-bit\n"
	"layout = aligned\n"
	"reps = 2\n";

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows are written in a shuffled order: compare sets, not sequences. */
static char *sort_lines(char *text)
{
	char *line[4096], *save = NULL, *sorted = calloc(strlen(text) + 2, 1);
	int n = 0;
	for (char *l = strtok_r(text, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save))
		line[n++] = l;
	qsort(line, (size_t)n, sizeof(char *), by_str);
	for (int i = 0; i < n; i++)
		strcat(strcat(sorted, line[i]), "\n");
	free(text);
	return sorted;
}

/* The configurations a run directory holds: "FILE bench layout rep" per row of every CSV directly
 * in it, sorted. */
static char *configurations(const char *run)
{
	struct dirent **e;
	int n = scandir(run, &e, NULL, alphasort);
	assert_true(n > 0);
	size_t cap = 1 << 16, k = 0;
	char *out = calloc(cap, 1), err[ERRLEN], path[1400];
	for (int i = 0; i < n; i++) {
		size_t l = strlen(e[i]->d_name);
		if (l > 4 && !strcmp(e[i]->d_name + l - 4, ".csv")) {
			struct table t;
			snprintf(path, sizeof(path), "%s/%s", run, e[i]->d_name);
			if (table_read(&t, path, err))
				fail_msg("%s", err);
			for (long r = 0; r < t.nrows && k + 200 < cap; r++)
				k += (size_t)snprintf(out + k, cap - k, "%s %s %s %s\n",
						      e[i]->d_name, table_get(&t, r, "bench"),
						      table_get(&t, r, "layout"),
						      table_get(&t, r, "rep"));
			table_free(&t);
		}
		free(e[i]);
	}
	free(e);
	return sort_lines(out);
}

static int lines_in(const char *path)
{
	char *t = slurp(path);
	int n = t ? count_lines(t) : 0;
	free(t);
	return n;
}

static char *run_dir_in(const char *res)
{
	char *name = only_entry(res), *run = malloc(1200);
	snprintf(run, 1200, "%s/%s", res, name);
	free(name);
	return run;
}

static void file_has(const char *dirpath, const char *file, const char *what)
{
	char f[1400];
	snprintf(f, sizeof(f), "%s/%s", dirpath, file);
	char *t = slurp(f);
	assert_non_null(t);
	if (!strstr(t, what))
		fail_msg("'%s' not in %s", what, f);
	free(t);
}

/* Replace the line starting with key in metadata.txt (a copy of the original is returned to
 * restore). */
static char *edit_metadata(const char *run, const char *key, const char *line)
{
	char f[1400];
	snprintf(f, sizeof(f), "%s/metadata.txt", run);
	char *orig = slurp(f), *p = strstr(orig, key);
	assert_non_null(p);
	FILE *o = fopen(f, "w");
	fprintf(o, "%.*s%s%s", (int)(p - orig), orig, line, strchr(p, '\n'));
	fclose(o);
	return orig;
}

static void restore(const char *run, char *orig)
{
	char f[1400];
	snprintf(f, sizeof(f), "%s/metadata.txt", run);
	FILE *o = fopen(f, "w");
	fputs(orig, o);
	fclose(o);
	free(orig);
}

static void refused(const char *ini, const char *run, const char *what)
{
	struct cmd_result r;
	run_c2c(&r, "preset", ini, "--resume", run, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	if (!strstr(r.err, what))
		fail_msg("expected '%s' in: %s", what, r.err);
}

/* kill PID (not the process group): the preset must stop its child run itself, mark the directory
 * interrupted, and exit 130; --resume then completes the same set of configurations as one run. */
static void resume_after_interrupt_gives_same_configurations(void **state)
{
	(void)state;
	struct cmd_result r;
	char full[600], cut[600], b[1400], *ini = strdup(write_ini("resumable.ini", resumable));
	snprintf(full, sizeof(full), "%s/full", test_dir);
	snprintf(cut, sizeof(cut), "%s/cut", test_dir);
	run_c2c(&r, "preset", ini, "--results", full, NULL);
	if (!RAN(r.status))
		fail_msg("uninterrupted preset failed: %s", r.err);
	char *full_run = run_dir_in(full);

	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execl(bin, bin, "preset", ini, "--results", cut, (char *)NULL);
		_exit(127);
	}
	int waited = 0, st;
	for (; waited < 2400; waited++) { /* until run b has written a row (120 s at most) */
		struct timespec ts = { 0, 50000000 };
		DIR *d = opendir(cut);
		if (d) {
			for (struct dirent *e; (e = readdir(d));)
				if (e->d_name[0] != '.')
					snprintf(b, sizeof(b), "%s/%s/02-b.csv", cut, e->d_name);
			closedir(d);
			if (lines_in(b) >= 2)
				break;
		}
		nanosleep(&ts, NULL);
	}
	assert_true(waited < 2400); /* 20 s was too few in a 4-vCPU TCG guest at load 6 */
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	char *cut_run = run_dir_in(cut);
	file_has(cut_run, "metadata.txt", "\nstate = interrupted\n");
	file_has(cut_run, "metadata.txt", "\n[run b]\ncommand = c2cbench run pending-bit ");
	file_has(cut_run, "metadata.txt", "\nstatus = interrupted\nexit = 130\n");
	file_has(cut_run, "metadata.txt", "\n[run c]\ncommand = c2cbench run pending-bit ");
	file_has(cut_run, "metadata.txt", "\ncsv = 03-c.csv\nstatus = not run yet\n");
	file_has(cut_run, "02-b.meta", "\n[run]\nstatus = interrupted\n");
	file_has(cut_run, "01-a.meta", "\n[run]\nstatus = complete\n");
	int cut_rows = lines_in(b) - 1;
	assert_true(cut_rows >= 1 && cut_rows < 36);

	/* refusals: another preset, another schema version, another machine; nothing is touched */
	char *other = strdup(write_ini("other.ini", resumable));
	refused(other, cut_run, "made by preset 'resumable', not 'other'");
	free(other);
	char *orig = edit_metadata(cut_run, "schema_version = ", "schema_version = 999");
	refused(ini, cut_run, "schema_version 999");
	restore(cut_run, orig);
	orig = edit_metadata(cut_run, "host = ", "host = some-other-host");
	refused(ini, cut_run, "made on another machine (host 'some-other-host'");
	restore(cut_run, orig);
	orig = edit_metadata(cut_run, "cores = ", "cores = 96");
	refused(ini, cut_run, "made on another machine (cores '96'");
	restore(cut_run, orig);
	refused(ini, test_dir, "not a preset run directory");
	run_c2c(&r, "preset", ini, "--resume", cut_run, "--label", "another-label", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "made under --label "));
	char old[700];
	snprintf(old, sizeof(old), "%s/old-format", test_dir);
	mkdir(old, 0755);
	snprintf(b, sizeof(b), "%s/metadata.txt", old);
	FILE *of = fopen(b, "w");
	fputs("c2cbench_version: 0.1.0\npreset: resumable\nschema_version: 1\n",
	      of); /* an older c2cbench's format */
	fclose(of);
	refused(ini, old, "made by an older c2cbench (its metadata.txt is not INI)");
	snprintf(b, sizeof(b), "%s/%s/02-b.csv", cut, strrchr(cut_run, '/') + 1);
	assert_int_equal(lines_in(b) - 1, cut_rows);

	run_c2c(&r, "preset", ini, "--resume", cut_run, NULL);
	if (!RAN(r.status))
		fail_msg("resume failed: %s", r.err);
	assert_non_null(strstr(r.err, "[run 1 of 3] a: complete in "));
	assert_null(strstr(r.err, "[run 1 of 3] a\n")); /* run a was not run again */
	file_has(cut_run, "metadata.txt", "\nstate = finished\n");
	file_has(cut_run, "metadata.txt", "\nresumed = ");
	file_has(cut_run, "interrupted/02-b-1.meta",
		 "status = interrupted"); /* the cut run, kept apart */
	/* its column declaration with it, and the rerun's own beside the new CSV */
	file_has(cut_run, "interrupted/02-b-1.columns", "column,declared_as,kind,");
	file_has(cut_run, "02-b.columns", "column,declared_as,kind,");
	char *want = configurations(full_run), *got = configurations(cut_run);
	assert_string_equal(got, want);
	assert_int_equal(count_lines(want), 4 + 36 + 2);
	free(want);
	free(got);
	free(full_run);
	free(cut_run);
	free(ini);
}

/* A .meta that says complete while its CSV lost rows is not kept by --resume: the run goes again.
 */
static void resume_checks_rows_against_meta(void **state)
{
	(void)state;
	char res[600], csv[1400], cmd[1600];
	struct cmd_result r;
	const char *ini = write_ini(
		"rows.ini", "[a]\nbench = pending-bit\nlayout = shared,aligned\nduration = "
			    "0.02\nwarmup = 0.01\nreps = 2\nmax-attempts = 1\n" LENIENT_INI);
	snprintf(res, sizeof(res), "%s/rows-res", test_dir);
	mkdir(res, 0755);
	run_c2c(&r, "preset", ini, "--results", res, NULL);
	assert_true(RAN(r.status));
	char *run = run_dir_in(res);
	snprintf(csv, sizeof(csv), "%s/01-a.csv", run);
	assert_int_equal(lines_in(csv), 5);
	/* other validity options than the directory's runs were given: refused, nothing moved */
	run_c2c(&r, "preset", ini, "--resume", run, "--valid-oncpu", "10", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "its runs were given 'no validity option', this invocation "
				      "'--valid-oncpu 10'; accepted: the same --max-attempts and"));
	assert_int_equal(lines_in(csv), 5);
	snprintf(cmd, sizeof(cmd), "sed -i '$d' '%s'",
		 csv); /* the last row is lost; the .meta still says complete, 4 rows */
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "preset", ini, "--resume", run, NULL);
	assert_true(RAN(r.status));
	assert_non_null(strstr(r.err,
			       "its .meta says complete with 4 row(s) but 01-a.csv has 3 whole "
			       "row(s); it runs again"));
	assert_int_equal(lines_in(csv), 5);
	snprintf(cmd, sizeof(cmd), "%s/interrupted/01-a-1.csv", run);
	assert_int_equal(lines_in(cmd), 4); /* what was there is set aside, not deleted */
	/* a last row cut inside its last field (no newline) is not whole either */
	snprintf(cmd, sizeof(cmd), "truncate -s -3 '%s'", csv);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "preset", ini, "--resume", run, NULL);
	assert_true(RAN(r.status));
	/* the reader's word */
	if (!strstr(r.err, "01-a.csv has 3 whole row(s), then: 01-a.csv:5: "))
		fail_msg("a cut last row, not named so: %s", r.err);
	assert_int_equal(lines_in(csv), 5);
	free(run);
}

/* --resume keeps a complete CSV only when it is this run's, made here: one whose .meta or rows name
 * another machine (a CSV dropped in from elsewhere) is set aside with a warning and run again; and
 * a directory another preset holds (flock) is refused before anything in it is moved. */
static void resume_keeps_only_its_own(void **state)
{
	(void)state;
	char res[600], csv[1400], meta[1400], cmd[3200], fp[64] = "";
	struct cmd_result r;
	const char *ini = write_ini(
		"own.ini", "[a]\nbench = pending-bit\nlayout = shared\nduration = "
			   "0.02\nwarmup = 0.01\nreps = 1\nmax-attempts = 1\n" LENIENT_INI);
	snprintf(res, sizeof(res), "%s/own-res", test_dir);
	mkdir(res, 0755);
	run_c2c(&r, "preset", ini, "--results", res, NULL);
	assert_true(RAN(r.status));
	char *run = run_dir_in(res);
	snprintf(csv, sizeof(csv), "%s/01-a.csv", run);
	snprintf(meta, sizeof(meta), "%s/01-a.meta", run);
	run_c2c(&r, "preset", ini, "--resume", run, NULL); /* its own: kept, nothing runs again */
	assert_true(RAN(r.status));
	assert_null(strstr(r.err, "runs again"));
	snprintf(cmd, sizeof(cmd), "sed -n 's/^fingerprint = //p' '%s'", meta);
	sh_capture(fp, sizeof(fp), cmd);
	fp[strcspn(fp, "\n")] = 0;
	assert_int_equal((int)strlen(fp), 12);
	/* the rows name another machine, the .meta this one */
	snprintf(cmd, sizeof(cmd), "sed -i 's/,%s,/,0123456789ab,/' '%s'", fp, csv);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "preset", ini, "--resume", run, NULL);
	assert_true(RAN(r.status));
	if (!strstr(r.err, "01-a.csv:2 is another machine's ('0123456789ab', here '") ||
	    !strstr(r.err, "it runs again"))
		fail_msg("kept a CSV of another machine: %s", r.err);
	snprintf(cmd, sizeof(cmd), "%s/interrupted/01-a-1.csv", run);
	assert_true(file_exists(cmd)); /* set aside, never deleted */
	assert_int_equal(lines_in(csv), 2); /* run again here */
	/* both name another machine (a whole result dropped in from elsewhere) */
	snprintf(cmd, sizeof(cmd), "sed -i 's/%s/0123456789ab/' '%s' '%s'", fp, csv, meta);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "preset", ini, "--resume", run, NULL);
	assert_true(RAN(r.status));
	assert_non_null(strstr(r.err, "01-a.csv is another machine's or run's (.meta fingerprint "
				      "'0123456789ab', here '"));
	snprintf(cmd, sizeof(cmd), "%s/interrupted/01-a-2.csv", run);
	assert_true(file_exists(cmd));
	/* another preset holds the directory: refused, nothing moved */
	int fd = open(run, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	run_c2c(&r, "preset", ini, "--resume", run, NULL);
	close(fd);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "another c2cbench preset is running in it (it is locked); "
				      "accepted: one c2cbench preset"));
	/* a .meta that is a FIFO (no writer) is not waited on: the run is not kept, it runs again
	 */
	unlink(meta);
	assert_int_equal(mkfifo(meta, 0644), 0);
	char out[4096];
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	snprintf(cmd, sizeof(cmd),
		 "timeout 60 '%s' preset '%s' --resume '%s' >/dev/null 2>&1; echo $?", bin, ini,
		 run);
	sh_capture(out, sizeof(out), cmd);
	if (atoi(out) != 0 && atoi(out) != 4)
		fail_msg("--resume with a FIFO .meta: status %s (124: hung)", out);
	struct stat st;
	assert_int_equal(stat(meta, &st), 0);
	assert_true(S_ISREG(st.st_mode)); /* the run's own .meta now; the FIFO set aside */
	free(run);
}

static int setup(void **state)
{
	(void)state;
	char cwd[400], p[512];
	test_dir_setup(NULL);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(p, sizeof(p), "%s/presets", cwd);
	setenv("C2C_PRESET_PATH", p, 1);
	return 0;
}

/* A drain every microsecond cannot be achieved (tests/test_settings.c): with every other rule off,
 * each attempt is invalid by rule setting. The preset's end names the run, its configuration and
 * the rule in words, and it exits 4; metadata.txt records the options preset gave to every run.
 * A validity option out of range is bad input, as for run. */
static void preset_that_measured_nothing_says_so(void **state)
{
	(void)state;
	struct cmd_result r;
	char res[600], f[1400];
	const char *ini = write_ini(
		"nothing.ini",
		"[defaults]\nduration = 0.05\nwarmup = 0.01\nreps = 1\nmax-attempts = 1\n"
		"[drain]\nbench = pending-bit\nlayout = aligned\ndrain-us = 1\nvalid-oncpu = 0\n");
	run_c2c(&r, "preset", ini, "--dry-run", "--valid-oncpu", "101", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(
		strstr(r.err, "--valid-oncpu: '101' is out of range; accepted: 0..100"));
	snprintf(res, sizeof(res), "%s/nothing-res", test_dir);
	run_c2c(&r, "preset", ini, "--results", res, "--valid-overlap", "0", "--valid-window",
		"100", "--valid-steal", "100", "--valid-probe", "1000", "--max-attempts", "2",
		NULL);
	if (r.status != 4)
		fail_msg("exit %d, not 4: %s", r.status, r.err);
	assert_non_null(strstr(
		r.out, "preset nothing: 1 run(s), 0 failed, 1 measured nothing; results in "));
	assert_non_null(strstr(r.err, "[run 1 of 1] drain: measured nothing, 2 row(s)"));
	char *err = one_spaced(r.err); /* its lines read as one */
	const char *end = strstr(err, "c2cbench: measured nothing in 1 of 1 run(s): a "
				      "configuration got no valid repetition "
				      "[drain] 1 of 1 configuration(s) of pending-bit got no "
				      "valid repetition: layout aligned why: in ");
	if (!end || !strstr(end, "--max-attempts 4 (now 2) ") ||
	    !strstr(end, "gives them to every run; exit status 4"))
		fail_msg("no measured-nothing end in: %s", r.err);
	char *run = run_dir_in(res);
	snprintf(f, sizeof(f), "%s/01-drain.csv", run);
	/* the run's own lines, relayed: the rule named is the one most of its rows' reasons name
	 * (setting, by the drain, unless the machine is so busy that others break as often) */
	if (!strcmp(check_measured_nothing(r.err, f, "layout aligned"), "setting"))
		assert_non_null(strstr(end, "achieved settings (drain period first) were "));
	free(err);
	snprintf(f, sizeof(f), "%s/metadata.txt", run);
	char *meta = slurp(f);
	assert_non_null(meta);
	assert_non_null(strstr(meta, "\nstate = finished\n")); /* every run ended */
	assert_non_null(strstr(meta, "\nvalidity = --max-attempts 2 --valid-window 100 "
				     "--valid-overlap 0 --valid-steal 100 --valid-probe 1000\n"));
	assert_non_null(strstr(meta, "--max-attempts 2 --layout aligned --drain-us 1 --valid-oncpu "
				     "0 --valid-window 100"));
	assert_non_null(strstr(meta, "\nstatus = measured nothing\nexit = 4\nrows = 2\n"));
	free(meta);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_preset_plans),
		cmocka_unit_test(unknown_key),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(strict_values),
		cmocka_unit_test(defaults_flag_off_and_placement),
		cmocka_unit_test(bad_structure),
		cmocka_unit_test(names_and_descriptions_have_no_control_bytes),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(optional_bench_is_skipped_with_reason),
		cmocka_unit_test(machine_limits_are_skipped_not_disguised),
		cmocka_unit_test(shipped_presets_load),
		cmocka_unit_test(every_shipped_entry_says_what_it_shows),
		cmocka_unit_test(vmalloc_seed_entries_are_the_seeds_setting),
		cmocka_unit_test(run_writes_one_directory),
		cmocka_unit_test(preset_that_measured_nothing_says_so),
		cmocka_unit_test(resume_after_interrupt_gives_same_configurations),
		cmocka_unit_test(resume_checks_rows_against_meta),
		cmocka_unit_test(resume_keeps_only_its_own),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
