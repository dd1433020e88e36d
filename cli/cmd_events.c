/* `c2cbench events`: the metric-to-event map for a platform, each name checked through libpfm4,
 * and what this machine can and cannot count, with the reason. */
#include "cli/commands.h"
#include "harness/counters/advert.h"
#include "harness/counters/counters.h"
#include "harness/counters/evtab.h"
#include "lib/opts.h"
#include "harness/counters/pmu.h"
#include "harness/counters/sde.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_spec events_opts[] = {
	{ "pmu", OPT_TEXT, NULL, "NAME",
	  "show (and check) this libpfm4 PMU instead of the detected one (sets LIBPFM_FORCE_PMU)",
	  NULL, NULL },
	{ "check", OPT_FLAG, NULL, NULL,
	  "encode every name with libpfm4 as PAPI does; print the encoding or the error; "
	  "exit 1 on any failure; on Arm, also whether this machine's PMU advertises each event "
	  "(not a failure)",
	  NULL, NULL },
	{ "all", OPT_FLAG, NULL, NULL,
	  "list the whole table, every PMU (check them one PMU at a time with --pmu)", NULL, NULL },
	{ 0 },
};

/* Where the listing goes: gathered, then fitted to TEXT_WIDTH columns (lib/wrap.h). */
static FILE *out;

/* Arm: does this machine's PMU advertise the event (sysfs events/, from PMCEID)? A line under the
 * event's; not a failure of the check, which is about names and encodings. */
static void advert_line(const char *metric, const char *pmu, const char *event, const char *enc)
{
	char dir[512], why[256];
	unsigned ev = 0;
	if (!adv_arm_pmu(pmu))
		return;
	int have = enc && !adv_event_number(enc, &ev);
	adv_check(adv_devices_dir(dir, sizeof(dir)), have, ev, event, why, sizeof(why));
	fprintf(out, "  %-16s -> %s\n", metric, why);
}

/* Check one table row on the active PMU; returns 1 when it fails. */
static int check_row(const struct evrow *r, int known)
{
	char enc[128], why[128];
	int bad = 0;
	if (!known) {
		fprintf(out,
			"  %-16s %-56s unchecked: the installed libpfm4 has no %s table (and no "
			"compatible one)\n",
			r->metric, r->event, r->pmu);
		advert_line(r->metric, r->pmu, r->event, r->encoding);
		return 0;
	}
	char name[256];
	evrow_event(r, name, sizeof(name));
	if (pmu_encode(name, enc, sizeof(enc), why, sizeof(why))) {
		fprintf(out, "  %-16s %-56s REJECTED: %s\n", r->metric, r->event, why);
		bad = 1;
	} else if (strcmp(enc, r->encoding)) {
		fprintf(out, "  %-16s %-56s MISMATCH: libpfm4 gives %s, the table says %s\n",
			r->metric, name, enc, r->encoding);
		bad = 1;
	} else {
		fprintf(out, "  %-16s %-56s ok %s\n", r->metric, name, enc);
	}
	advert_line(r->metric, r->pmu, name, r->encoding);
	return bad;
}

/* The rows of one PMU: listed, or checked (on used: the PMU itself, or its compatible one). Returns
 * the failures. */
static int show_pmu(const struct evtab *t, const char *pmu, const char *used, int check)
{
	int bad = 0, known = used && pmu_known(used);
	if (used && strcmp(used, pmu))
		fprintf(out, "PMU %s (not in the installed libpfm4; encoded on %s)\n", pmu, used);
	else
		fprintf(out, "PMU %s (%s)\n", pmu,
			pmu_known(pmu) ? "in the installed libpfm4"
				       : "not in the installed libpfm4");
	for (int i = 0; i < t->n; i++) {
		const struct evrow *r = &t->row[i];
		if (strcmp(r->pmu, pmu))
			continue;
		if (check)
			bad += check_row(r, known);
		else
			fprintf(out, "  %-16s %-56s %s%s%s\n", r->metric, r->event, r->encoding,
				r->note[0] ? "  # " : "", r->note);
	}
	return bad;
}

/* Names given on the command line: encode each on the active PMU. */
static int check_names(struct opts *o, const char *pmu)
{
	int bad = 0;
	for (int i = 0; i < o->nargs; i++) {
		char enc[128], why[128];
		if (pmu_encode(o->args[i], enc, sizeof(enc), why, sizeof(why))) {
			fprintf(out, "%-56s REJECTED: %s\n", o->args[i], why);
			bad++;
		} else {
			fprintf(out, "%-56s ok %s\n", o->args[i], enc);
			advert_line("", pmu, o->args[i], enc);
		}
	}
	return bad ? 1 : 0;
}

/* Plain words for a user on a VM or a new CPU: what can be counted here and why not. */
static void machine_report(const char *force)
{
	struct counters k;
	char err[ERRLEN];
	if (counters_open(&k, "auto", force, NULL, err)) {
		fprintf(out, "\nthis machine: %s\n", err);
		return;
	}
	fprintf(out, "\nthis machine: hardware counters %s\n",
		counters_ok(&k) ? "available" : "NOT available");
	counters_describe(&k, out);
	fprintf(out, "software-defined events (always countable, any PAPI tool): %s\n",
		sde_names()[0] ? sde_names() : "none");
	counters_close(&k);
}

static int events_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { events_opts, NULL };
	struct opts o;
	struct evtab t;
	char err[ERRLEN] = "";
	int rc = opts_parse(&o, tables, argc, argv, err);
	if (rc && !strcmp(err, "help")) {
		printf("usage: c2cbench events [--pmu NAME] [--check] [--all] [EVENT...]\n"
		       "The metric-to-event map (events/platforms.tsv, built in; "
		       "C2C_EVENTS_TABLE=FILE reads another).\n"
		       "With EVENT names: encode each on the PMU with libpfm4 (exit 1 if any is "
		       "rejected).\n");
		opts_help(stdout, events_opts);
		opts_free(&o);
		return 0;
	}
	const char *force = rc ? NULL : opt_str(&o, "pmu");
	struct pmu_choice pc;
	if (!rc)
		rc = evtab_load(&t, err);
	if (!rc && pmu_select(force, &pc, err)) {
		rc = -1;
		evtab_free(&t);
	}
	if (!rc && force && !pmu_known(force) && !evtab_has_pmu(&t, force)) {
		rc = err_set(err,
			     "--pmu: unknown PMU '%s'; accepted: libpfm4's, or see c2cbench events "
			     "--all",
			     force);
		evtab_free(&t);
	}
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		opts_free(&o);
		return EXIT_BADINPUT;
	}
	int bad = 0;
	char *text = NULL;
	size_t len = 0;
	out = open_memstream(&text, &len);
	if (!out)
		out_of_memory(0);
	const char *pmu = pc.table[0] ? pc.table : NULL, *used = pc.used[0] ? pc.used : NULL;
	fprintf(out, "table: %s; PMU: %s (%s)\n", t.source, used ? used : "none", pc.why);
	if (o.nargs) {
		rc = check_names(&o, used);
	} else if (opt_flag(&o, "all")) {
		char pmus[1024];
		snprintf(pmus, sizeof(pmus), "%s", evtab_pmus(&t));
		for (char *save = NULL, *p = strtok_r(pmus, ",", &save); p;
		     p = strtok_r(NULL, ",", &save))
			show_pmu(&t, p, NULL, 0);
	} else if (pmu && evtab_has_pmu(&t, pmu)) {
		bad = show_pmu(&t, pmu, used, opt_flag(&o, "check"));
	} else {
		fprintf(out, "the table has no rows for %s; PMUs it covers: %s\n",
			pmu ? pmu : "this CPU", evtab_pmus(&t));
	}
	if (!o.nargs)
		machine_report(force);
	if (bad)
		fprintf(out, "%d name(s) failed the check\n", bad);
	fclose(out);
	text_fit(stdout, TEXT_WIDTH, text);
	free(text);
	evtab_free(&t);
	opts_free(&o);
	return rc ? rc : bad ? 1 : 0;
}

static const struct command events_cmd = { "events", "events [--pmu NAME] [--check]",
					   "the metric-to-event map per platform, checked with "
					   "libpfm4",
					   events_main };
COMMAND_REGISTER(events_cmd)
