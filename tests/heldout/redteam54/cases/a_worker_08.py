# The parent's nice value raised through a helper process the cell starts.
W = "import os, subprocess, sys\nsubprocess.run([sys.executable, '-c', 'import os; os.setpriority(os.PRIO_PROCESS, %d, 12); os.sched_setaffinity(%d, {0})' % (os.getppid(), os.getppid())])\n"
CASE = {"cls": "worker", "kind": "slot", "writer": {"cell_end": W}}
