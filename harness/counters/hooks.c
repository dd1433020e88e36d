/* Per-thread counting: each measured thread's own event set, started and stopped around its
 * measured phase. */
#include "harness/counters/counters.h"
#include "harness/counters/internal.h"
#include "lib/util.h"
#include "harness/counters/pmu.h"
#include "harness/counters/sde.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <papi.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-thread hooks ---- */

struct thr_ctr {
	int es, failed, n, idx[CTR_MAX];
	int papi; /* registered with PAPI: this pass counts hardware or software-defined events */
	int sde_es, nsde,
	    sde_idx[CTR_MAX]; /* this thread's own SDE tallies (NAME.this_thread), pass 0 */
	long long v[CTR_MAX];
	int probe;          /* perf fd of the multiplexing probe, -1 when none */
	uint64_t probe_v[3]; /* value, time enabled, time running */
	char probe_err[120];
} C2C_ALIGNED;

/* The multiplexing probe: the pass's first event again, as a plain perf event that reports time
 * enabled and time running. PAPI reads its (non-multiplexed) sets without those times; when the
 * kernel had to time-share the counters (another user, the NMI watchdog), the probe's running time
 * falls short of its enabled time. */
static void probe_open(struct thr_ctr *s, const char *event)
{
	struct perf_event_attr a;
	s->probe = -1;
	if (pmu_perf_attr(event, &a, s->probe_err, sizeof(s->probe_err)))
		return;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	s->probe = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (s->probe < 0)
		snprintf(s->probe_err, sizeof(s->probe_err), "perf_event_open: %s",
			 strerror(errno));
}

static void thread_failed(struct counters *k, struct thr *t, const char *what, int rc)
{
	pthread_mutex_lock(&k->mu);
	if (!k->thread_err[0])
		snprintf(k->thread_err, sizeof(k->thread_err), "counters failed on CPU %d: %s: %s",
			 t->want_cpu, what, PAPI_strerror(rc));
	pthread_mutex_unlock(&k->mu);
}

/* Does this pass count SDE events? Pass 0 does, in every thread (per role) and around the run (in
 * total). */
static int sde_wanted(const struct counters *k)
{
	return k->cur_pass == 0 && k->sde_es != PAPI_NULL;
}

/* Drop a thread's SDE set (after a failure, or once read). */
static void sde_thread_close(struct thr_ctr *s)
{
	if (s->sde_es == PAPI_NULL)
		return;
	PAPI_cleanup_eventset(s->sde_es);
	PAPI_destroy_eventset(&s->sde_es);
	s->sde_es = PAPI_NULL;
	s->nsde = 0;
}

/* This thread's own SDE tallies in a set of their own (another PAPI component than the hardware's),
 * started before its measured phase and read after it, when the bench has published its tallies. */
static void sde_thread_open(struct counters *k, struct thr *t, struct thr_ctr *s)
{
	char name[224];
	int rc = PAPI_create_eventset(&s->sde_es);
	for (int i = 0; i < k->nev && rc == PAPI_OK; i++) {
		if (k->ev[i].kind != CK_SDE || k->ev[i].na[0])
			continue;
		snprintf(name, sizeof(name), "%s" SDE_THREAD_SUFFIX, k->ev[i].native);
		if ((rc = PAPI_add_named_event(s->sde_es, name)) != PAPI_OK)
			thread_failed(k, t, name, rc);
		else
			s->sde_idx[s->nsde++] = i;
	}
	if (rc == PAPI_OK && (rc = PAPI_start(s->sde_es)) != PAPI_OK)
		thread_failed(k, t, "sde start", rc);
	if (rc != PAPI_OK)
		sde_thread_close(s);
}

/* This thread's hardware event set for the current pass. */
static void hw_thread_open(struct counters *k, struct thr *t, struct thr_ctr *s)
{
	int rc;
	if ((rc = PAPI_create_eventset(&s->es)) != PAPI_OK) {
		s->failed = 1;
		thread_failed(k, t, "event set", rc);
		return;
	}
	for (int i = 0; i < k->nev && !s->failed; i++) {
		if (k->ev[i].kind != CK_HW || k->ev[i].pass != k->cur_pass || k->ev[i].na[0])
			continue;
		if ((rc = PAPI_add_named_event(s->es, k->ev[i].native)) != PAPI_OK) {
			s->failed = 1;
			thread_failed(k, t, k->ev[i].native, rc);
		}
		if (!s->n)
			probe_open(s, k->ev[i].native);
		s->idx[s->n++] = i;
	}
}

/* PAPI's set-up and tear-down calls are not safe to run in several threads at once (libpapi 7.0's
 * event-name lookup shares a cache: ThreadSanitizer shows the race), so threads take turns; they
 * run before and after the measured phase, never inside it. */
static pthread_mutex_t papi_setup = PTHREAD_MUTEX_INITIALIZER;

/* Register with PAPI and open this thread's SDE and hardware sets (under papi_setup). */
static void papi_thread_open(struct counters *k, struct thr *t, struct thr_ctr *s)
{
	int rc;
	if ((rc = PAPI_register_thread()) != PAPI_OK) {
		s->failed = 1;
		thread_failed(k, t, "register thread", rc);
		return;
	}
	s->papi = 1;
	if (sde_wanted(k))
		sde_thread_open(k, t, s);
	if (k->hooks_hw)
		hw_thread_open(k, t, s);
}

/* Register with PAPI and build this thread's own event sets for the current pass. */
static int hook_init(struct thr *t, void *arg)
{
	struct counters *k = arg;
	struct thr_ctr *s = aligned_alloc(C2C_BLOCK, sizeof(*s));
	if (!s)
		out_of_memory(0);
	memset(s, 0, sizeof(*s));
	s->es = s->sde_es = PAPI_NULL;
	s->probe = -1;
	s->failed = !k->hooks_hw; /* nothing to count in hardware: the hooks gather each role's
				     operations */
	snprintf(s->probe_err, sizeof(s->probe_err), "no event in this pass");
	t->hook_state = s;
	if (!k->hooks_hw && !sde_wanted(k))
		return 0;
	pthread_mutex_lock(&papi_setup);
	papi_thread_open(k, t, s);
	pthread_mutex_unlock(&papi_setup);
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
	if (s && s->probe >= 0)
		ioctl(s->probe, PERF_EVENT_IOC_ENABLE, 0);
}

static void hook_end(struct thr *t, void *arg)
{
	struct thr_ctr *s = t->hook_state;
	int rc;
	if (s && s->probe >= 0) {
		ioctl(s->probe, PERF_EVENT_IOC_DISABLE, 0);
		if (read(s->probe, s->probe_v, sizeof(s->probe_v)) != (ssize_t)sizeof(s->probe_v)) {
			snprintf(s->probe_err, sizeof(s->probe_err), "probe read failed");
			close(s->probe);
			s->probe = -1;
		}
	}
	if (s && !s->failed && (rc = PAPI_stop(s->es, s->v)) != PAPI_OK) {
		s->failed = 1;
		thread_failed(arg, t, "stop", rc);
	}
}

/* Fold one thread's probe into the configuration's verdict (under k->mu). */
static void probe_fold(struct counters *k, struct thr_ctr *s)
{
	if (s->probe < 0) {
		if (!k->mux_err[0])
			snprintf(k->mux_err, sizeof(k->mux_err), "%.150s", s->probe_err);
		return;
	}
	close(s->probe);
	if (!s->probe_v[1])
		return; /* never enabled: nothing measured */
	double pct = 100.0 * (double)s->probe_v[2] / (double)s->probe_v[1];
	if (!k->mux_probes || pct < k->mux_min_pct)
		k->mux_min_pct = pct;
	k->mux_probes++;
	k->mux_short += s->probe_v[2] < s->probe_v[1];
}

/* Fold this thread's counts into its role's totals (ops are final only after the body returns). */
static void hook_fini(struct thr *t, void *arg)
{
	struct counters *k = arg;
	struct thr_ctr *s = t->hook_state;
	long long sv[CTR_MAX];
	int rc, sde_ok = s && s->sde_es != PAPI_NULL;
	if (sde_ok) { /* the bench published its tallies after its window: read them now */
		pthread_mutex_lock(&papi_setup);
		if ((rc = PAPI_stop(s->sde_es, sv)) != PAPI_OK) {
			sde_ok = 0;
			thread_failed(k, t, "sde stop", rc);
		}
		pthread_mutex_unlock(&papi_setup);
	}
	pthread_mutex_lock(&k->mu);
	if (t->role >= 0 && t->role < CTR_ROLES) {
		k->ops[k->cur_pass][t->role] += t->ops;
		for (int i = 0; s && !s->failed && i < s->n; i++)
			k->val[t->role][s->idx[i]] += s->v[i];
		for (int i = 0; sde_ok && i < s->nsde; i++)
			k->sde_role[t->role][s->sde_idx[i]] += sv[i];
	}
	if (s)
		probe_fold(k, s);
	pthread_mutex_unlock(&k->mu);
	if (s) {
		pthread_mutex_lock(&papi_setup);
		sde_thread_close(s);
		if (s->es != PAPI_NULL) {
			PAPI_cleanup_eventset(s->es);
			PAPI_destroy_eventset(&s->es);
		}
		if (s->papi)
			PAPI_unregister_thread();
		pthread_mutex_unlock(&papi_setup);
		free(s);
		t->hook_state = NULL;
	}
}

const struct thr_hooks *counters_hooks(struct counters *k)
{
	int any = 0;
	for (int i = 0; i < k->nev; i++)
		any |= k->ev[i].kind == CK_HW && k->ev[i].pass == k->cur_pass && !k->ev[i].na[0];
	k->hooks_hw = k->hw_usable && any;
	if (!k->nroles)
		return NULL;
	/* even with nothing to count in hardware every measured thread goes through them: each
	 * role's operations (the counters' denominator) are gathered and reported either way */
	k->hooks = (struct thr_hooks){ hook_init, hook_begin, hook_end, hook_fini, k };
	return &k->hooks;
}

void counters_run_begin(struct counters *k)
{
	memset(k->ops, 0, sizeof(k->ops));
	memset(k->val, 0, sizeof(k->val));
	memset(k->sde_val, 0, sizeof(k->sde_val));
	memset(k->sde_role, 0, sizeof(k->sde_role));
	k->mux_probes = k->mux_short = 0;
	k->mux_min_pct = 0;
	k->mux_err[0] = 0;
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
