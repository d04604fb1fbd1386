# The whole process group killed. Cold (ATTNLAB_WARM=0).
FILL = '\nimport os\nfor base in ("/tmp", "/dev/shm", "."):\n    try:\n        with open(os.path.join(base, "rt54fill.bin"), "wb") as f:\n            while True:\n                f.write(b"\\0" * (1 << 24))\n    except OSError:\n        pass\n    for k in range(30000):\n        try:\n            open(os.path.join(base, f"rt54f{k}"), "w").close()\n        except OSError:\n            break\n'
SOFTMAX = '"def softmax(x, axis=-1):\\n    x = np.asarray(x, dtype=float)\\n    shifted = x - np.max(x, axis=axis, keepdims=True)\\n    e = np.exp(shifted)\\n    return e / np.sum(e, axis=axis, keepdims=True)\\n"'
CASE = dict({"cell": "import os, signal\nos.killpg(os.getpgid(0), signal.SIGKILL)\n"}, cls="stop", kind="batch", cold=True)
