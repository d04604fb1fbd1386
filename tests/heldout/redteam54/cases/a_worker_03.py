# The parent moved to the idle scheduling class.
W = 'import os\nos.sched_setscheduler(os.getppid(), os.SCHED_IDLE, os.sched_param(0))\n'
CASE = {"cls": "worker", "kind": "slot", "writer": {"cell_end": W}}
