# The harness's own timeout class raised from the exercise: a grader outcome claimed.
S = "import signal\n_T = signal.getsignal(signal.SIGALRM).__globals__['_Timeout']\ndef softmax(x, axis=-1):\n    raise _T()\n"
CASE = {"cls": "channel", "kind": "inproc", "replace": {"softmax": S}, "claims": ["timed out"]}
