#include "harness/counters/counters.h"
#include "harness/counters/advert.h"
#include "harness/counters/evtab.h"
#include "harness/counters/internal.h"
#include "lib/opts.h"
#include "harness/counters/pmu.h"
#include "harness/counters/sde.h"
#include "lib/util.h"
#include <papi.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Resolving --events against the platform table and libpfm4, and grouping events into passes. */

/* ---- resolving --events ---- */

static struct ctr_event *new_event(struct counters *k, const char *label, const char *native,
				   int kind, int metric)
{
	struct ctr_event *e = &k->ev[k->nev++];
	memset(e, 0, sizeof(*e));
	snprintf(e->label, sizeof(e->label), "%s", label);
	snprintf(e->native, sizeof(e->native), "%s", native);
	e->kind = kind;
	e->metric = metric;
	e->pass = -1;
	return e;
}

static void add_metric(struct counters *k, const struct evtab *tab, int m)
{
	const struct evrow *row =
	    k->pmu[0] ? evtab_find(tab, k->pmu_table, metric_defs[m].name) : NULL;
	char name[192];
	struct ctr_event *e = new_event(k, metric_defs[m].name,
					row ? evrow_event(row, name, sizeof(name)) : "", CK_HW, m);
	if (k->pmu[0] && !row)
		snprintf(e->na, sizeof(e->na), "no such event on %s", k->pmu_table);
}

/* One item of a --events list; an unknown name is bad input. */
static int resolve_item(struct counters *k, const struct evtab *tab, const char *item, char *err)
{
	char label[64], sug[512], enc[128], why[128];
	int m, code;
	for (int i = 0; i < k->nev; i++)
		if (!strcmp(k->ev[i].native, item) || !strcmp(k->ev[i].label, item))
			return err_set(err, "--events: '%s' is listed twice", item);
	if (k->nev >= CTR_MAX)
		return err_set(err, "--events: more than %d events", CTR_MAX);
	for (m = 0; m < nmetric_defs; m++)
		if (!strcmp(metric_defs[m].name, item)) {
			add_metric(k, tab, m);
			return 0;
		}
	if (!strncmp(item, SDE_PREFIX, strlen(SDE_PREFIX)) &&
	    sde_known(item + strlen(SDE_PREFIX))) {
		snprintf(label, sizeof(label), "sde_%s", item + strlen(SDE_PREFIX));
		new_event(k, label, item, CK_SDE, -1);
		return 0;
	}
	ctr_snake(item, label, sizeof(label));
	if (!strncmp(item, "PAPI_", 5) && PAPI_event_name_to_code(item, &code) == PAPI_OK) {
		new_event(k, label, item, CK_HW, -1); /* without a PMU the global reason says why */
		return 0;
	}
	if (strncasecmp(item, "sde:::", 6) && strncmp(item, "PAPI_", 5)) {
		if (k->pmu[0] && !pmu_encode(item, enc, sizeof(enc), why, sizeof(why))) {
			new_event(k, label, item, CK_HW, -1);
			return 0;
		}
		if (pmu_name_anywhere(item)) { /* a real event, just not on this CPU */
			struct ctr_event *e = new_event(k, label, item, CK_HW, -1);
			if (k->pmu[0]) /* without a PMU the global reason says why */
				snprintf(e->na, sizeof(e->na), "no such event on %s", k->pmu);
			return 0;
		}
	}
	ctr_closest(item, tab, k->pmu_table[0] ? k->pmu_table : k->pmu, sug, sizeof(sug));
	/* the closest that fit the line (one at least); every event is in `events --all` */
	for (;;) {
		err_set(err, "--events: unknown '%s'%s%s%s; see c2cbench events --all", item,
			sug[0] ? " (closest: " : "", sug, sug[0] ? ")" : "");
		char *comma = strrchr(sug, ',');
		if (strlen(err) <= ERR_WIDTH || !comma)
			break;
		*comma = '\0';
	}
	if (strlen(err) > ERR_WIDTH && sug[0]) /* a long name: its closest, not the pointer */
		err_set(err, "--events: unknown '%s' (closest: %s)", item, sug);
	return -1;
}

/* ---- pass groups ---- */

static int try_add(int es, const char *name, int *rc)
{
	long long v[CTR_MAX];
	if ((*rc = PAPI_add_named_event(es, name)) != PAPI_OK)
		return 0;
	if ((*rc = PAPI_start(es)) == PAPI_OK) {
		PAPI_stop(es, v);
		return 1;
	}
	PAPI_remove_named_event(es, name);
	return 0;
}

/* Greedy: each event joins the first group it starts with; one that starts with none opens a pass.
 */
static void make_passes(struct counters *k)
{
	int es[CTR_PASSES], ng = 0;
	for (int i = 0; i < k->nev; i++) {
		struct ctr_event *e = &k->ev[i];
		int rc = PAPI_OK;
		if (e->kind != CK_HW || e->na[0])
			continue;
		for (int g = 0; g < ng && e->pass < 0; g++)
			if (try_add(es[g], e->native, &rc))
				e->pass = g;
		if (e->pass >= 0)
			continue;
		if (ng == CTR_PASSES) {
			snprintf(e->na, sizeof(e->na), "more than %d passes needed", CTR_PASSES);
			continue;
		}
		es[ng] = PAPI_NULL;
		if (PAPI_create_eventset(&es[ng]) == PAPI_OK && try_add(es[ng], e->native, &rc)) {
			e->pass = ng++;
			continue;
		}
		if (es[ng] != PAPI_NULL)
			PAPI_destroy_eventset(&es[ng]);
		snprintf(e->na, sizeof(e->na), "not countable here (PAPI: %s)", PAPI_strerror(rc));
	}
	for (int g = 0; g < ng; g++) {
		PAPI_cleanup_eventset(es[g]);
		PAPI_destroy_eventset(&es[g]);
	}
	k->npasses = ng ? ng : 1;
}

/* Arm: an event the PMU does not implement still opens and counts 0, so one the kernel does not
 * advertise (sysfs events/, from PMCEID; advert.c has the rule) is NA with the reason. Elsewhere,
 * or where the kernel lists no armv8_* PMU, nothing changes. */
static void check_advertised(struct counters *k, const struct evtab *tab)
{
	char dir[512], enc[128], why[128];
	if (!adv_arm_pmu(k->pmu_table) && !adv_arm_pmu(k->pmu))
		return;
	adv_devices_dir(dir, sizeof(dir));
	for (int i = 0; i < k->nev; i++) {
		struct ctr_event *e = &k->ev[i];
		const struct evrow *row = NULL;
		unsigned ev = 0;
		int have = 0;
		if (e->kind != CK_HW || e->na[0])
			continue;
		if (e->metric >= 0)
			row = evtab_find(tab, k->pmu_table, e->label);
		if (row) /* the table's encoding: known without the Arm libpfm4 */
			have = !adv_event_number(row->encoding, &ev);
		else if (strncmp(e->native, "PAPI_", 5) && k->pmu[0] &&
			 !pmu_encode(e->native, enc, sizeof(enc), why, sizeof(why)))
			have = !adv_event_number(enc, &ev); /* a raw name: libpfm4's encoding */
		enum adv_verdict v = adv_check(dir, have, ev, e->native, e->adv, sizeof(e->adv));
		if (v == ADV_NONE)
			e->adv[0] = 0;
		else if (v == ADV_NO)
			memcpy(e->na, e->adv,
			       sizeof(e->na)); /* the same size, both NUL-terminated */
	}
}

static void set_global(struct counters *k, const char *status, const char *detail)
{
	snprintf(k->status, sizeof(k->status), "%s", status);
	snprintf(k->detail, sizeof(k->detail), "%s", detail ? detail : status);
	for (int i = 0; i < k->nev; i++)
		if (k->ev[i].kind == CK_HW && !k->ev[i].na[0])
			snprintf(k->ev[i].na, sizeof(k->ev[i].na), "%.180s", status);
}

/* Pick the PMU (pmu_select: --pmu, libpfm4's detection, or a compatible PMU by CPUID) before PAPI
 * starts. */
static int choose_pmu(struct counters *k, const struct evtab *tab, const char *force, char *err)
{
	struct pmu_choice c;
	if (force && !pmu_known(force) && !evtab_has_pmu(tab, force))
		return err_set(err,
			       "--pmu: unknown PMU '%s'; accepted: libpfm4's, or see c2cbench "
			       "events --all",
			       force);
	if (pmu_select(force, &c, err))
		return -1;
	snprintf(k->pmu, sizeof(k->pmu), "%s", c.used);
	snprintf(k->pmu_table, sizeof(k->pmu_table), "%s", c.table);
	snprintf(k->pmu_detected, sizeof(k->pmu_detected), "%s", c.detected);
	snprintf(k->pmu_how, sizeof(k->pmu_how), "%s", c.why);
	return 0;
}

/* Why hardware counting is impossible as a whole ("" when it may work). */
static void global_reason(const char *used, char *why, size_t n, char *detail, size_t dn)
{
	why[0] = detail[0] = 0;
	if (ctr_papi_start()) {
		snprintf(why, n, "%s", ctr_papi_why());
		return;
	}
	int cid = PAPI_get_component_index("perf_event");
	const PAPI_component_info_t *ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (used[0] && !pmu_known(used)) {
		snprintf(why, n, "no PMU: the installed libpfm4 has no %s table", used);
		return;
	}
	if (!ci || ci->disabled) {
		snprintf(why, n, "no PMU: perf_event component disabled");
		snprintf(detail, dn, "no PMU: perf_event component disabled (PAPI: %.200s)",
			 ci ? ci->disabled_reason : "no perf_event component");
		return;
	}
	ctr_perf_probe(why, n);
}

int counters_open(struct counters *k, const char *events, const char *force_pmu,
		  const struct plan *p, char *err)
{
	struct evtab tab;
	char why[256], detail[512];
	memset(k, 0, sizeof(*k));
	k->sde_es = PAPI_NULL;
	pthread_mutex_init(&k->mu, NULL);
	k->npasses = 1;
	if (p) {
		k->roles = p->roles;
		k->nroles = p->nroles < CTR_ROLES ? p->nroles : CTR_ROLES;
	}
	if (evtab_load(&tab, err))
		return -1;
	int rc = choose_pmu(k, &tab, force_pmu, err);
	if (!rc)
		ctr_papi_start(); /* presets are looked up through PAPI; a failure is reported below
				   */
	k->auto_mode = !strcmp(events, "auto");
	if (!rc && k->auto_mode) {
		for (int m = 0; m < nmetric_defs; m++)
			add_metric(k, &tab, m);
	} else if (!rc) {
		char *item[CTR_MAX + 1], why[80];
		int n = list_count(events, why, sizeof(why));
		if (n < 0) /* an empty element is refused, not dropped */
			rc = err_set(err,
				     "--events: '%s' is not accepted (%s); accepted: auto or a "
				     "comma list of event names",
				     events, why);
		else if (n > CTR_MAX)
			rc = err_set(err, "--events: '%s' names %d events; accepted: at most %d",
				     events, n, CTR_MAX);
		n = rc ? 0 : list_split(events, item, CTR_MAX + 1);
		for (int i = 0; i < n; i++) {
			if (!rc && !strcmp(item[i], "auto"))
				rc = err_set(
				    err, "--events: 'auto' cannot be combined with other names");
			if (!rc)
				rc = resolve_item(k, &tab, item[i], err);
			free(item[i]);
		}
	}
	if (rc) {
		evtab_free(&tab);
		return -1;
	}
	check_advertised(k, &tab);
	int any_hw = 0;
	for (int i = 0; i < k->nev; i++)
		any_hw |= k->ev[i].kind == CK_HW && !k->ev[i].na[0];
	global_reason(k->pmu, why, sizeof(why), detail, sizeof(detail));
	if (!why[0] && k->auto_mode && k->pmu[0] && !evtab_has_pmu(&tab, k->pmu_table))
		snprintf(why, sizeof(why), "no table rows for PMU %s", k->pmu_table);
	if (!why[0] && !k->pmu[0] && any_hw)
		snprintf(why, sizeof(why), "no PMU: libpfm4 knows none for this CPU");
	k->hw_usable = !why[0];
	if (why[0] && (any_hw || k->auto_mode))
		set_global(k, why, detail[0] ? detail : why);
	else if (any_hw)
		make_passes(k);
	evtab_free(&tab);
	/* SDE: one event set in the calling thread, around each whole run */
	for (int i = 0; i < k->nev; i++) {
		struct ctr_event *e = &k->ev[i];
		if (e->kind != CK_SDE)
			continue;
		if (ctr_papi_state() < 0) {
			snprintf(e->na, sizeof(e->na), "%.180s", ctr_papi_why());
			continue;
		}
		if (k->sde_es == PAPI_NULL && PAPI_create_eventset(&k->sde_es) != PAPI_OK)
			k->sde_es = PAPI_NULL;
		int r =
		    k->sde_es == PAPI_NULL ? PAPI_ECMP : PAPI_add_named_event(k->sde_es, e->native);
		if (r != PAPI_OK)
			snprintf(e->na, sizeof(e->na), "PAPI sde component: %s", PAPI_strerror(r));
		else
			e->pass = 0;
	}
	if (!k->status[0]) {
		size_t w = 0;
		for (int i = 0; i < k->nev; i++) {
			const struct ctr_event *e = &k->ev[i];
			/* in auto mode a metric this platform has no event for is expected, not a
			 * failure */
			if (!e->na[0] || (k->auto_mode && strstr(e->na, "no such event")))
				continue;
			if (w < sizeof(k->status))
				w += (size_t)snprintf(k->status + w, sizeof(k->status) - w,
						      "%s%s: %s", w ? "; " : "", e->label, e->na);
		}
		if (!w)
			snprintf(k->status, sizeof(k->status), "ok");
		snprintf(k->detail, sizeof(k->detail), "%s", k->status);
	}
	return 0;
}

int counters_ok(const struct counters *k)
{
	return !strcmp(k->status, "ok");
}

int counters_passes(const struct counters *k)
{
	return k->npasses;
}


void counters_close(struct counters *k)
{
	if (!k->npasses) /* never opened */
		return;
	if (k->sde_es != PAPI_NULL) {
		PAPI_cleanup_eventset(k->sde_es);
		PAPI_destroy_eventset(&k->sde_es);
	}
	pthread_mutex_destroy(&k->mu);
}

/* The platform table for the CPU a foreign topology names (its CPUVendor, CPUFamilyNumber and
 * CPUModelNumber), or NULL: a plan for another machine follows its CPU, not this one's PMU. Only
 * the AMD families matter to auto (their stand-ins); other vendors' tables see any core of the
 * socket. */
static const char *target_table(const struct topo *t)
{
	int f = t->cpu_family, m = t->cpu_model;
	if (strcmp(t->vendor, "AuthenticAMD") && strcmp(t->vendor, "HygonGenuine"))
		return NULL;
	if (f == 0x17)
		return "amd64_fam17h_zen2";
	if (f == 0x19)
		return (m >= 0x10 && m <= 0x1f) || (m >= 0x60 && m <= 0x7f) ||
			       (m >= 0xa0 && m <= 0xaf)
			   ? "amd64_fam19h_zen4"
			   : "amd64_fam19h_zen3";
	return f == 0x1a ? "amd64_fam1ah_zen5" : NULL;
}

void counters_auto_hint(const char *force, struct topo *t)
{
	struct evtab tab;
	struct pmu_choice c;
	char err[ERRLEN];
	const char *table = NULL;
	if (evtab_load(&tab, err))
		return;
	if (t->foreign) {
		table = target_table(t);
		if (!t->vendor[0])
			snprintf(t->auto_why, sizeof(t->auto_why),
				 "the topology names no CPU vendor: no HITM stand-in assumed");
		else if (!table || !evtab_hitm_sees(&tab, table, "other-llc"))
			snprintf(t->auto_why, sizeof(t->auto_why),
				 "the topology's CPU (%.24s family %d model %d) has no HITM "
				 "stand-in that only sees another LLC",
				 t->vendor, t->cpu_family, t->cpu_model);
	} else if (!pmu_select(force, &c, err) && c.table[0]) {
		table = c.table;
	}
	if (table && evtab_hitm_sees(&tab, table, "other-llc")) {
		t->auto_cross_llc = 1;
		snprintf(
		    t->auto_why, sizeof(t->auto_why),
		    "the %.60s HITM stand-in only sees lines from another last-level cache (CCX)%s",
		    table, t->foreign ? ", from the topology's CPU" : "");
	}
	evtab_free(&tab);
}
