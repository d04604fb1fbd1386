# The parent's nice value raised.
W = 'import os\nos.setpriority(os.PRIO_PROCESS, os.getppid(), 19)\n'
CASE = {"cls": "worker", "kind": "slot", "writer": {"cell_end": W}}
