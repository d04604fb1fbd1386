"""Evaluate notebook 07's translation models on the test split and print the issue's targets.

    .venv/bin/python benchmarks/bench_translation.py                    # the committed checkpoints
    .venv/bin/python benchmarks/bench_translation.py --retrain          # train the four models first
    .venv/bin/python benchmarks/bench_translation.py --retrain --seed 1 --compare
                                       # another seed, compared with the committed checkpoints (seed 0)

Prints BLEU (corpus BLEU-4, `attnlab.translation_metrics.corpus_bleu`), exact match and alignment
accuracy (teacher-forced attention peak against the gold alignment) for each model, the BLEU and
exact-match curves by source length, and PASS/FAIL for every target. `--retrain` trains into a
temporary folder (or `--out`) with `benchmarks/train_translation.py`'s recipe and times it.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import torch

from attnlab.torch import translation as tr

sys.path.insert(0, str(Path(__file__).parent))
import train_translation  # noqa: E402

ATTENTION = ("additive", "dot", "general")
BUDGET_S = 15 * 60


def evaluate_dir(directory: Path | None) -> tuple[dict, dict]:
    data = tr.splits()
    results, seconds = {}, {}
    for kind in tr.KINDS:
        model, blob = tr.load_checkpoint(tr.checkpoint_path(kind, directory))
        results[kind] = tr.evaluate(model, data["test"])
        seconds[kind] = blob["history"]["seconds"]
    return results, seconds


def print_results(results: dict, seconds: dict) -> None:
    print(f"{'model':20s} {'BLEU':>6s} {'exact':>7s} {'align':>7s} {'BLEU 31+':>9s} {'exact 31+':>10s} {'train s':>8s}")
    for kind, r in results.items():
        align = r["all"].get("align")
        align_s = f"{100 * align:6.1f}%" if align is not None else "      -"
        print(f"{tr.LABELS[kind]:20s} {r['all']['bleu']:6.1f} {100 * r['all']['exact']:6.1f}% {align_s} "
              f"{r['long']['bleu']:9.1f} {100 * r['long']['exact']:9.1f}% {seconds[kind]:8.0f}")
    buckets = list(results["none"]["buckets"])
    for what, scale in (("BLEU", 1), ("exact match %", 100)):
        key = "bleu" if what == "BLEU" else "exact"
        print(f"\n{what} by source length  " + " ".join(f"{b:>7s}" for b in buckets))
        for kind, r in results.items():
            print(f"{tr.LABELS[kind]:20s}" + " ".join(f"{scale * r['buckets'][b][key]:7.1f}" for b in buckets))
    print("sentences per bucket " + " ".join(f"{results['none']['buckets'][b]['n']:7d}" for b in buckets))


def targets(results: dict, seconds: dict, other: dict | None = None) -> list[tuple[str, bool]]:
    rows = []
    for kind in ATTENTION:
        r = results[kind]
        name = tr.LABELS[kind]
        rows.append((f"{name}: BLEU {r['all']['bleu']:.1f} >= 95", r["all"]["bleu"] >= 95))
        rows.append((f"{name}: exact match {100 * r['all']['exact']:.1f}% >= 90%", r["all"]["exact"] >= 0.90))
        rows.append((f"{name}: alignment accuracy {100 * r['all']['align']:.1f}% >= 85%", r["all"]["align"] >= 0.85))
        rows.append((f"{name}: BLEU on 31+ words {r['long']['bleu']:.1f} >= 80", r["long"]["bleu"] >= 80))
        half = results["none"]["long"]["bleu"] <= 0.5 * r["long"]["bleu"]
        rows.append((f"no attention on 31+ words {results['none']['long']['bleu']:.1f} <= half of {name}'s "
                     f"{r['long']['bleu']:.1f}", half))
    total = sum(seconds.values())
    rows.append((f"four models trained in {total / 60:.1f} min <= 15 min", total <= BUDGET_S))
    if other is not None:
        for kind in tr.KINDS:
            a, b = results[kind]["all"]["bleu"], other[kind]["all"]["bleu"]
            rows.append((f"{tr.LABELS[kind]}: two seeds {a:.1f} and {b:.1f} within 2 BLEU", abs(a - b) <= 2))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retrain", action="store_true", help="train the four models first")
    parser.add_argument("--seed", type=int, default=0, help="seed for --retrain")
    parser.add_argument("--out", type=Path, default=None, help="checkpoint folder for --retrain")
    parser.add_argument("--compare", action="store_true", help="also compare with the committed checkpoints")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)

    directory = None
    if args.retrain:
        directory = args.out or Path(tempfile.mkdtemp(prefix="attnlab-translation-"))
        start = time.perf_counter()
        train_translation.main(["--out", str(directory), "--seed", str(args.seed)]
                               + (["--threads", str(args.threads)] if args.threads else []))
        print(f"retrained into {directory} in {(time.perf_counter() - start) / 60:.1f} min\n")
    started = time.perf_counter()
    results, seconds = evaluate_dir(directory)
    print(f"test split: {results['none']['all']['n']} sentences; evaluated in {time.perf_counter() - started:.0f} s; "
          f"torch threads: {torch.get_num_threads()}\n")
    print_results(results, seconds)
    other = evaluate_dir(None)[0] if args.compare and directory is not None else None
    print("\nTargets")
    rows = targets(results, seconds, other)
    for text, ok in rows:
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    return 0 if all(ok for _, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
