/* PAPI start-up and the kernel probe that tells "no PMU" from "not allowed". */
#include "harness/counters/internal.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int papi_state; /* 0: not started, 1: up, -1: failed */
static char papi_why[256];

static unsigned long thread_id(void)
{
	return (unsigned long)pthread_self();
}

/* PAPI and its thread support are initialised once per process, after LIBPFM_FORCE_PMU is set. */
int ctr_papi_start(void)
{
	if (papi_state)
		return papi_state > 0 ? 0 : -1;
	int v = PAPI_library_init(PAPI_VER_CURRENT);
	if (v != PAPI_VER_CURRENT) {
		snprintf(papi_why, sizeof(papi_why), "PAPI unusable: %s",
			 v > 0 ? "library version mismatch" : PAPI_strerror(v));
		papi_state = -1;
		return -1;
	}
	if ((v = PAPI_thread_init(thread_id)) != PAPI_OK) {
		snprintf(papi_why, sizeof(papi_why), "PAPI unusable: thread support: %s",
			 PAPI_strerror(v));
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
int ctr_perf_probe(char *why, size_t n)
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


int ctr_papi_state(void)
{
	return papi_state;
}

const char *ctr_papi_why(void)
{
	return papi_why;
}
