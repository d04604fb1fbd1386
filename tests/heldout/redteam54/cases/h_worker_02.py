# Honest: a learner that reads its limits, CPU count and load.
W = "import os, resource\nprint(resource.getrlimit(resource.RLIMIT_NOFILE), os.cpu_count(), len(os.sched_getaffinity(0)), os.getloadavg())\n"
CASE = {"cls": "worker", "kind": "slot", "honest": True, "writer": {"cell_end": W}}
