# Honest: a learner prints NUL bytes and the word 'attnlab-sandbox-next', and reads stdin.
CASE = {"cls": "channel", "kind": "inproc", "honest": True, "cell": "import sys\nprint(\"\\x00attnlab-sandbox-next\\x00\")\ntry:\n    line = input()\nexcept EOFError:\n    line = ''\nprint(sys.stdin.read()[:10])\n"}
