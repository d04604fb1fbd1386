"""``python tools/blind_trial/score.py FOLDER ...``: a blind trial's figures from its log alone: per
notebook, each item (exercise or prediction, by card) and whether it needed a hint or failed at
least once before it passed (an unimplemented exercise or an unanswered prediction is not a
failure; a prediction is judged by the answer logged when the learner revealed what follows it)."""
import contextlib, io, json, sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
import attnlab.checks as checks

def card_of(check):
    fn = getattr(checks, check, None)
    mod = getattr(fn, "__module__", "") or ""
    return mod.rsplit(".", 1)[-1] if ".cards." in mod else check

HINT_CARD = {}  # (nb, k) -> card, from the folded text's order
def hints_to_cards(folder, nn):
    import re
    (text,) = Path(folder).glob(f"{nn}_*.txt")
    t = text.read_text()
    out = {}
    # a hint belongs to the next solution cell's exercise: map hint k to the next 'check_' card after it
    for m in re.finditer(rf"hint {nn} (\d+)`", t):
        k = int(m.group(1)); rest = t[m.end():]
        c = re.search(r"^(check_\w+)\(", rest, re.M)
        out[k] = card_of(c.group(1)) if c else "?"
    return out

for folder in sys.argv[1:]:
    secret = Path(folder + ".hidden")
    log = [json.loads(l) for l in (secret / "log.jsonl").read_text().splitlines()] if (secret / "log.jsonl").exists() else []
    print(f"== {folder}: {len(log)} events")
    for nn in sorted({p.name[:2] for p in Path(folder).glob("[0-9][0-9]_*.txt")}):
        hmap = hints_to_cards(folder, nn)
        status = defaultdict(lambda: {"hint": 0, "failed": 0, "passed": False, "unimplemented": 0})
        for e in log:
            if e.get("nb") != nn:
                continue
            if e["event"] == "hint":
                status[hmap.get(e["k"], "?")]["hint"] += 1
            elif e["event"] == "next":
                import ast
                for name, value in e["answers"].items():
                    st = status[name]
                    if st["passed"] or st["failed"]:
                        continue
                    try:
                        with contextlib.redirect_stdout(io.StringIO()):  # the check's own message
                            getattr(checks, "check_" + name)(ast.literal_eval(value))
                        st["passed"] = True
                    except Exception:
                        st["failed"] += 1
            elif e["event"] == "run":
                for c in e["checks"]:
                    s = status[card_of(c["check"])]
                    if s["passed"]:
                        continue
                    if c["ok"]:
                        s["passed"] = True
                    elif "not implemented yet" in c["output"] or "not answered yet" in c["output"] or "NotImplementedError" in c["output"]:
                        s["unimplemented"] += 1
                    else:
                        s["failed"] += 1
        items = sorted(status)
        hard = [i for i in items if status[i]["hint"] or status[i]["failed"]]
        print(f"  notebook {nn}: {len(hard)} of {len(items)} items needed a hint or failed at least once")
        for i in items:
            s = status[i]
            print(f"    {i:40s} hints {s['hint']}  failed {s['failed']}  passed {s['passed']}")
