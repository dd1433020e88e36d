/* The harness's options, as data (declared in harness/bench.h; its configuration columns are in
 * schema/meta.c): every bench takes these unless it refuses one (bench_refuses). */
#include "harness/bench.h"

const struct opt_spec harness_opts[] = {
    {"duration", OPT_SECONDS, "1", "SECONDS", "measured time per configuration and repetition",
     NULL, NULL},
    {"warmup", OPT_SECONDS, "0.2", "SECONDS", "unmeasured time before each measurement", NULL,
     NULL},
    {"reps", OPT_COUNT_AUTO, "5", "N|auto",
     "repetitions; variants run in a new shuffled order in each; auto: until the 95% CI of each "
     "median is within --reps-ci (docs/validity.md)",
     NULL, NULL},
    {"reps-ci", OPT_PERCENT, "5", "PERCENT",
     "--reps auto: stop a configuration once its median's 95% CI is this wide relative to the "
     "median",
     NULL, NULL},
    {"reps-max", OPT_COUNT, "30", "N",
     "--reps auto: at most N repetitions per configuration (at least "
     "6"
     ", the fewest with a 95% CI)",
     NULL, NULL},
    {"reps-time", OPT_SECONDS, "600", "SECONDS",
     "--reps auto: start no new round of repetitions after this long", NULL, NULL},
    {"max-attempts", OPT_COUNT, "3", "N",
     "attempts per repetition: an invalid one (docs/validity.md) is run again, up to N in all; "
     "every attempt is a row",
     NULL, NULL},
    {"keep-invalid", OPT_FLAG, NULL, NULL,
     "the summary includes invalid attempts (marked), not only valid ones", NULL, NULL},
    {"valid-window", OPT_OFF, "10", "PERCENT",
     "invalid when a co-running thread's window is off --duration by more than this", NULL, NULL},
    {"valid-oncpu", OPT_PERCENT, "90", "PERCENT",
     "invalid when a co-running thread was on a CPU for less of its window than this", NULL, NULL},
    {"valid-overlap", OPT_PERCENT, "90", "PERCENT",
     "invalid when the co-running threads' common window is less than this of the longest", NULL,
     NULL},
    {"valid-steal", OPT_PERCENT, "2", "PERCENT",
     "invalid when steal time on a measuring CPU exceeds this of the window", NULL, NULL},
    {"valid-probe", OPT_FACTOR, "2", "FACTOR",
     "invalid when the placement probe's latency after a repetition differs from before by more "
     "than this factor",
     NULL, NULL},
    {"probe-class", OPT_CHOICE, "any", "any|same",
     "same: invalid when a repetition's placement probe is of another class than the run's "
     "first valid probe of that pair, whichever variant took it (latencies more than 1.5x "
     "apart: another hidden vCPU placement; docs/validity.md)",
     "any,same", NULL},
    {"valid-setting", OPT_UINT, "25", "PERCENT",
     "invalid when an achieved setting is off the requested by more than this whole percent (each "
     "bench's README lists its settings: pending-bit drain period and work ns/op; vmalloc work and "
     "purge; shepherd tick, zone work, op; refill alloc and populate)",
     NULL, NULL},
    {"placement", OPT_TEXT, "auto", "POLICY",
     "thread placement (bench_harness_opts writes the table's names and auto here)", NULL,
     NULL},
    {"mem-node", OPT_TEXT, "writer", "N|writer|reader", "NUMA node for the contended memory", NULL,
     NULL},
    {"label", OPT_TEXT, NULL, "NAME",
     "name of this machine in compare and report, in every row and the .meta (default: the host "
     "name); letters, digits, . _ -",
     NULL, NULL},
    {"out", OPT_TEXT, NULL, "FILE|-",
     "CSV file to create (default results/BENCH-LABEL-TIMESTAMP.csv); -: standard output (the "
     "summary then goes to stderr)",
     NULL, NULL},
    {"meta", OPT_TEXT, NULL, "FILE",
     "where the run context (INI) goes (default: next to the CSV as FILE.meta; none with --out -)",
     NULL, NULL},
    {"seed", OPT_UINT, "0", "N",
     "seed for the shuffled order (0: from the clock; the CSV records it)", NULL, NULL},
    {"topology", OPT_TEXT, NULL, "SPEC",
     "plan on a foreign topology: synthetic:\"pack:2 numa:1 core:8 pu:2\" or xml:FILE", NULL, NULL},
    {"dry-run", OPT_FLAG, NULL, NULL, "print the plan and exit without running", NULL, NULL},
    {"quiet", OPT_FLAG, NULL, NULL, "no summary table and no progress line", NULL, NULL},
    {"cv-warn", OPT_PERCENT, "5", "PERCENT",
     "flag in the summary every configuration whose CV over repetitions is above this", NULL, NULL},
    {"events", OPT_TEXT, "auto", "auto|LIST",
     "counters: auto (this platform's metrics, see c2cbench events) or a comma list of metrics, "
     "PAPI presets, native events, sde:::c2cbench::NAME",
     NULL, NULL},
    {"pmu", OPT_TEXT, NULL, "NAME",
     "libpfm4 PMU instead of the detected one (sets LIBPFM_FORCE_PMU; e.g. spr on Emerald Rapids)",
     NULL, NULL},
    {"require-counters", OPT_FLAG, NULL, NULL,
     "exit with status 3, before any thread starts, if a requested counter cannot be had", NULL,
     NULL},
    {"perf-c2c", OPT_FLAG, NULL, NULL,
     "also record each configuration with perf c2c and store its report beside the CSV "
     "(CSV.perf-c2c-N.txt); the row says why where perf or a PMU is missing",
     NULL, NULL},
    {0},
};
