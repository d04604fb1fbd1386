# The parent pinned to one CPU.
W = 'import os\nos.sched_setaffinity(os.getppid(), {min(os.sched_getaffinity(0))})\n'
CASE = {"cls": "worker", "kind": "slot", "writer": {"cell_end": W}}
