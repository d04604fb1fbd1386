# Honest: a helper subprocess (git-like version query) started in a cell, unrelated to any exercise.
CASE = {"cls": "honest", "kind": "inproc", "cell": "import subprocess, sys\nprint(subprocess.run([sys.executable, '--version'], capture_output=True, text=True).stdout)\n"}
