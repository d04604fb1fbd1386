# The whole process group reniced.
W = 'import os\nos.setpriority(os.PRIO_PGRP, 0, 15)\n'
CASE = {"cls": "worker", "kind": "slot", "writer": {"cell_end": W}}
