/* Per-thread counting: each measured thread's own event set, started and stopped around its measured phase. */
#include "harness/counters/counters.h"
#include "harness/counters/internal.h"
#include "harness/util.h"
#include <papi.h>
#include <stdlib.h>
#include <string.h>

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
		out_of_memory(0);
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
