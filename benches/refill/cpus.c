/* refill's CPU choice: the caller's and the unbound worker's CPUs, and whether SCHED_FIFO is
 * allowed. */
#include "benches/refill/refill.h"
#include <stdio.h>
#include <string.h>

/* Is os a CPU this process may use: allowed by the cpuset and, on this machine, by its affinity? */
int cpu_usable(const struct topo *t, const cpu_set_t *aff, int os)
{
	const struct pu *u = topo_pu(t, os);
	return u && u->allowed && (t->foreign || CPU_ISSET((size_t)os, aff));
}

/* The unbound worker's CPU: another core (same package first), else an SMT sibling; -1 if none. */
int pick_worker_cpu(const struct topo *t, const cpu_set_t *aff, int caller)
{
	const struct pu *c = topo_pu(t, caller);
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < t->npus; i++) {
			const struct pu *u = &t->pu[i];
			if (u->os == caller || !cpu_usable(t, aff, u->os))
				continue;
			if ((pass == 0 && u->core != c->core && u->pkg == c->pkg) ||
			    (pass == 1 && u->core != c->core) || pass == 2)
				return u->os;
		}
	return -1;
}

/* A comma list of the usable CPUs, for error messages. */
void usable_list(const struct topo *t, const cpu_set_t *aff, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < t->npus && k < n; i++)
		if (cpu_usable(t, aff, t->pu[i].os))
			k += (size_t)snprintf(buf + k, n - k, "%s%d", k ? "," : "", t->pu[i].os);
}

/* --caller-cpu / --worker-cpu: "auto" (-1 here) or a usable OS CPU number. */
int parse_cpu(const struct topo *t, const cpu_set_t *aff, const char *opt, const char *s, int *out,
	      char *err)
{
	long v;
	char list[256];
	if (!strcmp(s, "auto")) {
		*out = -1;
		return 0;
	}
	usable_list(t, aff, list, sizeof(list));
	if (parse_long(s, &v) || v < 0 || v > 1 << 20 || !cpu_usable(t, aff, (int)v))
	{
		char acc[300];
		snprintf(acc, sizeof(acc), "auto or a usable CPU (%s)", list);
		return err_accepted(err, acc, "auto or a usable CPU",
				    "--%s: '%s' is not accepted", opt, s);
	}
	*out = (int)v;
	return 0;
}

static void *probe_fifo(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	*(int *)arg = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	return NULL;
}

/* --hold fifo needs the privilege to make a thread SCHED_FIFO: try it on a throw-away thread. */
int check_fifo(char *err)
{
	pthread_t t;
	int e = 0;
	if (pthread_create(&t, NULL, probe_fifo, &e))
		return err_set(err, "--hold fifo: cannot create a thread to check SCHED_FIFO");
	pthread_join(t, NULL);
	if (e)
		return err_set(err,
			       "--hold fifo: the caller cannot be made SCHED_FIFO (%s): it needs "
			       "CAP_SYS_NICE or RLIMIT_RTPRIO >= 1; accepted without privilege: "
			       "--hold token or --hold slice",
			       strerror(e));
	return 0;
}
