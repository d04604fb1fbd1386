"""The learner's tool. Commands (run from this folder):
  python nbtool.py hint NN K          open hint K of notebook NN (logged)
  python nbtool.py run NN [--upto N]  build the notebook from NN_*.txt and run it headless, top to
                                      bottom (or only its first N cells: cells are the '#%%' blocks
                                      of the text, counted from 1); prints every code cell's output
  python nbtool.py next NN            reveal the next part of notebook NN (after you have answered
                                      every prediction in the part you have: they are logged then
                                      as your answers)
Every run, hint and reveal is logged; do not edit the logs."""
import json, re, subprocess, sys, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SECRET = Path(str(HERE) + ".hidden")
MAIN = Path("/work/main")
PY = MAIN / ".venv/bin/python"
LOG = SECRET / "log.jsonl"


def log(entry):
    entry["time"] = time.time()
    with LOG.open("a") as f:
        f.write(json.dumps(entry) + "\n")


def text_of(nn):
    (path,) = HERE.glob(f"{nn}_*.txt")
    return path


def main(argv):
    if len(argv) >= 3 and argv[0] == "hint":
        nn, k = argv[1], int(argv[2])
        hints = json.loads((SECRET / f"hints_{nn}.json").read_text())
        h = hints[k - 1]
        log({"event": "hint", "nb": nn, "k": k, "title": h["title"]})
        print(f"{h['title']}\n\n{h['body']}")
        return 0
    if len(argv) >= 2 and argv[0] == "next":
        nn = argv[1]
        parts = json.loads((SECRET / f"parts_{nn}.json").read_text())
        shown = int((SECRET / f"revealed_{nn}").read_text())
        if shown >= len(parts):
            print(f"notebook {nn} is fully revealed"); return 0
        src = text_of(nn)
        text = src.read_text()
        open_ = re.findall(r"^(prediction_\w+)\s*=\s*None\s*$", text, re.M)
        if open_:
            print("answer these first (replace None in their cells):", ", ".join(open_)); return 1
        answers = {}
        for name in re.findall(r"^(prediction_\w+)\s*=", text, re.M):
            m = list(re.finditer(rf"^{name}\s*=\s*(.+)$", text, re.M))[-1]
            answers[name] = m.group(1).strip()
        log({"event": "next", "nb": nn, "part": shown + 1, "answers": answers})
        src.write_text(text.rstrip("\n") + "\n" + parts[shown])
        (SECRET / f"revealed_{nn}").write_text(str(shown + 1))
        print(f"revealed part {shown + 1} of {len(parts)} of notebook {nn}: read on in {src.name}")
        return 0
    if len(argv) >= 2 and argv[0] == "run":
        nn = argv[1]
        upto = int(argv[argv.index("--upto") + 1]) if "--upto" in argv else None
        src = text_of(nn)
        text = src.read_text()
        if upto is not None:
            blocks = re.split(r"(?m)^(?=#%%)", text)
            head = [b for b in blocks if not b.startswith("#%%")]
            cells = [b for b in blocks if b.startswith("#%%")]
            text = "".join(head + cells[:upto])
        work = SECRET / "build"; work.mkdir(exist_ok=True)
        (work / "nb.txt").write_text(text)
        ipynb = work / f"{src.stem}.ipynb"
        r = subprocess.run([str(PY), "-m", "attnlab.course.nbtext", "build", str(work / "nb.txt"), str(ipynb)],
                           capture_output=True, text=True)
        if r.returncode:
            print(r.stdout, r.stderr); return 1
        out = work / "out.ipynb"
        r = subprocess.run(["nice", "-n", "10", str(MAIN / ".venv/bin/jupyter"), "nbconvert", "--to", "notebook", "--execute",
                            "--allow-errors", "--ExecutePreprocessor.timeout=600", str(ipynb), "--output", str(out)],
                           capture_output=True, text=True, cwd=str(HERE))
        if not out.exists():
            print(r.stderr[-3000:]); return 1
        nb = json.loads(out.read_text())
        checks = []
        for i, cell in enumerate(nb["cells"], 1):
            if cell["cell_type"] != "code":
                continue
            texts = []
            for o in cell.get("outputs", []):
                if "text" in o:
                    texts.append("".join(o["text"]))
                elif o.get("output_type") == "error":
                    texts.append(f"{o['ename']}: {o['evalue']}")
                elif "data" in o and "text/plain" in o["data"]:
                    texts.append("".join(o["data"]["text/plain"]))
            body = "".join(cell["source"])
            output = "\n".join(texts)
            for name in re.findall(r"^(check_\w+)\(", body, re.M):
                ok = ("✓" in output) and not any(o.get("output_type") == "error" for o in cell.get("outputs", []))
                checks.append({"cell": i, "check": name, "ok": ok, "output": output[-1500:]})
            print(f"--- cell {i} ---\n{body[:400]}\n>>> output:\n{output[:4000]}")
        log({"event": "run", "nb": nn, "upto": upto, "checks": checks, "text": src.read_text()})
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
