# The warm worker stopped through one of its other threads (a signal sent to a thread id, not the worker's pid). Warm.
C = '\nimport os, signal\ndef _worker_tids():\n    pp = os.getppid()\n    try:\n        return [int(t) for t in os.listdir("/proc/%d/task" % pp) if int(t) != pp]\n    except OSError:\n        return []\nfor _t in _worker_tids():\n    try:\n        os.kill(_t, signal.SIGSTOP)\n    except OSError:\n        pass\n'
CASE = {"cls": "stop", "kind": "batch", "cell": C}
