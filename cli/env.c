/* Each C2C_* variable the tool reads, checked at start (docs/cli.md#environment lists the same). */
#include "cli/env.h"
#include "harness/counters/evtab.h"
#include "harness/counters/fallback.h"
#include "harness/perfc2c.h"
#include "lib/infile.h"
#include "lib/util.h"
#include "runner/slurm.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "1" on, "0" or empty off. */
static int flag(const char *name, const char *v, char *err)
{
	if (*v && strcmp(v, "0") && strcmp(v, "1"))
		return err_set(err, "%s '%s' is not accepted; accepted: 1 (on), 0 or empty (off)",
			       name, v);
	return 0;
}

static int check_columns(const char *name, const char *v, char *err)
{
	return flag(name, v, err);
}

static int progress_lines(const char *name, const char *v, char *err)
{
	return flag(name, v, err);
}

static int cpuid(const char *name, const char *v, char *err)
{
	struct cpu_sig s;
	(void)name;
	(void)v;
	return cpu_sig_read(&s, err); /* reads the variable: VENDOR:FAMILY:MODEL */
}

/* Why path (followed) is not a file of kind want (S_IFREG, S_IFDIR; executable too with exe):
 * NULL when it is one. */
static const char *not_a(const char *path, mode_t want, int exe)
{
	struct stat st;
	if (stat(path, &st))
		return strerror(errno);
	if ((st.st_mode & S_IFMT) != want)
		return file_kind(st.st_mode);
	return exe && access(path, X_OK) ? "not executable" : NULL;
}

static int events_table(const char *name, const char *v, char *err)
{
	const char *why = *v ? not_a(v, S_IFREG, 0) : NULL; /* empty: the built-in table */
	if (why)
		return err_set(err, "%s '%s': %s; accepted: a regular file of at most %d KiB", name,
			       v, why, EVTAB_MAX_BYTES >> 10);
	return 0;
}

static int sysfs_root(const char *name, const char *v, char *err)
{
	const char *why = *v ? not_a(v, S_IFDIR, 0) : NULL;
	if (why)
		return err_set(err, "%s '%s': %s; accepted: a directory laid out as /sys", name, v,
			       why);
	return 0;
}

static int self_exec(const char *name, const char *v, char *err)
{
	const char *why = *v ? not_a(v, S_IFREG, 1) : NULL;
	if (why)
		return err_set(err, "%s '%s': %s; accepted: an executable file that runs c2cbench",
			       name, v, why);
	return 0;
}

/* Words of text, recorded or searched as given: no control characters. */
static int text(const char *name, const char *v, char *err)
{
	if (text_has_control(v))
		return err_set(err,
			       "%s '%s' is not accepted; accepted: text without control characters",
			       name, v);
	return 0;
}

static int perf_timeout(const char *name, const char *v, char *err)
{
	(void)name;
	(void)v;
	return perfc2c_env_check(err);
}

static int slurm_timeout(const char *name, const char *v, char *err)
{
	(void)name;
	(void)v;
	return fleet_timeout_init(err);
}

/* The table: docs/cli.md#environment says the same, one line each. */
static const struct {
	const char *name;
	int (*check)(const char *name, const char *v, char *err);
} vars[] = {
    {"C2C_CHECK_COLUMNS", check_columns},  {"C2C_CPUID", cpuid},
    {"C2C_EVENTS_TABLE", events_table},    {"C2C_PERF_TIMEOUT", perf_timeout},
    {"C2C_PRESET_PATH", text},             {"C2C_PROGRESS_LINES", progress_lines},
    {"C2C_SELF_EXEC", self_exec},          {"C2C_SLURM_CONSTRAINT", text},
    {"C2C_SLURM_TIMEOUT", slurm_timeout},  {"C2C_SYSFS_ROOT", sysfs_root},
};

int env_check(char *err)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i].name);
		if (v && vars[i].check(vars[i].name, v, err))
			return -1;
	}
	return 0;
}
