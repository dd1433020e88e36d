/* The run summary at the size of pingpong's largest plan: every row of a 768-PU full matrix
 * (294,528 pairs x 2 modes x 5 repetitions, the pairs and classes of the real plan) written as a
 * run's CSV and .meta and summarised from them (tests/runsum_shim.h), in a child whose peak
 * resident set (getrusage ru_maxrss) is bounded and printed. A real run at this size needs the
 * machine; this is the part of its memory that grows with the rows. */
#include "benches/pingpong/pairs.h"
#include "harness/bench.h"
#include "tests/runsum_shim.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define EPYC_768 "synthetic:pack:2 l3:8 core:24 pu:2" /* dual AMD EPYC 9965: 2 x 192 x SMT 2 */
/* Under a sanitizer the records carry redzones and the run is slower: one repetition, no bound. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define REPS 1
#define PEAK_MAX_MIB 0
#else
#define REPS 5
/* Peak of the child above its size before the summary (the plan's pairs and variants, and under
 * qemu-user the emulator's own memory: kb[0]) that the test allows. On 5 Dec 2026, when the
 * summary kept the rows in the run's memory: 171 MiB above 39 on x86, 228 above 50 under
 * qemu-user on arm64. On 6 Dec, the summary the analysis of the CSV (analysis/runsum.c): 309
 * MiB above 39 on x86: the kept records 118, the run's settings (589,056 variant names) 30, the
 * reader's check that no row is there twice 64 (96 while its table grows), the print 42; under
 * qemu-user on arm64, 429 MiB above 50. */
#define PEAK_MAX_MIB 512
#endif

static const char *const modes[] = { "load-store", "cas" };

static long maxrss_kb(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

/* The child: plan the pairs, make the variants, feed every row, print the summary. Writes its
 * figures (KB) to fd: before the summary, after summary_new, after the rows, after the print. */
static void child(int fd)
{
	struct topo t;
	char err[ERRLEN] = "";
	int *set;
	struct pu_pair *p;
	const struct bench *bp = bench_find("pingpong");
	if (!bp || topo_load(&t, EPYC_768, err))
		_exit(3);
	int n = pairs_pu_set(&t, "auto", &set, err);
	int np = pairs_select(&t, set, n, "all", 1, &p, err);
	if (n != 768 || np != 768 * 767 / 2)
		_exit(4);
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = { bench_harness_opts(bp, htab, HARNESS_OPTS_MAX),
					    bp->opts, NULL };
	struct opts o = { 0 };
	char *argv[] = { "run", NULL };
	if (opts_parse(&o, tables, 1, argv, err))
		_exit(5);
	struct bench_ctx c = { .b = bp, .o = &o, .reps = REPS, .attempts = 3 };
	bench_variants_reserve(&c, np * 2);
	for (int m = 0; m < 2; m++) /* pingpong's order: mode by mode, class by class */
		for (int cl = 0; cl < PC_COUNT; cl++)
			for (int i = 0; i < np; i++)
				if ((int)p[i].cls == cl) {
					char name[48];
					snprintf(name, sizeof(name), "%d-%d/%s", p[i].a, p[i].b,
						 modes[m]);
					bench_variant(&c, name, (long)i * 2 + m);
				}
	long kb[4];
	kb[0] = maxrss_kb();
	struct summary *s = summary_new(&c);
	kb[1] = maxrss_kb();
	unsigned long long x = 88172645463325252ull;
	for (int rep = 0; rep < REPS; rep++)
		for (int v = 0; v < c.nvar; v++) {
			const struct pu_pair *q = &p[c.var[v].param / 2];
			struct row r = { 0 };
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			double ns = 20.0 + 30.0 * (double)q->cls + (double)(x % 1000) / 100.0;
			row_set(&r, "mode", "%s", modes[c.var[v].param % 2]);
			row_set(&r, "class", "%s", pair_class_name(q->cls));
			row_set(&r, "min_ns", "%.2f", ns);
			row_set(&r, "median_ns", "%.2f", ns * 1.1);
			row_na(&r, "probe_before_ns", "measured by another row of its round");
			row_na(&r, "probe_after_ns", "measured by another row of its round");
			if (v % 384) /* a round's other rows: counted=no */
				row_na(&r, "hitm_per_kop", "counted=no: another row of its round");
			else
				row_set(&r, "hitm_per_kop", "%.2f", ns / 10);
			summary_add(s, &r, v, rep, 1, 1, 1);
			row_clear(&r);
		}
	kb[2] = maxrss_kb();
	FILE *f = fopen("/dev/null", "w");
	if (!f)
		_exit(6);
	summary_print(s, f);
	fclose(f);
	kb[3] = maxrss_kb();
	summary_free(s);
	if (write(fd, kb, sizeof(kb)) != (ssize_t)sizeof(kb))
		_exit(7);
	_exit(0);
}

static void test_summary_of_768_pus(void **state)
{
	(void)state;
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fd[0]);
		child(fd[1]);
	}
	close(fd[1]);
	long kb[4] = { 0 };
	ssize_t got = read(fd[0], kb, sizeof(kb));
	close(fd[0]);
	int st;
	struct rusage u;
	assert_int_equal(wait4(pid, &st, 0, &u), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(got, (ssize_t)sizeof(kb));
	print_message("768 PUs, %d rows: ru_maxrss %.1f MiB with the plan's pairs and variants, "
		      "%.1f MiB after summary_new, %.1f MiB after the rows, %.1f MiB after the "
		      "print; %.1f s of CPU\n",
		      768 * 767 / 2 * 2 * REPS, kb[0] / 1024.0, kb[1] / 1024.0, kb[2] / 1024.0,
		      kb[3] / 1024.0,
		      (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
			  (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6);
	assert_true(kb[3] >= kb[0]);
	if (PEAK_MAX_MIB && u.ru_maxrss - kb[0] > PEAK_MAX_MIB * 1024L)
		fail_msg("the summary of a 768-PU run peaked at %.1f MiB, %.1f above its %.1f MiB "
			 "before; the bound is %d MiB above",
			 u.ru_maxrss / 1024.0, (u.ru_maxrss - kb[0]) / 1024.0, kb[0] / 1024.0,
			 PEAK_MAX_MIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_of_768_pus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
