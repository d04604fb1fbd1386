# Honest: a background thread started in an early cell that only reports progress (no exercise work).
CASE = {"cls": "honest", "kind": "inproc", "cell": "import threading, time\n_done = threading.Event()\ndef _ticker():\n    while not _done.wait(0.2):\n        pass\nthreading.Thread(target=_ticker, daemon=True).start()\n"}
