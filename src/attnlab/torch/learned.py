"""Torch twins of ``attnlab.learned`` (notebook 12) and the three small models it trains.

* ``LinearSelfAttention``: the in-context regression layer, with ``W_kq`` and ``W_pv`` as
  parameters; ``train_icl`` trains it on fresh random linear tasks at every step.
* ``AttentionOnlyTransformer``: token and position embeddings, causal attention-only layers
  (no MLP, no layer norm) with residual connections, an unembedding; it returns the per-head
  weights of every layer and can ablate a head (zero its output); ``train_induction`` trains it
  on random sequences repeated twice.
* ``DecomposableAttention``: attend (``soft_align``), compare, aggregate (Parikh et al. 2016).

Same shape letters and semantics as the numpy module.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import torch
from torch import nn

from .._validate import fmt, require_int, require_ndim


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def icl_prompt(X: torch.Tensor, y: torch.Tensor, x_query: torch.Tensor) -> torch.Tensor:
    """Pack a regression prompt: ``Z (..., N+1, d+1)`` with rows ``[x_i, y_i]`` and a last row
    ``[x_query, 0]``; the twin of ``attnlab.icl_prompt``."""
    X, y, x_query = _float(X), _float(y), _float(x_query)
    require_ndim(X, "X", ("N", "d"))
    require_ndim(y, "y", ("N",))
    require_ndim(x_query, "x_query", ("d",))
    *batch, N, d = X.shape
    if tuple(y.shape) != tuple(X.shape[:-1]):
        raise ValueError(f"y: expected shape {fmt([*batch, N])} (one target per row of X), got {fmt(y.shape)}")
    if tuple(x_query.shape) != (*batch, d):
        raise ValueError(f"x_query: expected shape {fmt([*batch, d])} (one input like a row of X), "
                         f"got {fmt(x_query.shape)}")
    examples = torch.cat([X, y[..., None]], dim=-1)  # (..., N, d+1)
    query = torch.cat([x_query, x_query.new_zeros((*batch, 1))], dim=-1)  # (..., d+1)
    return torch.cat([examples, query[..., None, :]], dim=-2)  # (..., N+1, d+1)


def linear_self_attention(Z: torch.Tensor, W_kq: torch.Tensor, W_pv: torch.Tensor) -> torch.Tensor:
    """``Z`` plus the average over the ``N`` example rows of ``(z W_kq · z_i)(z_i W_pv)``: the
    twin of ``attnlab.linear_self_attention`` (the query row is no key or value)."""
    Z, W_kq, W_pv = _float(Z), _float(W_kq), _float(W_pv)
    require_ndim(Z, "Z", ("N+1", "d+1"))
    *_, rows, width = Z.shape
    if rows < 2:
        raise ValueError(f"Z: expected shape (..., N+1, d+1) with N >= 1 examples, got {fmt(Z.shape)}")
    for name, W in (("W_kq", W_kq), ("W_pv", W_pv)):
        if tuple(W.shape) != (width, width):
            raise ValueError(f"{name}: expected shape (d+1={width}, d+1={width}) for Z {fmt(Z.shape)}, "
                             f"got {fmt(W.shape)}")
    N = rows - 1
    Z_c = Z[..., :N, :]  # (..., N, d+1)
    scores = (Z @ W_kq) @ Z_c.transpose(-1, -2)  # (..., N+1, N)
    return Z + scores @ (Z_c @ W_pv) / N  # (..., N+1, d+1)


class LinearSelfAttention(nn.Module):
    """One linear self-attention layer for in-context regression, parameters ``W_kq`` and
    ``W_pv`` ``(d+1, d+1)``, initialised small and random. ``forward(Z)`` returns the
    predictions ``(...)``: the last entry of the updated query row."""

    def __init__(self, d: int, init_scale: float = 0.01):
        super().__init__()
        d = require_int(d, "d", minimum=1)
        self.W_kq = nn.Parameter(init_scale * torch.randn(d + 1, d + 1))
        self.W_pv = nn.Parameter(init_scale * torch.randn(d + 1, d + 1))

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        return linear_self_attention(Z, self.W_kq, self.W_pv)[..., -1, -1]


def regression_tasks(B: int, N: int, d: int, generator: torch.Generator,
                     cov: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
    """``B`` random linear tasks ``w ~ N(0, I_d)``, inputs ``x ~ N(0, cov)`` (the identity by
    default), noiseless targets ``y = w·x``: ``(X (B, N, d), y (B, N), x_query (B, d), y_query (B,))``."""
    w = torch.randn(B, d, generator=generator)
    X = torch.randn(B, N + 1, d, generator=generator)
    if cov is not None:
        X = X @ torch.linalg.cholesky(_float(cov)).T
    y = (X @ w[:, :, None])[..., 0]  # (B, N+1)
    return X[:, :N], y[:, :N], X[:, N], y[:, N]


def train_icl(d: int = 5, N: int = 20, steps: int = 1500, batch: int = 256, lr: float = 0.01,
              seed: int = 0, progress: Callable[[int, float], None] | None = None):
    """Train a ``LinearSelfAttention`` on fresh tasks at every step (squared error of the query
    prediction); returns ``(model, losses)``."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = LinearSelfAttention(d)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    losses = []
    for step in range(steps):
        X, y, xq, yq = regression_tasks(batch, N, d, gen)
        loss = ((model(icl_prompt(X, y, xq)) - yq) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
        if progress is not None:
            progress(step, losses[-1])
    return model, np.array(losses)


# ---------------------------------------------------------------------------------------------
# Induction heads


def previous_token_score(weights: torch.Tensor) -> float:
    """Mean over ``t = 1..L-1`` (and leading axes) of ``weights[..., t, t-1]``: the twin of
    ``attnlab.previous_token_score``."""
    from .. import learned as _np
    return _np.previous_token_score(torch.as_tensor(weights).detach().cpu().double().numpy())


def prefix_matching_score(weights: torch.Tensor, period: int) -> float:
    """Mean over ``t = period..L-1`` (and leading axes) of ``weights[..., t, t-period+1]``: the
    twin of ``attnlab.prefix_matching_score``."""
    from .. import learned as _np
    return _np.prefix_matching_score(torch.as_tensor(weights).detach().cpu().double().numpy(), period)


class AttentionOnlyTransformer(nn.Module):
    """A causal transformer of attention layers only (no MLP, no layer norm).

    ``forward(tokens (B, L), ablate=None)`` returns ``(logits (B, L, V), weights)``, ``weights``
    a list with one ``(B, H, L, L)`` tensor per layer; ``ablate`` is a set of ``(layer, head)``
    pairs whose outputs are zeroed before the output projection.
    """

    def __init__(self, vocab: int, max_len: int, D: int = 64, n_heads: int = 1, n_layers: int = 2):
        super().__init__()
        if D % n_heads:
            raise ValueError(f"D: expected a multiple of n_heads={n_heads}, got {D}")
        self.H, self.Dh = n_heads, D // n_heads
        self.embed = nn.Embedding(vocab, D)
        self.pos = nn.Parameter(0.02 * torch.randn(max_len, D))
        self.qkv = nn.ModuleList([nn.Linear(D, 3 * D, bias=False) for _ in range(n_layers)])
        self.proj = nn.ModuleList([nn.Linear(D, D, bias=False) for _ in range(n_layers)])
        self.unembed = nn.Linear(D, vocab)

    def forward(self, tokens: torch.Tensor, ablate=None):
        B, L = tokens.shape
        H, Dh = self.H, self.Dh
        x = self.embed(tokens) + self.pos[:L]  # (B, L, D)
        causal = torch.ones(L, L, dtype=torch.bool, device=tokens.device).tril()
        all_weights = []
        for layer, (qkv, proj) in enumerate(zip(self.qkv, self.proj)):
            q, k, v = qkv(x).split(H * Dh, dim=-1)  # (B, L, D) each
            q, k, v = (t.view(B, L, H, Dh).transpose(1, 2) for t in (q, k, v))  # (B, H, L, Dh)
            scores = q @ k.transpose(-1, -2) / math.sqrt(Dh)  # (B, H, L, L)
            weights = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)
            out = weights @ v  # (B, H, L, Dh)
            if ablate:
                keep = torch.ones(H, device=tokens.device)
                for l, h in ablate:
                    if l == layer:
                        keep[h] = 0.0
                out = out * keep[None, :, None, None]
            x = x + proj(out.transpose(1, 2).reshape(B, L, H * Dh))  # (B, L, D)
            all_weights.append(weights)
        return self.unembed(x), all_weights


def repeated_sequences(B: int, period: int, vocab: int, generator: torch.Generator) -> torch.Tensor:
    """``B`` random token sequences of length ``period``, each repeated twice: ``(B, 2*period)``."""
    first = torch.randint(0, vocab, (B, period), generator=generator)
    return torch.cat([first, first], dim=1)


def half_losses(model: nn.Module, tokens: torch.Tensor, ablate=None) -> tuple[float, float]:
    """Next-token cross-entropy on the first half (predicting tokens ``1..P-1``: random) and on
    the second half (predicting tokens ``P..2P-1``: copies) of repeated sequences."""
    P = tokens.shape[1] // 2
    with torch.no_grad():
        logits, _ = model(tokens[:, :-1], ablate=ablate)
        nll = nn.functional.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none")  # (B, L-1)
    return nll[:, :P - 1].mean().item(), nll[:, P - 1:].mean().item()


def train_induction(vocab: int = 32, period: int = 12, D: int = 64, n_heads: int = 1, steps: int = 1200,
                    batch: int = 64, lr: float = 3e-3, seed: int = 0,
                    progress: Callable[[int, float], None] | None = None):
    """Train an ``AttentionOnlyTransformer`` (two layers) on random sequences repeated twice;
    returns ``(model, first_half_losses, second_half_losses)`` per step."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = AttentionOnlyTransformer(vocab, 2 * period, D=D, n_heads=n_heads)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    first, second = [], []
    for step in range(steps):
        tokens = repeated_sequences(batch, period, vocab, gen)
        logits, _ = model(tokens[:, :-1])
        nll = nn.functional.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none")
        loss = nll.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        first.append(nll[:, :period - 1].mean().item())
        second.append(nll[:, period - 1:].mean().item())
        if progress is not None:
            progress(step, loss.item())
    return model, np.array(first), np.array(second)


# ---------------------------------------------------------------------------------------------
# Decomposable attention


def soft_align(A: torch.Tensor, B: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``E = A Bᵀ``; ``(beta (..., La, D), alpha (..., Lb, D))``, each token's softmax-weighted
    average of the other sentence: the twin of ``attnlab.soft_align``."""
    A, B = _float(A), _float(B)
    require_ndim(A, "A", ("La", "D"))
    require_ndim(B, "B", ("Lb", "D"))
    if A.shape[-1] != B.shape[-1]:
        raise ValueError(f"B: expected shape (..., Lb, D={A.shape[-1]}) like A {fmt(A.shape)}, got {fmt(B.shape)}")
    for name, M in (("A", A), ("B", B)):
        if M.shape[-2] < 1:
            raise ValueError(f"{name}: expected a sentence of at least one token, got {fmt(M.shape)}")
    E = A @ B.transpose(-1, -2)  # (..., La, Lb)
    return E.softmax(dim=-1) @ B, E.transpose(-1, -2).softmax(dim=-1) @ A


class DecomposableAttention(nn.Module):
    """Attend, compare, aggregate (Parikh et al. 2016), no recurrence and no positions.

    ``forward(a (B, La), b (B, Lb))`` returns class logits ``(B, n_classes)``: tokens are
    embedded and passed through ``F``; ``soft_align`` pairs each token with the aligned part of
    the other sentence; ``G`` compares each pair; the comparisons are summed per sentence and
    ``H`` classifies the two sums.
    """

    def __init__(self, vocab: int, D: int = 32, hidden: int = 64, n_classes: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, D)
        self.F = nn.Sequential(nn.Linear(D, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.G = nn.Sequential(nn.Linear(2 * D, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.Hc = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        ea, eb = self.embed(a), self.embed(b)  # (B, La, D), (B, Lb, D)
        fa, fb = self.F(ea), self.F(eb)  # (B, La, hidden), (B, Lb, hidden)
        E = fa @ fb.transpose(-1, -2)  # (B, La, Lb)
        beta = E.softmax(dim=-1) @ eb  # (B, La, D): the part of b aligned to each token of a
        alpha = E.transpose(-1, -2).softmax(dim=-1) @ ea  # (B, Lb, D)
        v1 = self.G(torch.cat([ea, beta], dim=-1)).sum(dim=1)  # (B, hidden)
        v2 = self.G(torch.cat([eb, alpha], dim=-1)).sum(dim=1)  # (B, hidden)
        return self.Hc(torch.cat([v1, v2], dim=-1))
