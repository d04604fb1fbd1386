# The harness's own alarm fired at once from a cell: a timeout claimed without running long.
CASE = {"cls": "channel", "kind": "inproc", "cell": "import signal\nsignal.setitimer(signal.ITIMER_REAL, 0.01)\nimport time\ntime.sleep(1)\n", "claims": ["timed out"]}
