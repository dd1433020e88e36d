/* The atomics flavour of the writers' read-modify-write, an axis of its own: x86 has one (a
 * lock-prefixed RMW); aarch64 has two that behave differently under contention, both compiled in
 * (no outline-atomics call): LSE (ldsetal, may execute far, at the line's home node) and LL/SC (an
 * ldaxr/stlxr retry loop). */
#ifndef C2C_ATOMICS_H
#define C2C_ATOMICS_H

enum atomics_flavour { ATOMICS_LOCK, ATOMICS_LSE, ATOMICS_LLSC };

#if defined(__aarch64__)
#define ATOMICS_CHOICES "auto,lse,llsc"
#else
#define ATOMICS_CHOICES "auto,lock"
#endif

/* Does this CPU have the LSE atomics (HWCAP_ATOMICS)? Always 0 off aarch64. */
int atomics_have_lse(void);
/* Resolve --atomics (auto: LSE where the CPU has it, else LL/SC; x86: lock). LSE on a CPU without
 * it is refused: 0, or -1 with a one-line message. */
int atomics_resolve(const char *want, int *flavour, char *err);
const char *atomics_name(int flavour);

/* *p |= v, returning the old value, with the flavour's exact instruction(s); inlined into hot
 * loops. */
#if defined(__aarch64__)
static inline __attribute__((always_inline)) long atomic_or_lse(long *p, long v)
{
	long old;
	__asm__ volatile(".arch_extension lse\n\tldsetal %x[v], %x[old], %[mem]"
			 : [old] "=r"(old), [mem] "+Q"(*p)
			 : [v] "r"(v)
			 : "memory");
	return old;
}

static inline __attribute__((always_inline)) long atomic_or_llsc(long *p, long v)
{
	long old, tmp;
	int fail;
	__asm__ volatile("1:\tldaxr %x[old], %[mem]\n\t"
			 "orr %x[tmp], %x[old], %x[v]\n\t"
			 "stlxr %w[fail], %x[tmp], %[mem]\n\t"
			 "cbnz %w[fail], 1b"
			 : [old] "=&r"(old), [tmp] "=&r"(tmp), [fail] "=&r"(fail), [mem] "+Q"(*p)
			 : [v] "r"(v)
			 : "memory");
	return old;
}
#endif
#endif
