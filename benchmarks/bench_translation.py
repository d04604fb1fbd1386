"""Evaluate notebooks 07 and 09's translation models on the test split and print the issues' targets.

    .venv/bin/python benchmarks/bench_translation.py                    # the committed checkpoints
    .venv/bin/python benchmarks/bench_translation.py --retrain          # train the four models first
    .venv/bin/python benchmarks/bench_translation.py --retrain --seed 1 --compare
                                       # another seed, compared with the committed checkpoints (seed 0)

Prints BLEU (corpus BLEU-4, `attnlab.translation_metrics.corpus_bleu`), exact match and alignment
accuracy (teacher-forced attention peak against the gold alignment) for each model, the BLEU and
exact-match curves by source length, and PASS/FAIL for every target. `--retrain` trains into a
temporary folder (or `--out`) with `benchmarks/train_translation.py`'s recipe and times it.

Notebook 09's figures: the Transformer against the best RNN with attention (BLEU overall and on
31+ words), its training cost against that RNN's (the time of one training step of each, measured
back to back on one thread on the same batches, times the steps of each recipe: comparable even
on a busy machine, unlike the wall-clock times stored in the checkpoints), the BLEU lost without
positional encodings, and greedy decoding with the key-value cache against recomputation
(largest logit difference in float32, and the times against the output length: the crossover).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

import attnlab.torch as at
from attnlab import toylang
from attnlab.torch import translation as tr

sys.path.insert(0, str(Path(__file__).parent))
import train_translation  # noqa: E402

ATTENTION = ("additive", "dot", "general")
BUDGET_S = 15 * 60


def evaluate_dir(directory: Path | None) -> tuple[dict, dict]:
    data = tr.splits()
    results, seconds = {}, {}
    kinds = tr.KINDS + tuple(k for k in tr.TRANSFORMER_KINDS if tr.checkpoint_path(k, directory).exists())
    for kind in kinds:
        model, blob = tr.load_checkpoint(tr.checkpoint_path(kind, directory))
        results[kind] = tr.evaluate(model, data["test"])
        seconds[kind] = blob["history"]["seconds"]
    return results, seconds


def print_results(results: dict, seconds: dict) -> None:
    print(f"{'model':26s} {'BLEU':>6s} {'exact':>7s} {'align':>7s} {'BLEU 31+':>9s} {'exact 31+':>10s} {'train s':>8s}")
    for kind, r in results.items():
        align = r["all"].get("align")
        align_s = f"{100 * align:6.1f}%" if align is not None else "      -"
        print(f"{tr.LABELS[kind]:26s} {r['all']['bleu']:6.1f} {100 * r['all']['exact']:6.1f}% {align_s} "
              f"{r['long']['bleu']:9.1f} {100 * r['long']['exact']:9.1f}% {seconds[kind]:8.0f}")
    buckets = list(results["none"]["buckets"])
    for what, scale in (("BLEU", 1), ("exact match %", 100)):
        key = "bleu" if what == "BLEU" else "exact"
        print(f"\n{what + ' by source length':26s} " + " ".join(f"{b:>7s}" for b in buckets))
        for kind, r in results.items():
            print(f"{tr.LABELS[kind]:26s} " + " ".join(f"{scale * r['buckets'][b][key]:7.1f}" for b in buckets))
    print(f"{'sentences per bucket':26s} " + " ".join(f"{results['none']['buckets'][b]['n']:7d}" for b in buckets))


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
    total = sum(seconds[k] for k in tr.KINDS)
    rows.append((f"four models trained in {total / 60:.1f} min <= 15 min", total <= BUDGET_S))
    if other is not None:
        for kind in tr.KINDS:
            a, b = results[kind]["all"]["bleu"], other[kind]["all"]["bleu"]
            rows.append((f"{tr.LABELS[kind]}: two seeds {a:.1f} and {b:.1f} within 2 BLEU", abs(a - b) <= 2))
    return rows


def step_seconds(model, batches: list[dict], repeats: int = 2) -> float:
    """Median seconds of one training step (forward, loss, backward, Adam) over the batches."""
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    times = []
    for _ in range(repeats):
        for t in batches:
            start = time.perf_counter()
            logits, _ = model(t["src"], t["src_mask"], t["tgt_in"])
            loss = tr.sequence_loss(logits, t["tgt_out"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            times.append(time.perf_counter() - start)
    return float(np.median(times))


def transformer_figures(results: dict, directory: Path | None) -> list[tuple[str, bool]]:
    """Notebook 09: the Transformer against the best RNN with attention, positions, the cache."""
    if "transformer" not in results:
        print("\nno Transformer checkpoint: run `make checkpoints`")
        return [("Transformer checkpoint present", False)]
    rnn = max(ATTENTION, key=lambda k: results[k]["all"]["bleu"])
    best, ours = results[rnn], results["transformer"]
    rows = [(f"Transformer BLEU {ours['all']['bleu']:.1f} >= best RNN ({tr.LABELS[rnn]}) {best['all']['bleu']:.1f}",
             ours["all"]["bleu"] >= best["all"]["bleu"]),
            (f"Transformer BLEU on 31+ words {ours['long']['bleu']:.1f} >= {tr.LABELS[rnn]} {best['long']['bleu']:.1f}",
             ours["long"]["bleu"] >= best["long"]["bleu"])]

    # training cost: one step of each on the same batches, back to back, one thread
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    data = tr.splits()
    src_vocab, tgt_vocab = toylang.vocabularies()
    rng = np.random.default_rng(0)
    batches = [tr.to_tensors([data["train"][i] for i in idx], src_vocab, tgt_vocab)
               for idx in rng.choice(len(data["train"]), size=(12, 64), replace=False)]
    configs = {rnn: tr.load_checkpoint(tr.checkpoint_path(rnn, directory))[1]["config"],
               "transformer": tr.load_checkpoint(tr.checkpoint_path("transformer", directory))[1]["config"]}
    per_step, steps = {}, {}
    for kind, config in configs.items():
        config = tr.TrainConfig(**config)
        model = tr.build_model(config)
        step_seconds(model, batches[:2], repeats=1)  # warm-up
        per_step[kind] = step_seconds(model, batches)
        steps[kind] = int(config.epochs * np.ceil(len(data["train"]) / config.batch_size))
    cost = {kind: per_step[kind] * steps[kind] for kind in configs}
    print(f"\nTraining cost on one thread (median step of 64 pairs x steps of the recipe):")
    for kind in configs:
        print(f"  {tr.LABELS[kind]:20s} {1e3 * per_step[kind]:6.1f} ms x {steps[kind]:5d} steps = {cost[kind]:6.0f} s "
              f"({1e3 * per_step[kind] * steps[kind] / configs[kind]['epochs'] / 1e3:5.1f} s per epoch)")
    rows.append((f"Transformer training cost {cost['transformer']:.0f} s <= {tr.LABELS[rnn]}'s {cost[rnn]:.0f} s "
                 "(same thread, same batches)", cost["transformer"] <= cost[rnn]))

    if "transformer_nopos" in results:
        lost = ours["all"]["bleu"] - results["transformer_nopos"]["all"]["bleu"]
        print(f"\nWithout positional encodings: BLEU {results['transformer_nopos']['all']['bleu']:.1f} "
              f"(-{lost:.1f}), on 31+ words {results['transformer_nopos']['long']['bleu']:.1f}")
        rows.append((f"positions removed: BLEU lost {lost:.1f} (reported; > 0 expected)", lost > 0))

    # the key-value cache: equal to recomputation, and faster from some length on
    model = tr.load_checkpoint(tr.checkpoint_path("transformer", directory))[0]
    t = tr.to_tensors(data["test"][:64], src_vocab, tgt_vocab)
    tok_c, log_c = at.decode_with_cache(model, t["src"], t["src_mask"], 60)
    tok_r, log_r = at.decode_by_recomputation(model, t["src"], t["src_mask"], 60)
    diff = float((log_c - log_r).abs().max())
    scale = float(log_r.abs().max())
    prob_diff = float((log_c.softmax(-1) - log_r.softmax(-1)).abs().max())
    rows.append((f"cache == recomputation on 64 test sentences x 60 steps (float32): same tokens, logits within "
                 f"{diff:.1e} = {diff / scale:.1e} of the largest logit ({scale:.1f}) <= 1e-6, probabilities within "
                 f"{prob_diff:.1e}", bool(torch.equal(tok_c, tok_r)) and diff <= 1e-6 * scale))
    print("\nGreedy decoding of one sentence, best of 5 (ms):   T  cache  recomputation  ratio")
    crossover = None
    one = {k: t[k][:1] for k in ("src", "src_mask")}
    for T in (1, 2, 4, 8, 16, 32, 64, 96):
        timing = {}
        for name, fn in (("cache", at.decode_with_cache), ("recompute", at.decode_by_recomputation)):
            best_t = float("inf")
            for _ in range(5):
                start = time.perf_counter()
                fn(model, one["src"], one["src_mask"], T)
                best_t = min(best_t, time.perf_counter() - start)
            timing[name] = best_t
        ratio = timing["recompute"] / timing["cache"]
        if ratio <= 1:
            crossover = None  # the crossover: the cache is faster from here on, at every longer length
        elif crossover is None:
            crossover = T
        print(f"{'':49s}{T:3d} {1e3 * timing['cache']:6.1f} {1e3 * timing['recompute']:13.1f} {ratio:6.2f}")
    rows.append((f"cache faster than recomputation at every length from T = {crossover} tokens on",
                 crossover is not None))
    torch.set_num_threads(threads)
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
    rows = targets(results, seconds, other) + transformer_figures(results, directory)
    for text, ok in rows:
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    return 0 if all(ok for _, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
