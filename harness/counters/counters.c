#include "harness/counters/counters.h"
#include "harness/bench.h"
#include "harness/counters/evtab.h"
#include "harness/opts.h"
#include "harness/counters/pmu.h"
#include "harness/counters/sde.h"
#include "harness/stats.h"
#include "harness/suggest.h"
#include "harness/util.h"
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <papi.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

static int papi_state; /* 0: not started, 1: up, -1: failed */
static char papi_why[256];

static unsigned long thread_id(void)
{
	return (unsigned long)pthread_self();
}

/* PAPI and its thread support are initialised once per process, after LIBPFM_FORCE_PMU is set. */
static int papi_start_once(void)
{
	if (papi_state)
		return papi_state > 0 ? 0 : -1;
	int v = PAPI_library_init(PAPI_VER_CURRENT);
	if (v != PAPI_VER_CURRENT) {
		snprintf(papi_why, sizeof(papi_why), "PAPI unusable: %s", v > 0 ? "library version mismatch" : PAPI_strerror(v));
		papi_state = -1;
		return -1;
	}
	if ((v = PAPI_thread_init(thread_id)) != PAPI_OK) {
		snprintf(papi_why, sizeof(papi_why), "PAPI unusable: thread support: %s", PAPI_strerror(v));
		papi_state = -1;
		return -1;
	}
	papi_state = 1;
	return 0;
}

static int paranoid(void)
{
	int v = -99;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}

/* Ask the kernel directly for a cycle counter on this thread: tells "no PMU" from "not allowed". */
static int perf_probe(char *why, size_t n)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EACCES || errno == EPERM)
		snprintf(why, n, "paranoid=%d", paranoid());
	else if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
		snprintf(why, n, "no PMU: the kernel exposes no CPU PMU");
	else
		snprintf(why, n, "perf_event_open: %s", strerror(errno));
	return -1;
}

/* A raw event name as a snake_case column stem. */
static void snake(const char *in, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = in; *p && k + 1 < n; p++) {
		char c = (char)tolower((unsigned char)*p);
		if (!isalnum((unsigned char)c))
			c = '_';
		if (c == '_' && (k == 0 || out[k - 1] == '_'))
			continue;
		out[k++] = c;
	}
	while (k && out[k - 1] == '_')
		k--;
	out[k] = 0;
}

/* ---- "did you mean": the closest names a user could have meant ---- */

struct cands {
	int n, cap;
	char **s;
};

static void cand_add(const char *name, void *arg)
{
	struct cands *c = arg;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->s[i], name))
			return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->s = realloc(c->s, sizeof(char *) * (size_t)c->cap);
		if (!c->s)
			abort();
	}
	c->s[c->n++] = xstrdup(name);
}

static void closest(const char *bad, const struct evtab *tab, const char *pmu, char *out, size_t n)
{
	struct cands c = { 0 };
	int best[3] = { -1, -1, -1 }, bd[3] = { 1 << 30, 1 << 30, 1 << 30 };
	for (int i = 0; i < nmetric_defs; i++)
		cand_add(metric_defs[i].name, &c);
	for (int i = 0; i < tab->n; i++) /* only this PMU's events: never a POWER event on x86 */
		if (pmu[0] && !strcmp(tab->row[i].pmu, pmu))
			cand_add(tab->row[i].event, &c);
	char names[2048];
	snprintf(names, sizeof(names), "%s", sde_names());
	for (char *save = NULL, *s = strtok_r(names, ",", &save); s; s = strtok_r(NULL, ",", &save))
		cand_add(s, &c);
	pmu_each_event(cand_add, &c);
	for (int i = 0; i < c.n; i++) {
		int d = edit_distance(bad, c.s[i]);
		for (int k = 0; k < 3; k++)
			if (d < bd[k]) {
				for (int m = 2; m > k; m--) {
					bd[m] = bd[m - 1];
					best[m] = best[m - 1];
				}
				bd[k] = d;
				best[k] = i;
				break;
			}
	}
	size_t w = 0;
	out[0] = 0;
	for (int k = 0; k < 3 && best[k] >= 0; k++)
		w += (size_t)snprintf(out + w, w < n ? n - w : 0, "%s%s", k ? ", " : "", c.s[best[k]]);
	for (int i = 0; i < c.n; i++)
		free(c.s[i]);
	free(c.s);
}

/* ---- resolving --events ---- */

static struct ctr_event *new_event(struct counters *k, const char *label, const char *native, int kind, int metric)
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
	const struct evrow *row = k->pmu[0] ? evtab_find(tab, k->pmu, metric_defs[m].name) : NULL;
	struct ctr_event *e = new_event(k, metric_defs[m].name, row ? row->event : "", CK_HW, m);
	if (k->pmu[0] && !row)
		snprintf(e->na, sizeof(e->na), "no such event on %s", k->pmu);
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
	if (!strncmp(item, SDE_PREFIX, strlen(SDE_PREFIX)) && sde_known(item + strlen(SDE_PREFIX))) {
		snprintf(label, sizeof(label), "sde_%s", item + strlen(SDE_PREFIX));
		new_event(k, label, item, CK_SDE, -1);
		return 0;
	}
	snake(item, label, sizeof(label));
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
	closest(item, tab, k->pmu, sug, sizeof(sug));
	return err_set(err, "--events: unknown event '%s'; closest: %s (accepted: auto, metric names, PAPI presets, native events, %s)", item, sug,
		    sde_names()[0] ? sde_names() : "sde:::c2cbench::NAME");
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

/* Greedy: each event joins the first group it starts with; one that starts with none opens a pass. */
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

static void set_global(struct counters *k, const char *status, const char *detail)
{
	snprintf(k->status, sizeof(k->status), "%s", status);
	snprintf(k->detail, sizeof(k->detail), "%s", detail ? detail : status);
	for (int i = 0; i < k->nev; i++)
		if (k->ev[i].kind == CK_HW && !k->ev[i].na[0])
			snprintf(k->ev[i].na, sizeof(k->ev[i].na), "%.180s", status);
}

/* Pick the PMU: forced with --pmu, else libpfm4's default as PAPI picks it. */
static int choose_pmu(struct counters *k, const struct evtab *tab, const char *force, char *err)
{
	if (force && !pmu_known(force) && !evtab_has_pmu(tab, force))
		return err_set(err, "--pmu: '%s' is not accepted; accepted: a PMU of the platform table (%s) or a core PMU of the installed libpfm4 (see c2cbench events)",
			    force, evtab_pmus(tab));
	if (pmu_init(force, err))
		return -1;
	if (force) {
		snprintf(k->pmu, sizeof(k->pmu), "%s", force);
		snprintf(k->pmu_how, sizeof(k->pmu_how), "forced with --pmu (LIBPFM_FORCE_PMU)");
	} else if (pmu_default()) {
		snprintf(k->pmu, sizeof(k->pmu), "%s", pmu_default());
		snprintf(k->pmu_how, sizeof(k->pmu_how), "detected by libpfm4");
	} else {
		snprintf(k->pmu_how, sizeof(k->pmu_how), "none: the installed libpfm4 knows no PMU for this CPU (newer CPUs: --pmu)");
	}
	return 0;
}

/* Why hardware counting is impossible as a whole ("" when it may work). */
static void global_reason(const char *force, char *why, size_t n, char *detail, size_t dn)
{
	why[0] = detail[0] = 0;
	if (papi_start_once()) {
		snprintf(why, n, "%s", papi_why);
		return;
	}
	int cid = PAPI_get_component_index("perf_event");
	const PAPI_component_info_t *ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (force && !pmu_known(force)) {
		snprintf(why, n, "no PMU: the installed libpfm4 has no %s table", force);
		return;
	}
	if (!ci || ci->disabled) {
		snprintf(why, n, "no PMU: perf_event component disabled");
		snprintf(detail, dn, "no PMU: perf_event component disabled (PAPI: %.200s)", ci ? ci->disabled_reason : "no perf_event component");
		return;
	}
	perf_probe(why, n);
}

int counters_open(struct counters *k, const char *events, const char *force_pmu, const struct plan *p, char *err)
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
		papi_start_once(); /* presets are looked up through PAPI; a failure is reported below */
	k->auto_mode = !strcmp(events, "auto");
	if (!rc && k->auto_mode) {
		for (int m = 0; m < nmetric_defs; m++)
			add_metric(k, &tab, m);
	} else if (!rc) {
		char *item[CTR_MAX + 1];
		int n = list_split(events, item, CTR_MAX + 1);
		if (!n)
			rc = err_set(err, "--events: '%s' is not accepted; accepted: auto or a comma list of event names", events);
		for (int i = 0; i < n; i++) {
			if (!rc && !strcmp(item[i], "auto"))
				rc = err_set(err, "--events: 'auto' cannot be combined with other names");
			if (!rc)
				rc = resolve_item(k, &tab, item[i], err);
			free(item[i]);
		}
	}
	if (rc) {
		evtab_free(&tab);
		return -1;
	}
	int any_hw = 0;
	for (int i = 0; i < k->nev; i++)
		any_hw |= k->ev[i].kind == CK_HW && !k->ev[i].na[0];
	global_reason(force_pmu, why, sizeof(why), detail, sizeof(detail));
	if (!why[0] && k->auto_mode && k->pmu[0] && !evtab_has_pmu(&tab, k->pmu))
		snprintf(why, sizeof(why), "no table rows for PMU %s", k->pmu);
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
		if (papi_state < 0) {
			snprintf(e->na, sizeof(e->na), "%.180s", papi_why);
			continue;
		}
		if (k->sde_es == PAPI_NULL && PAPI_create_eventset(&k->sde_es) != PAPI_OK)
			k->sde_es = PAPI_NULL;
		int r = k->sde_es == PAPI_NULL ? PAPI_ECMP : PAPI_add_named_event(k->sde_es, e->native);
		if (r != PAPI_OK)
			snprintf(e->na, sizeof(e->na), "PAPI sde component: %s", PAPI_strerror(r));
		else
			e->pass = 0;
	}
	if (!k->status[0]) {
		size_t w = 0;
		for (int i = 0; i < k->nev; i++) {
			const struct ctr_event *e = &k->ev[i];
			/* in auto mode a metric this platform has no event for is expected, not a failure */
			if (!e->na[0] || (k->auto_mode && strstr(e->na, "no such event")))
				continue;
			if (w < sizeof(k->status))
				w += (size_t)snprintf(k->status + w, sizeof(k->status) - w, "%s%s: %s", w ? "; " : "", e->label, e->na);
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

/* ---- per-thread hooks ---- */

struct thr_ctr {
	int es, failed, n, idx[CTR_MAX];
	long long v[CTR_MAX];
} C2C_ALIGNED;

static void thread_failed(struct counters *k, struct thr *t, const char *what, int rc)
{
	pthread_mutex_lock(&k->mu);
	if (!k->thread_err[0])
		snprintf(k->thread_err, sizeof(k->thread_err), "counters failed on CPU %d: %s: %s", t->want_cpu, what, PAPI_strerror(rc));
	pthread_mutex_unlock(&k->mu);
}

/* Register with PAPI and build this thread's own event set for the current pass. */
static int hook_init(struct thr *t, void *arg)
{
	struct counters *k = arg;
	struct thr_ctr *s = aligned_alloc(C2C_BLOCK, sizeof(*s));
	int rc;
	if (!s)
		abort();
	memset(s, 0, sizeof(*s));
	s->es = PAPI_NULL;
	t->hook_state = s;
	if ((rc = PAPI_register_thread()) != PAPI_OK || (rc = PAPI_create_eventset(&s->es)) != PAPI_OK) {
		s->failed = 1;
		thread_failed(k, t, "event set", rc);
		return 0;
	}
	for (int i = 0; i < k->nev && !s->failed; i++) {
		if (k->ev[i].kind != CK_HW || k->ev[i].pass != k->cur_pass || k->ev[i].na[0])
			continue;
		if ((rc = PAPI_add_named_event(s->es, k->ev[i].native)) != PAPI_OK) {
			s->failed = 1;
			thread_failed(k, t, k->ev[i].native, rc);
		}
		s->idx[s->n++] = i;
	}
	return 0;
}

static void hook_begin(struct thr *t, void *arg)
{
	struct thr_ctr *s = t->hook_state;
	int rc;
	if (s && !s->failed && (rc = PAPI_start(s->es)) != PAPI_OK) {
		s->failed = 1;
		thread_failed(arg, t, "start", rc);
	}
}

static void hook_end(struct thr *t, void *arg)
{
	struct thr_ctr *s = t->hook_state;
	int rc;
	if (s && !s->failed && (rc = PAPI_stop(s->es, s->v)) != PAPI_OK) {
		s->failed = 1;
		thread_failed(arg, t, "stop", rc);
	}
}

/* Fold this thread's counts into its role's totals (ops are final only after the body returns). */
static void hook_fini(struct thr *t, void *arg)
{
	struct counters *k = arg;
	struct thr_ctr *s = t->hook_state;
	pthread_mutex_lock(&k->mu);
	if (t->role >= 0 && t->role < CTR_ROLES) {
		k->ops[k->cur_pass][t->role] += t->ops;
		for (int i = 0; s && !s->failed && i < s->n; i++)
			k->val[t->role][s->idx[i]] += s->v[i];
	}
	pthread_mutex_unlock(&k->mu);
	if (s) {
		if (s->es != PAPI_NULL) {
			PAPI_cleanup_eventset(s->es);
			PAPI_destroy_eventset(&s->es);
		}
		PAPI_unregister_thread();
		free(s);
		t->hook_state = NULL;
	}
}

const struct thr_hooks *counters_hooks(struct counters *k)
{
	int any = 0;
	for (int i = 0; i < k->nev; i++)
		any |= k->ev[i].kind == CK_HW && k->ev[i].pass == k->cur_pass && !k->ev[i].na[0];
	if (!k->hw_usable || !any)
		return NULL;
	k->hooks = (struct thr_hooks){ hook_init, hook_begin, hook_end, hook_fini, k };
	return &k->hooks;
}

void counters_run_begin(struct counters *k)
{
	memset(k->ops, 0, sizeof(k->ops));
	memset(k->val, 0, sizeof(k->val));
	memset(k->sde_val, 0, sizeof(k->sde_val));
	k->thread_err[0] = 0;
}

void counters_pass_begin(struct counters *k, int pass)
{
	k->cur_pass = pass;
	if (pass == 0 && k->sde_es != PAPI_NULL && PAPI_start(k->sde_es) != PAPI_OK)
		snprintf(k->thread_err, sizeof(k->thread_err), "sde event set did not start");
}

void counters_pass_end(struct counters *k, int pass)
{
	long long v[CTR_MAX];
	if (pass != 0 || k->sde_es == PAPI_NULL || PAPI_stop(k->sde_es, v) != PAPI_OK)
		return;
	for (int i = 0, j = 0; i < k->nev; i++)
		if (k->ev[i].kind == CK_SDE && k->ev[i].pass == 0)
			k->sde_val[i] = v[j++];
}

/* ---- output ---- */

/* NA for a column, with reasons grouped so one cause is said once per row. */
struct na_group {
	int n;
	char reason[CTR_MAX * 2][192], cols[CTR_MAX * 2][512];
};

static void na_note(struct na_group *g, struct row *r, const char *key, const char *label, const char *reason)
{
	int i;
	row_set(r, key, "NA");
	for (i = 0; i < g->n && strcmp(g->reason[i], reason); i++)
		;
	if (i == g->n) {
		if (g->n == CTR_MAX * 2)
			return;
		snprintf(g->reason[g->n], sizeof(g->reason[0]), "%s", reason);
		g->cols[g->n++][0] = 0;
	}
	size_t len = strlen(g->cols[i]);
	if (!strstr(g->cols[i], label))
		snprintf(g->cols[i] + len, sizeof(g->cols[0]) - len, "%s%s", len ? "," : "", label);
}

static double per_kop(const struct counters *k, const struct ctr_event *e, int role, int *ok)
{
	uint64_t ops = k->ops[e->pass][role];
	*ok = ops > 0;
	return *ok ? (double)k->val[role][e - k->ev] * 1000.0 / (double)ops : 0;
}

/* HITM (or stand-in) per 1,000 operations of all measured threads, and which metrics fed it. */
static int hitm_figure(const struct counters *k, double *out, char *src, size_t n, const char **why)
{
	double sum = 0;
	int used = 0;
	size_t w = 0;
	src[0] = 0;
	*why = k->thread_err[0] ? k->thread_err : NULL;
	for (int i = 0; i < k->nev; i++) {
		const struct ctr_event *e = &k->ev[i];
		if (e->metric < 0 || !metric_defs[e->metric].hitm)
			continue;
		if (e->na[0]) {
			if (!*why && !strstr(e->na, "no such event"))
				*why = e->na;
			continue;
		}
		uint64_t ops = 0;
		long long v = 0;
		for (int r = 0; r < k->nroles; r++) {
			ops += k->ops[e->pass][r];
			v += k->val[r][i];
		}
		if (!ops)
			continue;
		sum += (double)v * 1000.0 / (double)ops;
		w += (size_t)snprintf(src + w, w < n ? n - w : 0, "%s%s", used++ ? "+" : "", e->label);
	}
	if (used && strstr(src, "c2c_fill"))
		snprintf(src + strlen(src), n - strlen(src), " (AMD stand-in)");
	else if (used && strstr(src, "coh_"))
		snprintf(src + strlen(src), n - strlen(src), " (Arm stand-in)");
	*out = sum;
	if (!used && !*why)
		*why = "no HITM metric (or stand-in) counted";
	return used && !k->thread_err[0];
}

void counters_to_row(struct counters *k, struct row *r)
{
	struct na_group *g = xcalloc(1, sizeof(*g));
	char key[160], src[256];
	if (k->pmu[0])
		row_set(r, "counters_pmu", "%s", k->pmu);
	else
		na_note(g, r, "counters_pmu", "counters_pmu", k->pmu_how);
	for (int i = 0; i < k->nev; i++) {
		const struct ctr_event *e = &k->ev[i];
		const char *why = e->na[0] ? e->na : k->thread_err[0] ? k->thread_err : NULL;
		if (e->kind == CK_SDE) {
			if (why)
				na_note(g, r, e->label, e->label, why);
			else
				row_set(r, e->label, "%lld", k->sde_val[i]);
			continue;
		}
		for (int role = 0; role < k->nroles; role++) {
			int ok = 0;
			if (!k->roles[role].count)
				continue;
			snprintf(key, sizeof(key), "%s_%s_per_kop", k->roles[role].name, e->label);
			double v = why ? 0 : per_kop(k, e, role, &ok);
			if (why)
				na_note(g, r, key, e->label, why);
			else if (!ok)
				na_note(g, r, key, key, "no operations completed");
			else
				row_set(r, key, "%.4f", v);
		}
		snprintf(key, sizeof(key), "%s_event", e->label);
		if (e->native[0])
			row_set(r, key, "%s", e->native);
		else
			na_note(g, r, key, e->label, e->na);
	}
	double h;
	const char *why;
	if (hitm_figure(k, &h, src, sizeof(src), &why)) {
		row_set(r, "hitm_per_kop", "%.4f", h);
		row_set(r, "hitm_source", "%s", src);
	} else {
		na_note(g, r, "hitm_per_kop", "hitm_per_kop", why);
		na_note(g, r, "hitm_source", "hitm_source", why);
	}
	row_set(r, "counter_passes", "%d", k->npasses);
	row_set(r, "counters_multiplexed", "no");
	row_set(r, "counters_status", "%s", k->thread_err[0] ? k->thread_err : k->status);
	for (int i = 0; i < g->n; i++) {
		size_t len = strlen(r->na_reason);
		snprintf(r->na_reason + len, sizeof(r->na_reason) - len, "%scounters [%s]: %s", len ? "; " : "", g->cols[i], g->reason[i]);
	}
	free(g);
}

/* How many requested events can be counted: with none, one line says why instead of one per event. */
static int counted(const struct counters *k)
{
	int n = 0;
	for (int i = 0; i < k->nev; i++)
		n += !k->ev[i].na[0];
	return n;
}

void counters_describe(const struct counters *k, FILE *f)
{
	if (k->nev && !counted(k)) {
		fprintf(f, "counters: none of the %d requested can be counted here: %s (PMU %s, %s; `c2cbench events` lists them)\n", k->nev,
			k->detail[0] ? k->detail : k->status, k->pmu[0] ? k->pmu : "none", k->pmu_how);
		return;
	}
	fprintf(f, "counters: PMU %s (%s); %d pass(es) per configuration; status: %s\n", k->pmu[0] ? k->pmu : "none", k->pmu_how,
		k->npasses, k->detail);
	for (int i = 0; i < k->nev; i++) {
		const struct ctr_event *e = &k->ev[i];
		if (e->na[0])
			fprintf(f, "  %-16s %-48s cannot count: %s\n", e->label, e->native[0] ? e->native : "-", e->na);
		else
			fprintf(f, "  %-16s %-48s counted (%s)\n", e->label, e->native,
				e->kind == CK_SDE ? "software-defined, whole run" : e->pass >= 0 ? "hardware, per thread" : "?");
	}
}

void counters_summary(FILE *f, const char *src, const char *why, const struct bench_ctx *c, const int *var, const double *hitm,
		      const unsigned char *ok, int n)
{
	double *vals = xcalloc((size_t)(n ? n : 1), sizeof(double)), base = 0;
	int nvar = c->nvar, any = 0;
	for (int i = 0; i < n; i++)
		any |= ok[i];
	if (!any) { /* one line, not a line of NA per variant */
		fprintf(f, "\nHITM per 1,000 operations: not counted (%s)\n", why[0] && strcmp(why, "ok") ? why : "no HITM metric or stand-in counted");
		free(vals);
		return;
	}
	fprintf(f, "\nHITM (or stand-in) per 1,000 operations%s%s%s, change against '%s'\n", src[0] ? " [" : "", src,
		src[0] ? "]" : "", nvar ? c->var[0].name : "");
	for (int v = 0; v < nvar; v++) {
		size_t k = 0;
		for (int i = 0; i < n; i++)
			if (ok[i] && var[i] == v)
				vals[k++] = hitm[i];
		struct stats s = stats_of(vals, k);
		if (v == 0)
			base = k ? s.median : 0;
		if (!k)
			fprintf(f, "%-16s  %14s  NA (%s)\n", c->var[v].name, "NA", why[0] && strcmp(why, "ok") ? why : "not counted");
		else if (base > 0)
			fprintf(f, "%-16s  %14.4g  %+.2f%%\n", c->var[v].name, s.median, 100.0 * (s.median - base) / base);
		else
			fprintf(f, "%-16s  %14.4g  NA (baseline is 0 or NA)\n", c->var[v].name, s.median);
	}
	free(vals);
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
