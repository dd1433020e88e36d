/* The one two-sample rule (docs/compare.md, "The numbers and the verdict"): is B different from A,
 * by how much, with what interval, and in what words. compare, report and the run's summary all
 * call it, so the same values give the same words everywhere. The formulas are in
 * stats/compare_stats.h; this file decides what they mean. */
#ifndef C2C_TWOSAMPLE_H
#define C2C_TWOSAMPLE_H
#include <stddef.h>

/* Medians, ratio B/A, its 95% interval, the U test, and the verdict's inputs. */
struct ts_stat {
	size_t na, nb;
	double ma, mb, ratio, lo, hi, u, p,
	    p_floor;     /* p_floor: the smallest p the exact test can give */
	double p_adj;    /* p adjusted for the table's other tests (ts_decide); p until then */
	int has_ratio, has_ci, has_p, exact;
	int small;       /* ts_small: no count of these values can reach significance */
	int significant; /* p_adj < 0.05 and the interval excludes 1, with enough repetitions */
	/* Set by the caller before the family is decided (ts_family): */
	int descriptive; /* outside its bench's verdict family: an interval, never a test */
	/* no test either: 1 its inputs declare its better side differently, 2 an input declares
	 * it no metric (context, evidence, configuration), 3 they declare its unit differently */
	int disputed;
	/* the seed's predicted direction of B against A: -1 lower, 1 higher, 0 none */
	int predict;
	/* Set by ts_family: the tests of its family (the m its p was adjusted over) and how;
	 * m_plan: its family's lines that are tests once each has enough repetitions
	 * (ts_is_planned), the family that a "too few repetitions" line's count of what can reach
	 * p < 0.05 is sized for */
	int m, m_plan;
	const char *method;
};

/* The margin of "no change": a line whose 95% interval of the ratio lies within 1 +- TS_MARGIN
 * says "no change beyond +-5%" (docs/validity.md, "The verdict"). */
#define TS_MARGIN 0.05

/* Too few values for the exact two-sided U test ever to give p < 0.05 (2 / C(na+nb, na) >= 0.05),
 * or for an interval (fewer than 2 a side). */
int ts_small(size_t na, size_t nb);
/* The fewest values a side, equal on both, that can reach p < 0.05: computed, 4. */
int ts_min_reps(void);

/* Medians, ratio and U test of a against b (no interval: cheap, for counting a table's tests). */
void ts_test(const double *a, size_t na, const double *b, size_t nb, struct ts_stat *s);
/* ts_test and the bootstrap interval; the verdict as for a table of one test. */
void ts_compute(const double *a, size_t na, const double *b, size_t nb, struct ts_stat *s);
/* Is it a test a family counts: values on both sides, enough of them to reach p < 0.05, and a
 * metric of the bench's verdict (not descriptive)? */
int ts_is_test(const struct ts_stat *s);
/* Would it be a test with enough repetitions: values on both sides, a verdict metric, not
 * disputed? */
int ts_is_planned(const struct ts_stat *s);
/* Why a disputed metric (ts_stat.disputed, non-zero) is not tested, in words. */
const char *ts_disputed_why(int disputed);
/* Decide with the adjusted p of the family this test is in (p itself for a family of one). */
void ts_decide(struct ts_stat *s, double p_adj);
/* One family: the tests among st[0..n) (ts_is_test) adjusted together (ts_adjust), each decided
 * on its adjusted p, m and method set on every line. Returns the method ("Holm", "BH"); *ntest
 * (may be NULL) gets the count of tests. */
const char *ts_family(struct ts_stat *st, int n, int *ntest);
/* Can a family of m tests with na and nb values a side ever call a change: is the adjusted p of
 * lines whose repetitions all separate below 0.05? Holm (m <= TS_HOLM_MAX): m x the exact test's
 * smallest p; BH: that p alone (every line of the family separating). */
int ts_reaches(size_t na, size_t nb, int m);
/* The fewest repetitions a side, equal on both, at which a family of m tests can (ts_reaches). */
int ts_reps_for(int m);
/* The smallest change (B/A - 1, as 0.08 for 8%) that n repetitions a side call 8 times in 10 in a
 * family of m tests, each repetition's value normal around its median with coefficient of
 * variation cv, when the family's other lines change alike: p below Holm's first bar 0.05 / m (BH,
 * over TS_HOLM_MAX tests: 0.05), by simulation from a fixed seed (the same answer every time).
 * -1 when no change can be called (ts_reaches). */
double ts_power_change(int n, int m, double cv);

/* One of three things, and never "no significant change" (docs/validity.md, "The verdict"):
 * - a change: "B faster by 1.23x [1.18, 1.29]" (subject "B"; NULL: "faster by ..."), with ", as
 *   the seed predicts" or ", against the seed's prediction" where s->predict says a direction;
 * - no change beyond the margin, shown by the interval: "no change beyond +-5%: [-1.20, +2.10]%";
 * - inconclusive, with the reason: "inconclusive: 5 repetitions a side cannot reach p < 0.05
 *   over this family's 14 tests; 8 a side can", or the p and the interval that decided it.
 * Besides: "NA: ..." without values, "descriptive: ..." for a metric outside the family.
 * direction: 1 higher is better, -1 lower is better, 0 unknown; time: the metric is a duration. */
void ts_verdict(const struct ts_stat *s, int direction, int time, const char *subject, char *out,
		size_t n);
/* The word for "B is higher" by the metric's direction: better/worse, faster/slower for a
 * duration, higher/lower when the direction is unknown. */
const char *ts_word(int higher, int direction, int time);
/* Is the metric a duration (lower: faster)? From its unit or its name. */
int ts_is_time(const char *metric, const char *unit);

/* Multiplicity: the adjusted p of n raw p values, in their order. Holm's step-down (family-wise
 * error) for tables of up to TS_HOLM_MAX tests, Benjamini-Hochberg's step-up (false discovery
 * rate) above. Returns the method's name ("Holm", "BH"). */
#define TS_HOLM_MAX 20
const char *ts_adjust(const double *p, int n, double *adj);
void ts_holm(const double *p, int n, double *adj);
void ts_bh(const double *p, int n, double *adj);
#endif
