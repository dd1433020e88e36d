/* libFuzzer target: `preset --resume` reading a kept CSV's rows against its run's options
 * (runner/preset_config.c) on hostile CSV text: quotes, cut rows, huge fields, columns missing or
 * repeated. Must never crash, hang, leak or read out of bounds; a CSV it does not keep is named
 * with a reason. */
#include "harness/bench.h"
#include "runner/preset_config.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char *args[] = { "--layout", "shared,aligned", "--duration", "0.02", "--warmup",
				"0.01",     "--reps",         "2",          "--seed",   "7",
				"--placement", "auto",        "--keep-invalid" };
	struct preset_run r = { .name = "a", .bench = "pending-bit", .line = 1,
				.nargs = (int)(sizeof(args) / sizeof(args[0])) };
	char why[600] = "";
	if (size > (1 << 20))
		return 0;
	memcpy(r.argv, args, sizeof(args));
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	if (!resume_same_rows(text, "01-a.csv", &r, why, sizeof(why)) && !why[0])
		abort(); /* a CSV not kept says why */
	free(text);
	return 0;
}
