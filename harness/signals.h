/* SIGINT/SIGTERM: stop measuring, keep every whole row already written, leave no partial row. */
#ifndef C2C_SIGNALS_H
#define C2C_SIGNALS_H
#include <stdint.h>

/* First SIGINT/SIGTERM asks the run to stop; a second one exits at once (status 128+signal). */
void signals_install(void);
/* The signal that asked to stop, or 0. */
int signals_pending(void);
/* Sleep ns, returning early (1) when a stop was asked for. */
int sleep_or_stop(uint64_t ns);
#endif
