# Honest: a learner that renices only itself, pins itself to its own CPUs and reads its parent's status file (a benchmark cell).
W = "import os\nos.nice(3)\nos.sched_setaffinity(0, os.sched_getaffinity(0))\nwith open('/proc/%d/status' % os.getppid()) as f:\n    print(f.readline().strip())\nprint(len(os.listdir('/proc/self/task')))\n"
CASE = {"cls": "worker", "kind": "slot", "honest": True, "writer": {"cell_end": W}}
