"""Notebook 10's comparison: a small CNN against the same CNN with one spatial-attention layer,
on the generated corner-shapes task (are the two squares in opposite corners the same colour?).

Prints, for each seed, both models' parameter counts, training time (one thread) and test
accuracy, then the mean margin. The notebook trains the same models with the same recipe
(``at.CornerNet``, ``at.train_classifier``).

    .venv/bin/python benchmarks/bench_images.py            # 3 seeds, the notebook's recipe
    .venv/bin/python benchmarks/bench_images.py --seeds 0 --epochs 4
"""
from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import attnlab  # noqa: E402
import attnlab.torch as at  # noqa: E402

# The notebook's recipe (solutions/10_attention_on_images): keep the two in step.
RECIPE = {"n_train": 1000, "epochs": 12, "batch_size": 32, "lr": 3e-3, "channels": 32}
TARGET_MARGIN = 0.20  # the attention model beats the CNN by at least 20 points of accuracy


def run(seed: int, recipe: dict) -> dict:
    X_train, y_train, _ = attnlab.corner_shapes(recipe["n_train"], seed=2 * seed)
    X_test, y_test, _ = attnlab.corner_shapes(2000, seed=2 * seed + 1)
    out = {}
    for name, attention in (("CNN", False), ("CNN + attention", True)):
        torch.manual_seed(seed)
        model = at.CornerNet(recipe["channels"], attention=attention)
        fit = at.train_classifier(model, X_train, y_train, epochs=recipe["epochs"],
                                  batch_size=recipe["batch_size"], lr=recipe["lr"], seed=seed)
        out[name] = {"parameters": at.count_parameters(model), "seconds": fit["seconds"],
                     "train loss": fit["loss"], "accuracy": at.accuracy(model, X_test, y_test)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--epochs", type=int, default=RECIPE["epochs"])
    parser.add_argument("--n-train", type=int, default=RECIPE["n_train"])
    parser.add_argument("--channels", type=int, default=RECIPE["channels"])
    parser.add_argument("--lr", type=float, default=RECIPE["lr"])
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # as in the notebook: one thread, comparable on any machine
    recipe = dict(RECIPE, epochs=args.epochs, n_train=args.n_train, channels=args.channels, lr=args.lr)
    print(f"recipe: {recipe}, torch {torch.__version__}, {os.cpu_count()} cores, 1 thread")
    margins = []
    for seed in args.seeds:
        result = run(seed, recipe)
        for name, r in result.items():
            print(f"seed {seed}  {name:16s} {r['parameters']:6d} parameters  {r['seconds']:6.1f} s  "
                  f"train loss {r['train loss']:.3f}  test accuracy {r['accuracy']:.1%}", flush=True)
        margins.append(result["CNN + attention"]["accuracy"] - result["CNN"]["accuracy"])
    mean = float(np.mean(margins))
    print(f"attention - CNN test accuracy: {mean:+.1%} on average over {len(margins)} seed(s) "
          f"(each: {', '.join(f'{m:+.1%}' for m in margins)}); target >= +{TARGET_MARGIN:.0%}: "
          f"{'met' if min(margins) >= TARGET_MARGIN else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
