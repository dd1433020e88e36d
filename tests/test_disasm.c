/* The hot loops must be what they claim, on x86-64 and on aarch64 (whichever the tested binary is):
 * inside each writer's loop the flavour's exact RMW instruction (x86 lock bts; aarch64 ldsetal, or
 * an ldaxr-stlxr pair), inside the reader's loop plain loads only, and no call or clock read in
 * either. */
#include "tests/testutil.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct insn {
	unsigned long addr;
	char text[160];
};

struct fn {
	int n, arm;
	struct insn *in;
	unsigned long lo,
	    hi; /* the loop: smallest backward-branch target .. largest backward branch */
};

/* Tested binary and its objdump: C2C_ELF / C2C_OBJDUMP (the arm64 build under qemu), else C2C_BIN
 * and objdump. */
static const char *elf(void)
{
	return getenv("C2C_ELF")    ? getenv("C2C_ELF")
		: getenv("C2C_BIN") ? getenv("C2C_BIN")
				    : "./c2cbench";
}

/* Is text a branch to an address (x86 j*, aarch64 b, b.cond, cb(n)z, tb(n)z)? Sets *to. */
static int branch_to(const char *text, int arm, unsigned long *to)
{
	char op[32] = "";
	sscanf(text, "%31s", op);
	int br = arm
		? (!strcmp(op, "b") || !strncmp(op, "b.", 2) || !strncmp(op, "cbz", 3) ||
		   !strncmp(op, "cbnz", 4) || !strncmp(op, "tbz", 3) || !strncmp(op, "tbnz", 4))
		: op[0] == 'j';
	const char *lt = strchr(text, '<');
	if (!br || !lt)
		return 0;
	const char *q = lt; /* the target address is the hex number just before <fn+off> */
	while (q > text && q[-1] == ' ')
		q--;
	while (q > text && isxdigit((unsigned char)q[-1]))
		q--;
	*to = strtoul(q, NULL, 16);
	return *to != 0;
}

/* Disassemble one function and find its loop. */
static void disasm(const char *name, struct fn *f)
{
	char cmd[1024], line[512];
	const char *od = getenv("C2C_OBJDUMP") ? getenv("C2C_OBJDUMP") : "objdump";
	snprintf(cmd, sizeof(cmd), "%s -d --no-show-raw-insn --disassemble=%s '%s'", od, name,
		 elf());
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	memset(f, 0, sizeof(*f));
	f->in = calloc(4096, sizeof(*f->in));
	int in_fn = 0;
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "file format elf64-littleaarch64"))
			f->arm = 1;
		if (strstr(line, ">:"))
			in_fn = strstr(line, name) != NULL;
		unsigned long a;
		char *tab = strchr(line, '\t');
		if (!in_fn || !tab || sscanf(line, " %lx:", &a) != 1 || f->n == 4096)
			continue;
		line[strcspn(line, "\n")] = 0;
		f->in[f->n].addr = a;
		snprintf(f->in[f->n++].text, sizeof(f->in[0].text), "%s", tab + 1);
	}
	assert_int_equal(pclose(p), 0);
	if (!f->n)
		fail_msg("function %s not found in %s", name, elf());
	for (int i = 0; i < f->n; i++) {
		unsigned long to;
		if (branch_to(f->in[i].text, f->arm, &to) && to <= f->in[i].addr) {
			if (!f->lo || to < f->lo)
				f->lo = to;
			if (f->in[i].addr > f->hi)
				f->hi = f->in[i].addr;
		}
	}
	if (!f->hi)
		fail_msg("%s: no loop found", name);
}

/* Instructions inside the loop whose mnemonic starts with one of the comma-separated prefixes. */
static int in_loop(const struct fn *f, const char *prefixes)
{
	int n = 0;
	for (int i = 0; i < f->n; i++) {
		if (f->in[i].addr < f->lo || f->in[i].addr > f->hi)
			continue;
		char op[32] = "", *save = NULL, list[256];
		sscanf(f->in[i].text, "%31s", op);
		if (strstr(f->in[i].text, "<__asan_") ||
		    strstr(f->in[i].text, "<__ubsan_")) /* sanitizer report calls: not the loop's */
			continue;
		if (!strcmp(op, "lock")) /* x86 prefix: "lock btsq" */
			snprintf(op, sizeof(op), "lock %.20s",
				 f->in[i].text + 4 + strspn(f->in[i].text + 4, " "));
		snprintf(list, sizeof(list), "%s", prefixes);
		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
			if (!strncmp(op, t, strlen(t))) {
				n++;
				break;
			}
		if (strstr(f->in[i].text, "cntvct") ||
		    strstr(f->in[i].text, "cntpct")) /* aarch64 clock reads */
			n += !strcmp(prefixes, "CLOCK");
	}
	return n;
}

/* No call, system call or clock read inside the loop. */
static void no_call_or_clock(const struct fn *f, const char *name)
{
	int calls =
	    f->arm ? in_loop(f, "bl,blr,svc") : in_loop(f, "call,syscall,rdtsc,rdtscp,rdpid");
	int clocks = in_loop(f, "CLOCK");
	if (calls || clocks)
		fail_msg("%s: %d call(s) and %d clock read(s) inside the loop", name, calls,
			 clocks);
}

static void free_fn(struct fn *f)
{
	free(f->in);
}

/* Skip under ThreadSanitizer: it turns atomics into calls, so there is nothing to check. */
static int tsan_build(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "nm '%s' 2>/dev/null | grep -q __tsan_atomic", elf());
	return system(cmd) == 0;
}

static void check_writer(const char *name, const char *rmw, const char *pair)
{
	struct fn f;
	disasm(name, &f);
	if (pair) {
		char a[32], b[32];
		snprintf(a, sizeof(a), "%.*s", (int)strcspn(pair, "-"), pair);
		snprintf(b, sizeof(b), "%s", strchr(pair, '-') + 1);
		if (in_loop(&f, a) != 1 || in_loop(&f, b) != 1)
			fail_msg("%s: expected one %s and one %s inside the loop", name, a, b);
	} else if (in_loop(&f, rmw) != 1) {
		fail_msg("%s: expected exactly one %s inside the loop", name, rmw);
	}
	if (f.arm &&
	    in_loop(&f,
		    pair ? "ldset,swp,cas,ldadd"
			 : "ldxr,ldaxr,stxr,stlxr")) /* the other flavour must not be there */
		fail_msg("%s: holds the other atomics flavour's instruction", name);
	no_call_or_clock(&f, name);
	free_fn(&f);
}

static void writers_hold_their_rmw(void **s)
{
	(void)s;
	if (tsan_build())
		skip();
	struct fn probe;
	disasm("pb_reader_batch", &probe);
	int arm = probe.arm;
	free_fn(&probe);
	if (arm) {
		check_writer("pb_writer_rmw_lse_batch", "ldsetal", NULL);
		check_writer("pb_writer_ttas_lse_batch", "ldsetal", NULL);
		check_writer("pb_writer_rmw_llsc_batch", NULL, "ldaxr-stlxr");
		check_writer("pb_writer_ttas_llsc_batch", NULL, "ldaxr-stlxr");
	} else {
		check_writer("pb_writer_rmw_batch", "lock bts", NULL);
		check_writer("pb_writer_ttas_batch", "lock bts", NULL);
	}
}

static void reader_has_only_plain_loads(void **s)
{
	(void)s;
	if (tsan_build()) /* TSan instruments every load with a call: the loop is not the one that
			     ships */
		skip();
	struct fn f;
	disasm("pb_reader_batch", &f);
	if (f.arm) {
		assert_int_equal(in_loop(&f, "ldxr,ldaxr,stxr,stlxr,ldset,ldadd,swp,cas,ldar,stlr"),
				 0);
		assert_true(in_loop(&f, "ldr,ldp") >=
			    2); /* the pointer load and the read through it */
	} else {
		assert_int_equal(in_loop(&f, "lock,xchg"), 0);
		int loads = 0;
		for (int i = 0; i < f.n; i++) { /* AT&T: a memory source operand, "(...)" before the
						   last comma, is a load */
			const char *t = f.in[i].text, *paren = strchr(t, ')'),
				   *comma = strrchr(t, ',');
			loads += f.in[i].addr >= f.lo && f.in[i].addr <= f.hi && paren && comma &&
				paren < comma && strncmp(t, "lea", 3);
		}
		assert_true(loads >= 2);
	}
	no_call_or_clock(&f, "pb_reader_batch");
	free_fn(&f);
}

/* vmalloc's cycle loop: the lazy-count add and the pending bit's test_and_set are locked RMWs
 * (x86: lock xadd, lock bts), and the loop calls nothing and reads no clock. */
static void vmalloc_cycle_loop_rules(void **s)
{
	(void)s;
	if (tsan_build())
		skip();
	struct fn f;
	disasm("vm_cycle_batch", &f);
	if (!f.arm) {
		assert_true(in_loop(&f, "lock") >= 2);
		assert_true(in_loop(&f, "lock bts,lock or") >= 1);
	}
	no_call_or_clock(&f, "vm_cycle_batch");
	free_fn(&f);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(writers_hold_their_rmw),
		cmocka_unit_test(reader_has_only_plain_loads),
		cmocka_unit_test(vmalloc_cycle_loop_rules),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
