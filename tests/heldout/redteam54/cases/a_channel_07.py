# Python's own MemoryError raised by a cell: out of memory claimed.
CASE = {"cls": "channel", "kind": "inproc", "cell": "raise MemoryError('pretend')\n", "claims": ["out of memory"]}
