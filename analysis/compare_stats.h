/* The two-sample statistics live in stats/compare_stats.h (the run summary uses them too); this
 * header forwards there so analysis/ code can keep naming its old place. */
#ifndef C2C_ANALYSIS_COMPARE_STATS_H
#define C2C_ANALYSIS_COMPARE_STATS_H
#include "stats/compare_stats.h"
#endif
