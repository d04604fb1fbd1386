# Honest: a thread pool used and shut down inside a cell (concurrent.futures), plus a daemon-free threading.Timer that has fired and ended before the calls.
C = 'import concurrent.futures as cf, threading, time\nimport numpy as np\nwith cf.ThreadPoolExecutor(max_workers=2) as ex:\n    sums = list(ex.map(lambda k: float(np.sum(np.arange(k))), range(50)))\ndone = threading.Event()\nt = threading.Timer(0.05, done.set)\nt.start()\ndone.wait(5)\nt.join()\nprint(sum(sums))\n'
CASE = {"cls": "honest", "kind": "inproc", "cell": C}
