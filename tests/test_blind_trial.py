"""The blind trial's tools (tools/blind_trial/): a learner's folder shows a notebook only up to its
next predict-then-run question, ``next`` refuses while a shown prediction is unanswered and logs
the answers it reveals past, and the score judges those answers with the course's own checks."""
from __future__ import annotations

import json
import subprocess
import sys

import coursekit as ck

TOOLS = ck.ROOT / "tools" / "blind_trial"


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_a_prediction_is_committed_before_its_answer_is_shown(tmp_path):
    folder = tmp_path / "learner"
    made = _run(TOOLS / "make_trial.py", folder, "11_modern_attention")
    assert made.returncode == 0, made.stderr
    text = folder / "11_modern_attention.txt"
    first = text.read_text()
    assert first.rstrip().endswith("check_prediction_shifted_scores(prediction_shifted_scores)")
    assert "<details>" not in first and "folded" in first          # hints folded
    assert "unchanged, and" not in first.lower()                   # nothing after the question
    refused = _run(folder / "nbtool.py", "next", "11", cwd=folder)
    assert refused.returncode == 1 and "prediction_shifted_scores" in refused.stdout
    text.write_text(first.replace("prediction_shifted_scores = None", 'prediction_shifted_scores = "every score changes"'))
    revealed = _run(folder / "nbtool.py", "next", "11", cwd=folder)
    assert revealed.returncode == 0, revealed.stdout + revealed.stderr
    assert len(text.read_text()) > len(first)
    log = [json.loads(line) for line in (tmp_path / "learner.hidden" / "log.jsonl").read_text().splitlines()]
    assert log[-1]["answers"] == {"prediction_shifted_scores": '"every score changes"'}
    score = _run(TOOLS / "score.py", folder)
    assert "notebook 11: 1 of 1 items needed a hint or failed at least once" in score.stdout, score.stdout
