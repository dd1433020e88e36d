/* The platform table (events/platforms.tsv) compiled into the binary, so an installed c2cbench
 * needs no data path. */
__asm__(".section .rodata\n"
	".global c2c_platforms_tsv\n"
	".type c2c_platforms_tsv, @object\n"
	"c2c_platforms_tsv:\n"
	".incbin \"events/platforms.tsv\"\n"
	".byte 0\n"
	".previous\n");
