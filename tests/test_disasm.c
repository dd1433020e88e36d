/* The hot loops must be what they claim: writers a lock-prefixed RMW, readers plain loads only. */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Disassembly of one function of the c2cbench binary, as objdump prints it. */
static char *disasm(const char *fn)
{
	char cmd[512];
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn -M att --disassemble=%s '%s'", fn, bin);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 20, k = 0;
	char *buf = calloc(1, cap);
	size_t n;
	while ((n = fread(buf + k, 1, cap - 1 - k, p)) > 0)
		k += n;
	assert_int_equal(pclose(p), 0);
	char head[128];
	snprintf(head, sizeof(head), "<%s>:", fn);
	if (!strstr(buf, head))
		fail_msg("function %s not found in %s", fn, bin);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void writers_hold_locked_rmw(void **s)
{
	(void)s;
	char *rmw = disasm("pb_writer_rmw_batch"), *ttas = disasm("pb_writer_ttas_batch");
	if (strstr(rmw, "__tsan_atomic")) { /* ThreadSanitizer turns atomics into calls: nothing to check */
		free(rmw);
		free(ttas);
		skip();
	}
#if defined(__x86_64__)
	assert_true(count(rmw, "lock ") >= 1);
	assert_true(count(ttas, "lock ") >= 1);
#endif
	free(rmw);
	free(ttas);
}

static void reader_has_only_plain_loads(void **s)
{
	(void)s;
	char *rd = disasm("pb_reader_batch");
#if defined(__x86_64__)
	assert_int_equal(count(rd, "lock "), 0);
	assert_int_equal(count(rd, "xchg"), 0);
	assert_true(count(rd, "mov ") + count(rd, "movq ") >= 2); /* the pointer load and the read through it */
#endif
	free(rd);
}

/* vmalloc's cycle loop: the lazy-count add and the pending bit's test_and_set are locked RMWs
 * (x86: lock xadd, lock bts), and the loop calls nothing and reads no clock. */
static void vmalloc_cycle_loop_rules(void **s)
{
	(void)s;
	char *cy = disasm("vm_cycle_batch");
	if (strstr(cy, "__tsan_")) {
		free(cy);
		skip();
	}
#if defined(__x86_64__)
	int instrumented = strstr(cy, "__asan_") || strstr(cy, "__ubsan_"); /* sanitizers add report calls */
	int locks = count(cy, "lock "), bts = strstr(cy, "lock bts") || strstr(cy, "lock or");
	int calls = count(cy, "call"), clocks = count(cy, "rdtsc") + count(cy, "syscall");
	free(cy);
	assert_true(locks >= 2);
	assert_true(bts);
	if (!instrumented)
		assert_int_equal(calls, 0);
	assert_int_equal(clocks, 0);
#else
	free(cy);
#endif
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(writers_hold_locked_rmw),
		cmocka_unit_test(reader_has_only_plain_loads),
		cmocka_unit_test(vmalloc_cycle_loop_rules),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
