/* What a preset run inside a Slurm task records about the task, so each result directory says
 * which job, array index, node, constraint and partition produced it. */
#include "runner/slurm.h"
#include <stdlib.h>

int slurm_task_env(const char *keys[], const char *vals[], int max)
{
	static const char *const map[][2] = {
	    {"slurm_job_id", "SLURM_ARRAY_JOB_ID"},
	    {"slurm_array_task_id", "SLURM_ARRAY_TASK_ID"},
	    {"slurm_node", "SLURMD_NODENAME"},
	    {"slurm_constraint", "C2C_SLURM_CONSTRAINT"},
	    {"slurm_partition", "SLURM_JOB_PARTITION"},
	    {"slurm_task_job_id", "SLURM_JOB_ID"},
	};
	int n = 0;
	if (!getenv("SLURM_JOB_ID"))
		return 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]) && n < max; i++) {
		const char *v = getenv(map[i][1]);
		if (v && *v) {
			keys[n] = map[i][0];
			vals[n++] = v;
		}
	}
	return n;
}
