"""Attention at scale, against the machine's own limits: ratios measured in one run.

    .venv/bin/python benchmarks/bench_attention.py [--threads N] [--repeat R]

Prints one table:

1. the numpy reference ``attnlab.scaled_dot_product_attention`` at Lq = Lk = 1024, Dk = Dv = 64,
   as a fraction of the machine's matmul throughput: the time of the same FLOPs done by two bare
   ``@`` (``Q @ K.T`` and an (Lq, Lk) x (Lk, Dv) product) over the time of the whole call
   (target >= 60%);
2. ``attnlab.torch.MultiHeadAttention`` forward against ``torch.nn.MultiheadAttention`` (same
   weights, returning its head-averaged weights as by default) and against four ``nn.Linear`` +
   ``F.scaled_dot_product_attention`` (target: within 1.3x of ``nn.MultiheadAttention``);
3. ``attnlab.tiled_attention`` in float32: its extra memory at L = 16384, Dk = 64 (target
   <= 64 MiB, where the naive weights alone take 1 GiB) and its time against naive float32
   attention at L = 2048 (target within 2x);
4. when ``torch.cuda.is_available()``: figure 2 on the GPU, and the torch tiled attention's peak
   GPU memory at L = 16384 against ``F.scaled_dot_product_attention``'s.

Each figure runs ``--repeat`` rounds; a round calls every candidate once, back to back, and a
ratio is the median over the rounds of the ratio within a round, so that load from other
programs (this is meant to run on shared machines) hits both sides of a ratio alike. Times
shown are medians. CPU
figures use ``--threads`` threads (default 1: numpy's elementwise work and the Python loop of
tiled attention use one core anyway, and on a shared machine multi-threaded BLAS waits on busy
cores; pass ``--threads 0`` to keep the libraries' defaults).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
import tracemalloc
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from threadpoolctl import threadpool_limits
from torch import nn

import attnlab
import attnlab.torch as at

MiB = 2**20


@dataclass
class Row:
    figure: str
    value: str
    target: str
    ok: bool | None  # None: information, no target

    def verdict(self) -> str:
        return "" if self.ok is None else ("ok" if self.ok else "MISSED")


def timed_rounds(candidates: dict, repeat: int, sync=None) -> dict[str, np.ndarray]:
    """Seconds of each zero-argument callable in each of ``repeat`` rounds; a round calls every
    candidate once, back to back, so that a ratio within a round compares them under the same
    load."""
    for fn in candidates.values():  # warm-up (allocations, lazy initialisation)
        fn()
    times: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(repeat):
        for name, fn in candidates.items():
            if sync:
                sync()
            start = time.perf_counter()
            fn()
            if sync:
                sync()
            times[name].append(time.perf_counter() - start)
    return {name: np.array(t) for name, t in times.items()}


def ratio(times: dict[str, np.ndarray], a: str, b: str) -> float:
    """The median over the rounds of time(a) / time(b)."""
    return float(np.median(times[a] / times[b]))


def ms(times: dict[str, np.ndarray], name: str) -> str:
    return f"{np.median(times[name]) * 1e3:.2f} ms"


# ---------------------------------------------------------------------------------------------
# 1. numpy scaled dot-product attention against bare matmul

def numpy_sdpa_vs_matmul(repeat: int) -> list[Row]:
    L, Dk = 1024, 64
    rng = np.random.default_rng(0)
    Q, K, V = (rng.standard_normal((L, Dk)) for _ in range(3))
    W = rng.random((L, L))
    times = timed_rounds({
        "matmul": lambda: (Q @ K.T, W @ V),  # (Lq, Dk) x (Dk, Lk) and (Lq, Lk) x (Lk, Dv)
        "sdpa": lambda: attnlab.scaled_dot_product_attention(Q, K, V),
    }, repeat)
    fraction = ratio(times, "matmul", "sdpa")
    gflops = 4 * L * L * Dk / np.median(times["matmul"]) / 1e9
    return [Row(f"numpy SDPA, Lq = Lk = {L}, Dk = Dv = {Dk}, float64: fraction of matmul throughput",
                f"{fraction:.0%} ({ms(times, 'sdpa')} vs {ms(times, 'matmul')} of bare @, "
                f"{gflops:.0f} GFLOP/s)", ">= 60%", fraction >= 0.60)]


# ---------------------------------------------------------------------------------------------
# 2. torch multi-head attention

def mha_rows(device: torch.device, repeat: int, B=8, L=256, D=256, H=8) -> list[Row]:
    torch.manual_seed(0)
    ours = at.MultiHeadAttention(D, H).to(device).eval()
    ref = nn.MultiheadAttention(D, H, bias=False, batch_first=True).to(device).eval()
    with torch.no_grad():  # the same weights in both: nn.Linear stores W.T
        ref.in_proj_weight.copy_(torch.cat([ours.W_q.weight, ours.W_k.weight, ours.W_v.weight]))
        ref.out_proj.weight.copy_(ours.W_o.weight)
    X = torch.randn(B, L, D, device=device)

    def fused():  # four projections around the fused attention kernel
        q, k, v = (lin(X).view(B, L, H, D // H).transpose(1, 2) for lin in (ours.W_q, ours.W_k, ours.W_v))
        return ours.W_o(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, L, D))

    with torch.no_grad():
        expected = ref(X, X, X, need_weights=False)[0]
        assert torch.allclose(ours(X, X)[0], expected, atol=1e-4), "attnlab and nn.MultiheadAttention disagree"
        sync = torch.cuda.synchronize if device.type == "cuda" else None
        times = timed_rounds({
            "attnlab": lambda: ours(X, X),
            "nn.MultiheadAttention": lambda: ref(X, X, X),
            "nn.MultiheadAttention(need_weights=False)": lambda: ref(X, X, X, need_weights=False),
            "F.scaled_dot_product_attention": fused,
        }, repeat, sync)
    where = f"{device.type}" + ("" if device.type == "cuda" else f", {torch.get_num_threads()} thread(s)")
    size = f"B={B}, L={L}, D={D}, H={H}, float32, {where}"
    slower = ratio(times, "attnlab", "nn.MultiheadAttention")
    no_weights = "nn.MultiheadAttention(need_weights=False)"
    return [
        Row(f"torch MultiHeadAttention forward / nn.MultiheadAttention ({size})",
            f"{slower:.2f}x ({ms(times, 'attnlab')} vs {ms(times, 'nn.MultiheadAttention')})",
            "<= 1.3x", slower <= 1.3),
        Row("  ... / nn.MultiheadAttention(need_weights=False) (no weights returned)",
            f"{ratio(times, 'attnlab', no_weights):.2f}x ({ms(times, no_weights)})", "", None),
        Row("  ... / 4 nn.Linear + F.scaled_dot_product_attention (no weights returned)",
            f"{ratio(times, 'attnlab', 'F.scaled_dot_product_attention'):.2f}x "
            f"({ms(times, 'F.scaled_dot_product_attention')})", "", None),
    ]


# ---------------------------------------------------------------------------------------------
# 3. tiled attention in float32

def naive_f32(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Naive attention that keeps float32 (the library reference computes in float64), with
    in-place steps: the (L, L) matrix is allocated once. The fair baseline for tiling."""
    S = Q @ K.T  # (Lq, Dk) x (Dk, Lk) -> (Lq, Lk)
    S *= np.float32(1 / math.sqrt(Q.shape[-1]))
    S -= S.max(axis=-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(axis=-1, keepdims=True)
    return S @ V  # (Lq, Lk) x (Lk, Dv) -> (Lq, Dv)


def traced_peak(fn, *args) -> int:
    """Peak bytes that numpy allocates while ``fn(*args)`` runs (inputs excluded, output included)."""
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def tiled_rows(repeat: int, tile_size: int = 512) -> list[Row]:
    rng = np.random.default_rng(1)
    rows = []
    L, Dk = 16384, 64
    Q, K, V = (rng.standard_normal((L, Dk), dtype=np.float32) for _ in range(3))
    start = time.perf_counter()
    peak = traced_peak(attnlab.tiled_attention, Q, K, V, tile_size)
    seconds = time.perf_counter() - start
    naive_weights = L * L * 4
    rows.append(Row(f"tiled attention, L = {L}, Dk = Dv = {Dk}, float32, tiles of {tile_size}: extra memory",
                    f"{peak / MiB:.1f} MiB (naive weights alone: {naive_weights / MiB:.0f} MiB; "
                    f"{seconds:.1f} s under tracemalloc)", "<= 64 MiB", peak <= 64 * MiB))
    L = 2048
    Q, K, V = (rng.standard_normal((L, Dk), dtype=np.float32) for _ in range(3))
    out, _ = attnlab.tiled_attention(Q, K, V, tile_size)
    assert np.allclose(out, naive_f32(Q, K, V), atol=1e-5)
    times = timed_rounds({"naive": lambda: naive_f32(Q, K, V),
                          "tiled": lambda: attnlab.tiled_attention(Q, K, V, tile_size)}, repeat)
    slower = ratio(times, "tiled", "naive")
    rows.append(Row(f"tiled / naive attention time, L = {L}, Dk = Dv = {Dk}, float32, tiles of {tile_size}",
                    f"{slower:.2f}x ({ms(times, 'tiled')} vs {ms(times, 'naive')})", "<= 2x", slower <= 2.0))
    return rows


# ---------------------------------------------------------------------------------------------
# 4. the GPU

def gpu_tiled_rows(device: torch.device, L=16384, Dk=64, tile_size=1024) -> list[Row]:
    torch.manual_seed(0)
    Q, K, V = (torch.randn(L, Dk, device=device) for _ in range(3))

    def peak(fn) -> int:
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        fn()
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated() - base

    tiled = peak(lambda: at.tiled_attention(Q, K, V, tile_size))
    fused = peak(lambda: F.scaled_dot_product_attention(Q[None], K[None], V[None]))
    return [Row(f"GPU torch tiled attention, L = {L}, Dk = {Dk}, float32, tiles of {tile_size}: extra memory",
                f"{tiled / MiB:.1f} MiB (F.scaled_dot_product_attention: {fused / MiB:.1f} MiB)",
                "<= 64 MiB", tiled <= 64 * MiB)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1,
                        help="CPU threads for BLAS and torch (0: the libraries' defaults; default 1)")
    parser.add_argument("--repeat", type=int, default=30, help="rounds per figure (default 30)")
    args = parser.parse_args()
    threads = args.threads or None
    if threads:
        torch.set_num_threads(threads)
    cpu = os.cpu_count()
    print(f"machine: {cpu} CPU cores (nproc), numpy {np.__version__}, torch {torch.__version__}, "
          f"threads: {threads or 'library defaults'}; GPU: "
          f"{torch.cuda.get_device_name() if torch.cuda.is_available() else 'none'}")
    rows: list[Row] = []
    with threadpool_limits(limits=threads):
        rows += numpy_sdpa_vs_matmul(args.repeat)
        rows += mha_rows(torch.device("cpu"), args.repeat)
        rows += tiled_rows(max(5, args.repeat // 3))
    if torch.cuda.is_available():
        rows += mha_rows(torch.device("cuda"), args.repeat)
        rows += gpu_tiled_rows(torch.device("cuda"))
    width = max(len(r.figure) for r in rows)
    value_width = max(len(r.value) for r in rows)
    print(f"{'figure':{width}s}  {'measured':{value_width}s}  {'target':8s}  verdict")
    for r in rows:
        print(f"{r.figure:{width}s}  {r.value:{value_width}s}  {r.target:8s}  {r.verdict()}")
    return 0 if all(r.ok is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
