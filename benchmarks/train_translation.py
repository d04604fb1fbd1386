"""Train the translation models of notebooks 07 and 09 and write their checkpoints (`make checkpoints`).

    .venv/bin/python benchmarks/train_translation.py [--out DIR] [--seed 0] [--epochs 7]
                                                     [--kinds none additive dot general transformer
                                                      transformer_nopos] [--threads 2]

The models (no attention, Bahdanau additive, Luong dot, Luong general) share everything but the
attention: the data (20 000 training pairs of `attnlab.toylang`, seed 0), the sizes (embeddings
64, encoder GRU 64 per direction, decoder GRU 128, additive hidden 64), the epochs, the batches
(64 pairs of similar length) and the optimiser (Adam 5e-3, cosine decay, clipping at 1).
Checkpoints hold float16 weights (under 1 MB each) and the figures measured on the test split by
the reloaded checkpoint; by default they go to `src/attnlab/checkpoints/`, where
`attnlab.torch.translation.load_pretrained` finds them. The whole run takes about 12 minutes on a
2-core CPU.

Notebook 09's Transformers (`transformer`, and `transformer_nopos` without positional encodings)
follow `attnlab.torch.translation.transformer_config`: width 64, 4 heads, feed-forward 128, two
encoder and two decoder layers, Adam 5e-3 with 200 warm-up steps and cosine decay, 5 epochs, the
same data, batches and loss as the RNNs; `--epochs` applies to the RNNs only.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

from attnlab.torch import translation as tr

EPOCHS = tr.TrainConfig.epochs  # 7
LR = tr.TrainConfig.lr  # 5e-3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=tr.CHECKPOINT_DIR, help="checkpoint folder")
    parser.add_argument("--seed", type=int, default=0, help="initialisation and batch-order seed")
    parser.add_argument("--epochs", type=float, default=EPOCHS)
    parser.add_argument("--kinds", nargs="+", default=list(tr.KINDS + tr.TRANSFORMER_KINDS),
                        choices=tr.KINDS + tr.TRANSFORMER_KINDS)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads while training (default 1: fastest for these small models, "
                             "and robust on a shared CPU; 0 keeps torch's default)")
    args = parser.parse_args(argv)
    threads = args.threads or None
    if threads:
        torch.set_num_threads(threads)

    start = time.perf_counter()
    data = tr.splits()
    print(f"data: {len(data['train'])} train / {len(data['valid'])} valid / {len(data['test'])} test pairs "
          f"({time.perf_counter() - start:.1f} s); torch threads: {torch.get_num_threads()}", flush=True)
    rows = []
    for kind in args.kinds:
        if kind in tr.TRANSFORMER_KINDS:
            config = tr.transformer_config(kind, seed=args.seed)
        else:
            config = tr.TrainConfig(attention=kind, epochs=args.epochs, lr=LR, seed=args.seed)
        model, history = tr.train(config, data, log=lambda line: print(line, flush=True), threads=threads)
        path = tr.save_checkpoint(model, config, history, tr.checkpoint_path(kind, args.out))
        reloaded, _ = tr.load_checkpoint(path)  # float16 weights: measure what is committed
        figures = tr.evaluate(reloaded, data["test"])
        tr.save_checkpoint(model, config, history, path, figures)
        a = figures["all"]
        rows.append((kind, history.seconds, a["bleu"], a["exact"], a.get("align"), figures["long"]["bleu"],
                     path.stat().st_size))
        print(f"{tr.LABELS[kind]:26s} trained in {history.seconds:5.0f} s: BLEU {a['bleu']:.1f}, "
              f"exact {100 * a['exact']:.1f}%, BLEU 31+ {figures['long']['bleu']:.1f} -> {path}", flush=True)

    print(f"\n{'model':26s} {'train s':>8s} {'BLEU':>6s} {'exact':>7s} {'align':>7s} {'BLEU 31+':>9s} {'size':>8s}")
    for kind, seconds, bleu, exact, align, long_bleu, size in rows:
        align_s = f"{100 * align:6.1f}%" if align is not None else "      -"
        print(f"{tr.LABELS[kind]:26s} {seconds:8.0f} {bleu:6.1f} {100 * exact:6.1f}% {align_s} {long_bleu:9.1f} "
              f"{size / 1e6:6.2f} MB")
    print(f"training: {sum(r[1] for r in rows) / 60:.1f} min; whole run: {(time.perf_counter() - start) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
