# Files beside the notebook named with bytes that are not UTF-8, a newline and an escape, listed and printed by a cell. Warm.
C = "import os, glob\nfor n in sorted(os.listdir('.')):\n    print(repr(n), n)\nprint(glob.glob('*'))\n"
CASE = {"cls": "stop", "kind": "batch", "cell": C, "files": {"\udcff\udcfe data.txt": "x", "line\nbreak\x1b[2J.txt": "y", "\u202eevil.txt": "z"}}
