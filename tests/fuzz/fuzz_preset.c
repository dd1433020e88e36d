/* libFuzzer target: the preset parser (inih + the benches' option tables) on hostile INI text.
 * Must never crash, hang, leak or read out of bounds; a bad file is a one-line error. */
#include "harness/bench.h"
#include "runner/preset.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[ERRLEN] = "";
	struct preset p;
	if (size > (1 << 16))
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	if (!preset_parse(&p, "fuzz.ini", text, size, err))
		preset_free(&p);
	else if (strchr(err, '\n'))
		abort(); /* errors are one line */
	return 0;
}
