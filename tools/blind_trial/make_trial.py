"""A blind learner's folder: ``python tools/blind_trial/make_trial.py FOLDER [NN_name ...]``.

The blind trial of issue 41: a helper session plays a learner who never sees ``solutions/``,
``src/``, ``tests/`` or ``docs/``. FOLDER gets each student notebook (default: 11 and 12) as text
(``attnlab.course.nbtext``) with its hints folded, cut after its first predict-then-run question,
and ``nbtool.py`` (hint, run, next). ``next`` reveals the following part only once every
prediction shown is answered, and logs those answers, so that no answer is read before it is
committed. The log and the hidden parts live in ``FOLDER.hidden``; ``score.py FOLDER ...`` prints
the figures from the log alone.
"""
import json, re, shutil, subprocess, sys
from pathlib import Path

MAIN = Path(__file__).resolve().parents[2]
PY = MAIN / ".venv/bin/python"
dest = Path(sys.argv[1]).resolve(); dest.mkdir(parents=True, exist_ok=True)
NOTEBOOKS = sys.argv[2:] or ["11_modern_attention", "12_what_attention_learns"]
secret = Path(str(dest) + ".hidden"); secret.mkdir(exist_ok=True)
DETAILS = re.compile(r"<details><summary>(.*?)</summary>\n(.*?)</details>\n?", re.S)
for nb in NOTEBOOKS:
    nn = nb[:2]
    text = subprocess.run([str(PY), "-m", "attnlab.course.nbtext", "export", str(MAIN / "notebooks" / nb / f"{nb}.ipynb")],
                          capture_output=True, text=True, check=True).stdout
    hints = []
    def fold(m):
        hints.append({"title": m.group(1), "body": m.group(2)})
        return f"[{m.group(1)} — folded: `python nbtool.py hint {nn} {len(hints)}`]\n"
    text = DETAILS.sub(fold, text)
    blocks = re.split(r"(?m)^(?=#%%)", text)
    head = "".join(b for b in blocks if not b.startswith("#%%"))
    cells = [b for b in blocks if b.startswith("#%%")]
    # parts end after a prediction's test cell that is not followed by another prediction cell
    parts, cur = [], [head] if head else []
    for i, c in enumerate(cells):
        cur.append(c)
        is_pred_test = re.match(r"#%% tests id=test_predict_", c) is not None
        nxt = cells[i + 1] if i + 1 < len(cells) else ""
        if is_pred_test and not re.match(r"#%% (solution id=predict_|tests id=test_predict_)", nxt):
            parts.append("".join(cur)); cur = []
    if cur:
        parts.append("".join(cur))
    (secret / f"parts_{nn}.json").write_text(json.dumps(parts))
    (secret / f"hints_{nn}.json").write_text(json.dumps(hints, indent=1))
    (secret / f"revealed_{nn}").write_text("1")
    (dest / f"{nb}.txt").write_text(parts[0])
    print(nb, "parts:", len(parts))
tool = Path(__file__).with_name("nbtool.py").read_text().replace('MAIN = Path("/work/main")', f"MAIN = Path({str(MAIN)!r})")
(dest / "nbtool.py").write_text(tool)
