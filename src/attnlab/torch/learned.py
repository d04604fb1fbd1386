"""Torch twins of ``attnlab.learned`` (notebook 12) and the three small models it trains.

* ``LinearSelfAttention``: the in-context regression layer, with ``W_kq`` and ``W_pv`` as
  parameters; ``train_icl`` trains it on fresh random linear tasks at every step.
* ``AttentionOnlyTransformer``: token and position embeddings, causal attention-only layers
  (no MLP, no layer norm) with residual connections, an unembedding; it returns the per-head
  weights of every layer and can ablate a head (zero its output, or replace it by its mean,
  ``mean_head_outputs``). ``train_induction`` trains it on one fixed layout (random tokens
  repeated twice from position 0: a model can copy by *position*); ``train_induction_shifted``
  on a random period and a random repeat point per sequence (only copying by *content* works);
  ``repeat_sequences`` and ``copying_losses`` test a trained model on a layout of one's choice
  (a shifted repeat, a period it never saw).
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
from ._threads import torch_threads


def _float(x) -> torch.Tensor:
    x = torch.as_tensor(x)
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def icl_prompt(X: torch.Tensor, y: torch.Tensor, x_query: torch.Tensor) -> torch.Tensor:
    """Pack a regression prompt into ``Z (..., N+1, d+1)``: a row per example (its input, then its
    target), a last row for the query (its input, then 0); the twin of ``attnlab.icl_prompt``."""
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
    """One linear self-attention layer (no softmax, an average over the ``N`` example rows, the
    query row no key or value, a residual): the twin of ``attnlab.linear_self_attention``."""
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
              seed: int = 0, progress: Callable[[int, float], None] | None = None,
              model: LinearSelfAttention | None = None,
              threads: int | None = 1):
    """Train a ``LinearSelfAttention`` on fresh tasks at every step (squared error of the query
    prediction); returns ``(model, losses)``. ``model``: the layer to train (a new one with
    ``init_scale=0.01``, seeded by ``seed``, when None).
    ``threads``: torch's intra-op threads while training, restored afterwards (one by default:
    the models are small, and threads that share a busy CPU spin); ``None`` keeps the setting."""
    with torch_threads(threads):
        return _train_icl(d=d, N=N, steps=steps, batch=batch, lr=lr, seed=seed, progress=progress,
                          model=model)


def _train_icl(d: int = 5, N: int = 20, steps: int = 1500, batch: int = 256, lr: float = 0.01,
               seed: int = 0, progress: Callable[[int, float], None] | None = None,
               model: LinearSelfAttention | None = None):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    if model is None:
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
    """The mean weight on the previous position: the twin of ``attnlab.previous_token_score``."""
    from .. import learned as _np
    return _np.previous_token_score(torch.as_tensor(weights).detach().cpu().double().numpy())


def induction_score(weights: torch.Tensor, tokens: torch.Tensor) -> float:
    """The mean summed weight on the keys that follow earlier occurrences of the query's token,
    over the queries that have one: the twin of ``attnlab.induction_score``."""
    from .. import learned as _np
    return _np.induction_score(torch.as_tensor(weights).detach().cpu().double().numpy(),
                               torch.as_tensor(tokens).detach().cpu().numpy())


def prefix_matching_score(weights: torch.Tensor, period: int) -> float:
    """The mean weight on the token after the previous occurrence of the current one: the twin
    of ``attnlab.prefix_matching_score``."""
    from .. import learned as _np
    return _np.prefix_matching_score(torch.as_tensor(weights).detach().cpu().double().numpy(), period)


class AttentionOnlyTransformer(nn.Module):
    """A causal transformer of attention layers only (no MLP, no layer norm).

    ``forward(tokens (B, L), ablate=None)`` returns ``(logits (B, L, V), weights)``, ``weights``
    a list with one ``(B, H, L, L)`` tensor per layer. ``ablate`` switches heads off before the
    output projection: a set of ``(layer, head)`` pairs zeroes their outputs (zero-ablation); a
    dict from ``(layer, head)`` to a tensor broadcastable to ``(B, L, Dh)`` puts that tensor in
    place of the head's output (mean-ablation with ``mean_head_outputs``).
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
        logits, weights, _ = self._run(tokens, ablate)
        return logits, weights

    def head_outputs(self, tokens: torch.Tensor) -> list[torch.Tensor]:
        """Every head's output before the output projection: one ``(B, H, L, Dh)`` per layer."""
        return self._run(tokens, None)[2]

    def _run(self, tokens, ablate):
        B, L = tokens.shape
        H, Dh = self.H, self.Dh
        # ablate: a set of heads to zero, or a dict from a head to the output that replaces it
        replace = dict(ablate) if isinstance(ablate, dict) else dict.fromkeys(ablate or (), 0.0)
        x = self.embed(tokens) + self.pos[:L]  # (B, L, D)
        causal = torch.ones(L, L, dtype=torch.bool, device=tokens.device).tril()
        all_weights, all_outs = [], []
        for layer, (qkv, proj) in enumerate(zip(self.qkv, self.proj)):
            q, k, v = qkv(x).split(H * Dh, dim=-1)  # (B, L, D) each
            q, k, v = (t.view(B, L, H, Dh).transpose(1, 2) for t in (q, k, v))  # (B, H, L, Dh)
            scores = q @ k.transpose(-1, -2) / math.sqrt(Dh)  # (B, H, L, L)
            weights = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)
            out = weights @ v  # (B, H, L, Dh)
            all_outs.append(out)
            for (l, h), value in replace.items():
                if l == layer:
                    value = torch.as_tensor(value, dtype=out.dtype)
                    out = out.clone()
                    out[:, h] = value[..., :L, :] if value.dim() >= 2 else value  # (L_ref, Dh) means: cut to L
            x = x + proj(out.transpose(1, 2).reshape(B, L, H * Dh))  # (B, L, D)
            all_weights.append(weights)
        return self.unembed(x), all_weights, all_outs


def mean_head_outputs(model: AttentionOnlyTransformer, tokens: torch.Tensor, heads) -> dict:
    """Mean-ablation values: for each ``(layer, head)`` in ``heads``, that head's output averaged
    over the batch of ``tokens (B, L)``, per position: ``(L, Dh)``. Pass the dict as ``ablate``;
    the head then carries what it carries on average, not what this sequence makes it carry."""
    with torch.no_grad():
        outs = model.head_outputs(tokens)  # per layer (B, H, L, Dh)
    return {(layer, head): outs[layer][:, head].mean(dim=0) for layer, head in heads}  # (L, Dh)


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
                    progress: Callable[[int, float], None] | None = None,
                    threads: int | None = 1):
    """Train an ``AttentionOnlyTransformer`` (two layers) on random sequences repeated twice;
    returns ``(model, first_half_losses, second_half_losses)`` per step.
    ``threads``: torch's intra-op threads while training, restored afterwards (one by default:
    the models are small, and threads that share a busy CPU spin); ``None`` keeps the setting."""
    with torch_threads(threads):
        return _train_induction(vocab=vocab, period=period, D=D, n_heads=n_heads, steps=steps, batch=batch, lr=lr,
                                seed=seed, progress=progress)


def _train_induction(vocab: int = 32, period: int = 12, D: int = 64, n_heads: int = 1, steps: int = 1200,
                     batch: int = 64, lr: float = 3e-3, seed: int = 0,
                     progress: Callable[[int, float], None] | None = None):
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


def repeat_sequences(B: int, L: int, vocab: int, period: int, start: int,
                     generator: torch.Generator) -> torch.Tensor:
    """``B`` token sequences ``(B, L)``: random tokens up to position ``start + period``, then each
    token repeats the one ``period`` positions before it (the stretch ``start .. start+period-1``
    comes again and again). ``start = 0, L = 2 * period``: ``repeated_sequences``' layout."""
    period = require_int(period, "period", minimum=1)
    start = require_int(start, "start", minimum=0)
    if start + period >= L:
        raise ValueError(f"start: expected start + period < L={L} (a repeat to copy), "
                         f"got start={start}, period={period}")
    tokens = torch.randint(0, vocab, (B, L), generator=generator)
    t = torch.arange(L)
    source = torch.where(t >= start + period, start + (t - start - period) % period, t)  # (L,)
    return tokens[:, source]


def _next_token_nll(model, tokens, ablate=None):
    logits, _ = model(tokens[:, :-1], ablate=ablate)  # (B, L-1, V)
    return nn.functional.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none")  # (B, L-1)


def copying_losses(model: nn.Module, tokens: torch.Tensor, start: int, period: int,
                   ablate=None) -> tuple[float, float]:
    """Next-token cross-entropy of ``repeat_sequences(..., period, start)``: ``(random, copyable)``.

    *random*: the targets before the repeat begins (positions ``1 .. start+period-1``), which no
    model can predict (chance is ``ln V``). *copyable*: the targets ``start+period+1 .. L-1``,
    where the current token has occurred before and the next one is the token that followed it
    then. (The target at ``start+period`` is in neither: it repeats, but its predecessor does not.)
    """
    r = start + period
    with torch.no_grad():
        nll = _next_token_nll(model, tokens, ablate)  # (B, L-1); column j predicts token j+1
    return nll[:, :r - 1].mean().item(), nll[:, r:].mean().item()


def shifted_repeat_batch(B: int, L: int, vocab: int, periods, generator: torch.Generator):
    """Training sequences for a copying circuit that cannot lean on positions: each of the ``B``
    sequences gets a period drawn from ``periods`` and a repeat point ``start + period`` with
    ``start`` uniform in ``0 .. L - 2*period``. Returns ``(tokens (B, L), repeat_at (B,))``,
    ``repeat_at = start + period`` the first position that repeats."""
    periods = torch.as_tensor(list(periods))
    if periods.numel() == 0 or int(periods.min()) < 1 or 2 * int(periods.max()) > L:
        raise ValueError(f"periods: expected periods with 1 <= period <= L/2={L // 2}, got {periods.tolist()}")
    P = periods[torch.randint(0, len(periods), (B,), generator=generator)]  # (B,)
    start = (torch.rand(B, generator=generator) * (L - 2 * P + 1)).long()  # (B,)
    t = torch.arange(L)[None, :]  # (1, L)
    r = (start + P)[:, None]  # (B, 1): the first repeated position
    source = torch.where(t >= r, start[:, None] + (t - r) % P[:, None], t)  # (B, L)
    tokens = torch.gather(torch.randint(0, vocab, (B, L), generator=generator), 1, source)
    return tokens, r[:, 0]


def train_induction_shifted(vocab: int = 32, L: int = 24, periods=(3, 4, 5, 6, 7, 9, 10, 11, 12), D: int = 64,
                            steps: int = 2500, batch: int = 32, lr: float = 3e-3, seed: int = 0,
                            progress: Callable[[int, float], None] | None = None,
                            watch: Callable[[int, nn.Module], None] | None = None,
                            threads: int | None = 1):
    """Train a two-layer ``AttentionOnlyTransformer`` on ``shifted_repeat_batch`` sequences (a
    random period from ``periods`` and a random repeat point per sequence), next-token loss on
    every position. Returns ``(model, random_losses, copyable_losses)`` per step: the loss on the
    targets before the repeat and on the copyable ones (``copying_losses``). ``watch(step, model)``
    is called after every step (to measure the heads as they form).
    ``threads``: torch's intra-op threads while training, restored afterwards (one by default:
    the models are small, and threads that share a busy CPU spin); ``None`` keeps the setting."""
    with torch_threads(threads):
        return _train_induction_shifted(vocab=vocab, L=L, periods=periods, D=D, steps=steps, batch=batch, lr=lr,
                                        seed=seed, progress=progress, watch=watch)


def _train_induction_shifted(vocab: int = 32, L: int = 24, periods=(3, 4, 5, 6, 7, 9, 10, 11, 12), D: int = 64,
                             steps: int = 2500, batch: int = 32, lr: float = 3e-3, seed: int = 0,
                             progress: Callable[[int, float], None] | None = None,
                             watch: Callable[[int, nn.Module], None] | None = None):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = AttentionOnlyTransformer(vocab, L, D=D, n_heads=1)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    t = torch.arange(1, L)[None, :]  # (1, L-1): target positions
    random_losses, copy_losses = [], []
    for step in range(steps):
        tokens, repeat_at = shifted_repeat_batch(batch, L, vocab, periods, gen)
        random, copyable = t < repeat_at[:, None], t >= repeat_at[:, None] + 1  # (B, L-1) each
        nll = _next_token_nll(model, tokens)  # (B, L-1)
        loss = nll.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        random_losses.append(nll.detach()[random].mean().item())
        copy_losses.append(nll.detach()[copyable].mean().item())
        if progress is not None:
            progress(step, loss.item())
        if watch is not None:
            watch(step, model)
    return model, np.array(random_losses), np.array(copy_losses)


ABLATIONS = ("intact", "layer 1 zeroed", "layer 1 mean", "layer 2 zeroed", "layer 2 mean")


def interventions(model: AttentionOnlyTransformer, layouts: dict, vocab: int, L: int, B: int = 512,
                  seed: int = 1) -> dict:
    """What copying survives: for each named layout ``(period, start)`` of ``repeat_sequences``
    (``B`` new sequences of length ``L``), ``copying_losses`` of the intact model and with head 0
    of layer 1 or of layer 2 zeroed or replaced by its mean (``mean_head_outputs`` over the same
    sequences). Returns ``{layout: {ablation: (random, copyable)}}``, ablations as in ``ABLATIONS``."""
    gen = torch.Generator().manual_seed(seed)
    out = {}
    for name, (period, start) in layouts.items():
        tokens = repeat_sequences(B, L, vocab, period, start, gen)
        means = mean_head_outputs(model, tokens[:, :-1], [(0, 0), (1, 0)])
        ablate = {"intact": None, "layer 1 zeroed": {(0, 0)}, "layer 1 mean": {(0, 0): means[(0, 0)]},
                  "layer 2 zeroed": {(1, 0)}, "layer 2 mean": {(1, 0): means[(1, 0)]}}
        out[name] = {a: copying_losses(model, tokens, start, period, ablate=ablate[a]) for a in ABLATIONS}
    return out


def copying_verdicts(results: dict, vocab: int) -> dict[str, bool]:
    """The claims an induction circuit must pass, judged on ``interventions``' results (every
    layout in them): it copies (loss on the copyable targets below 1.2, chance being ``ln V``);
    ablating layer 1's head, zeroed or by its mean, breaks copying (above 2.5); ablating layer
    2's head puts the loss back within 0.3 of chance. A model that copies by position copies on
    its own layout only, and there its layer-1 head is not needed."""
    chance = math.log(vocab)
    rows = list(results.values())
    return {
        "copies": max(row["intact"][1] for row in rows) < 1.2,
        "layer 1 needed": min(row[a][1] for row in rows for a in ("layer 1 zeroed", "layer 1 mean")) > 2.5,
        "layer 2 needed": max(abs(row[a][1] - chance) for row in rows
                              for a in ("layer 2 zeroed", "layer 2 mean")) < 0.3,
    }


# ---------------------------------------------------------------------------------------------
# Decomposable attention


def soft_align(A: torch.Tensor, B: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``(beta (..., La, D), alpha (..., Lb, D))``, each token's softmax-weighted average of the
    other sentence's tokens: the twin of ``attnlab.soft_align``."""
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
