"""Train, evaluate, save and load the translation models of notebooks 07 and 09.

The four models differ only in their decoder's attention: ``"none"`` (the fixed-size bottleneck),
``"additive"`` (Bahdanau), ``"dot"`` and ``"general"`` (Luong). :func:`train` trains one with
teacher forcing (cross-entropy on the gold next word, padding masked out of the loss, Adam, a
cosine learning-rate decay, gradient clipping); :func:`evaluate` translates with
:func:`~attnlab.torch.seq2seq.greedy_decode` and scores BLEU, exact match and alignment
accuracy, overall and by source length. Notebook 09's Transformers (``"transformer"``, and
``"transformer_nopos"`` without positional encodings) go through the same functions: their
``TrainConfig`` fields are ``d_model``, ``num_heads``, ``d_ff``, ``num_layers`` and
``positions``, and they translate with :func:`~attnlab.torch.transformer.decode_with_cache`.
The committed checkpoints (``attnlab/checkpoints/``,
written by ``make checkpoints``) are loaded with :func:`load_pretrained`.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from .. import toylang
from ..toylang import PAD, Pair, Vocab
from ..translation_metrics import alignment_accuracy, corpus_bleu, exact_match
from ._threads import torch_threads
from .seq2seq import Seq2Seq, greedy_decode
from .transformer import TransformerSeq2Seq, decode_with_cache

CHECKPOINT_DIR = Path(__file__).resolve().parents[1] / "checkpoints"
KINDS = ("none", "additive", "dot", "general")
TRANSFORMER_KINDS = ("transformer", "transformer_nopos")
LABELS = {"none": "no attention", "additive": "Bahdanau (additive)", "dot": "Luong dot",
          "general": "Luong general", "transformer": "Transformer",
          "transformer_nopos": "Transformer, no positions"}
# source-length buckets for the length curves: (first, last) inclusive
BUCKETS = ((3, 10), (11, 20), (21, 30), (31, 40), (41, 52))
LONG = (31, 52)


@dataclass
class TrainConfig:
    """Everything that defines a trained model (stored in its checkpoint); the defaults are the
    recipe of the committed checkpoints."""

    attention: str = "additive"
    n_train: int = 20000
    n_valid: int = 1000
    n_test: int = 2000
    data_seed: int = 0
    emb_dim: int = 64
    enc_hidden: int = 64
    dec_hidden: int = 128
    attn_hidden: int = 64
    epochs: float = 7
    batch_size: int = 64
    lr: float = 5e-3
    clip: float = 1.0
    seed: int = 0
    max_steps: int | None = None  # stop after this many batches (the notebook's live training)
    max_seconds: float | None = None  # or after this many seconds
    train_subset: int | None = None  # train on the first N training pairs only
    log_every: int = 50  # record the mean loss every this many steps
    # the Transformers of notebook 09 (attention "transformer" or "transformer_nopos")
    d_model: int = 64
    num_heads: int = 4
    d_ff: int = 128
    num_layers: int = 2
    warmup: int = 50  # steps of linear learning-rate warm-up


def transformer_config(kind: str = "transformer", **overrides) -> TrainConfig:
    """The recipe of the committed Transformer checkpoints (``make checkpoints``)."""
    if kind not in TRANSFORMER_KINDS:
        raise ValueError(f"kind: expected one of {TRANSFORMER_KINDS}, got {kind!r}")
    settings = dict(attention=kind, epochs=TRANSFORMER_EPOCHS, lr=TRANSFORMER_LR, warmup=200)
    settings.update(overrides)
    return TrainConfig(**settings)


TRANSFORMER_EPOCHS = 5
TRANSFORMER_LR = 5e-3


@dataclass
class History:
    steps: list[int] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0
    epochs_done: float = 0.0
    steps_done: int = 0  # fewer than planned when max_seconds stopped the training


_SPLITS: dict[tuple, dict[str, list[Pair]]] = {}


def splits(n_train: int = 20000, n_valid: int = 1000, n_test: int = 2000, seed: int = 0) -> dict[str, list[Pair]]:
    """:func:`attnlab.toylang.make_splits`, computed once per process."""
    key = (n_train, n_valid, n_test, seed)
    if key not in _SPLITS:
        _SPLITS[key] = toylang.make_splits(n_train, n_valid, n_test, seed=seed)
    return {k: list(v) for k, v in _SPLITS[key].items()}


def to_tensors(pairs: Sequence[Pair], src_vocab: Vocab, tgt_vocab: Vocab) -> dict[str, torch.Tensor]:
    """:func:`attnlab.toylang.encode_batch` as tensors."""
    return {k: torch.from_numpy(v) for k, v in toylang.encode_batch(pairs, src_vocab, tgt_vocab).items()}


def length_batches(pairs: Sequence[Pair], batch_size: int, rng: random.Random) -> list[list[Pair]]:
    """Batches of pairs of similar source length (little padding), in random order."""
    order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i]), rng.random()))
    batches = [[pairs[i] for i in order[k:k + batch_size]] for k in range(0, len(order), batch_size)]
    rng.shuffle(batches)
    return batches


def is_transformer(model) -> bool:
    return isinstance(model, TransformerSeq2Seq)


def build_model(config: TrainConfig) -> Seq2Seq | TransformerSeq2Seq:
    src_vocab, tgt_vocab = toylang.vocabularies()
    if config.attention in TRANSFORMER_KINDS:
        positions = "none" if config.attention == "transformer_nopos" else "sinusoidal"
        return TransformerSeq2Seq(len(src_vocab), len(tgt_vocab), d_model=config.d_model,
                                  num_heads=config.num_heads, d_ff=config.d_ff, num_layers=config.num_layers,
                                  positions=positions)
    return Seq2Seq(len(src_vocab), len(tgt_vocab), emb_dim=config.emb_dim, enc_hidden=config.enc_hidden,
                   dec_hidden=config.dec_hidden, attention=config.attention, attn_hidden=config.attn_hidden)


def sequence_loss(logits: torch.Tensor, tgt_out: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of the gold next words, padding left out: ``(B, Lt, V), (B, Lt)``."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1), ignore_index=PAD)


def train(config: TrainConfig, data: dict[str, list[Pair]] | None = None,
          log: Callable[[str], None] | None = None, threads: int | None = 1,
          progress: bool = False) -> tuple[Seq2Seq, History]:
    """Train one model with teacher forcing; returns it (in eval mode) and its loss curve.

    ``log`` receives a line every 500 steps; ``progress=True`` shows a progress bar (``tqdm``,
    in a notebook its widget form) with the steps done, the time left and the latest loss.

    ``threads``: torch's intra-op threads while training (restored afterwards). The models are
    small, so one thread is about as fast as several on an idle CPU and many times faster on a
    busy one (threads that share cores with other work spin while they wait for each other);
    ``None`` keeps torch's current setting.
    """
    with torch_threads(threads):
        return _train(config, data, log, progress)


def _train(config: TrainConfig, data: dict[str, list[Pair]] | None,
           log: Callable[[str], None] | None, progress: bool) -> tuple[Seq2Seq, History]:
    data = data or splits(config.n_train, config.n_valid, config.n_test, config.data_seed)
    train_pairs = data["train"][:config.train_subset] if config.train_subset else data["train"]
    src_vocab, tgt_vocab = toylang.vocabularies()
    torch.manual_seed(config.seed)
    rng = random.Random(config.seed)
    model = build_model(config)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    per_epoch = math.ceil(len(train_pairs) / config.batch_size)
    total = max(1, int(config.epochs * per_epoch))
    if config.max_steps is not None:
        total = min(total, config.max_steps)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / config.warmup) * 0.5 * (1 + math.cos(math.pi * min(s, total) / total)))
    history = History()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, desc=LABELS.get(config.attention, config.attention), unit="batch",
                   mininterval=1.0)
    start = time.perf_counter()
    step, running = 0, []
    model.train()
    while step < total:
        for batch in length_batches(train_pairs, config.batch_size, rng):
            t = to_tensors(batch, src_vocab, tgt_vocab)
            logits, _ = model(t["src"], t["src_mask"], t["tgt_in"])  # (B, Lt, V)
            loss = sequence_loss(logits, t["tgt_out"])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), config.clip)
            optimizer.step()
            schedule.step()
            step += 1
            running.append(loss.detach().item())
            if bar is not None:
                bar.update(1)
            out_of_time = config.max_seconds is not None and time.perf_counter() - start > config.max_seconds
            if step % config.log_every == 0 or step == total or out_of_time:
                history.steps.append(step)
                history.losses.append(float(np.mean(running)))
                running = []
                if bar is not None:
                    bar.set_postfix(loss=f"{history.losses[-1]:.3f}", refresh=False)
                if log and step % 500 < config.log_every:
                    log(f"  {config.attention:9s} step {step:5d}/{total}  loss {history.losses[-1]:.4f}  "
                        f"{time.perf_counter() - start:5.0f} s")
            if step >= total or out_of_time:
                break
        if config.max_seconds is not None and time.perf_counter() - start > config.max_seconds:
            break
    history.seconds = time.perf_counter() - start
    history.epochs_done = step / per_epoch
    history.steps_done = step
    if bar is not None:
        bar.close()
    model.eval()
    return model, history


# ---------------------------------------------------------------------------------------------
# Translating and scoring

def translate(model: Seq2Seq, pairs: Sequence[Pair], batch_size: int = 250,
              extra_steps: int = 10) -> tuple[list[list[str]], list[np.ndarray]]:
    """Greedy translations of ``pairs``' sources, and the attention weights of each ``(T, Ls)``
    (``T`` hypothesis tokens plus the ``<eos>`` step if it was produced)."""
    src_vocab, tgt_vocab = toylang.vocabularies()
    hyps: list[list[str] | None] = [None] * len(pairs)
    weights: list[np.ndarray | None] = [None] * len(pairs)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i]))
    model.eval()
    for k in range(0, len(order), batch_size):
        idx = order[k:k + batch_size]
        t = to_tensors([pairs[i] for i in idx], src_vocab, tgt_vocab)
        max_len = t["src"].shape[1] + extra_steps
        if is_transformer(model):
            tokens, w = _transformer_greedy(model, t["src"], t["src_mask"], max_len)
        else:
            tokens, w = greedy_decode(model, t["src"], t["src_mask"], max_len)  # (B, T), (B, T, Ls)
        for row, i in enumerate(idx):
            words = tgt_vocab.decode(tokens[row].tolist())
            hyps[i] = words
            n = min(len(words) + 1, tokens.shape[1])
            weights[i] = w[row, :n, :len(pairs[i])].numpy()
    return hyps, weights  # type: ignore[return-value]


def _transformer_greedy(model: TransformerSeq2Seq, src: torch.Tensor, src_mask: torch.Tensor,
                        max_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`decode_with_cache`, cut as :func:`~attnlab.torch.seq2seq.greedy_decode` cuts (``<eos>``
    kept, ``<pad>`` after it), with the weights of the last layer's cross-attention (averaged over
    heads) read off one teacher-forced pass over the output (equal, the decoder being causal)."""
    tokens, _ = decode_with_cache(model, src, src_mask, max_len)  # (B, T)
    finished = torch.cumsum((tokens == toylang.EOS).long(), dim=1) > 0  # (B, T): at or after <eos>
    after = torch.cat([torch.zeros_like(finished[:, :1]), finished[:, :-1]], dim=1)  # strictly after
    tokens = tokens.masked_fill(after, PAD)
    T = int((~after).sum(dim=1).max())
    tokens = tokens[:, :T]
    tgt_in = torch.cat([torch.full_like(tokens[:, :1], toylang.BOS), tokens[:, :-1]], dim=1)  # (B, T)
    with torch.no_grad():
        _, w = model(src, src_mask, tgt_in)  # (B, T, Ls)
    return tokens, w.masked_fill(after[:, :T].unsqueeze(-1), 0.0)


def parse_sentence(sentence: str, src_vocab: Vocab | None = None) -> tuple[str, ...]:
    """The words of a typed English sentence, checked against the toy language's vocabulary.

    Punctuation is dropped and capitals are matched to the vocabulary's spelling (``The`` ->
    ``the``, ``i`` -> ``I``). A word the models never saw raises a ``ValueError`` that names it,
    suggests close words, and says where the whole vocabulary is listed.
    """
    if not isinstance(sentence, str):
        raise ValueError(f"sentence: expected a string of English words, got {type(sentence).__name__}")
    vocab = src_vocab or toylang.vocabularies()[0]
    known = [w for w in vocab.itos if w not in toylang.SPECIALS]
    by_lower = {w.lower(): w for w in known}
    words, unknown = [], []
    for raw in sentence.replace(",", " ").replace(".", " ").replace("!", " ").replace("?", " ").split():
        word = raw if raw in vocab.stoi else by_lower.get(raw.lower())
        if word is None or word in toylang.SPECIALS:
            unknown.append(raw)
        else:
            words.append(word)
    if unknown:
        import difflib

        hints = []
        for w in unknown:
            close = difflib.get_close_matches(w.lower(), known, n=3, cutoff=0.6)
            hints.append(f"{w!r}" + (f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""))
        raise ValueError(
            f"sentence: expected words of the toy language's {len(known)}-word English vocabulary, "
            f"got {len(unknown)} unknown: {', '.join(hints)}. The models have never seen these "
            "words; list the ones they know with sorted(attnlab.toylang.source_words()).")
    if not words:
        raise ValueError(f"sentence: expected at least one word, got {sentence!r}")
    return tuple(words)


def translate_words(model: Seq2Seq, words: Sequence[str], extra_steps: int = 10) -> tuple[list[str], np.ndarray]:
    """Greedy translation of one source sentence given as words (see :func:`parse_sentence`):
    the output words and the attention weights ``(T, Ls)`` of every step (the output words,
    then ``<eos>`` if it was produced)."""
    src_vocab, tgt_vocab = toylang.vocabularies()
    src = torch.tensor([src_vocab.encode(list(words))], dtype=torch.long)  # (1, Ls)
    src_mask = torch.ones_like(src, dtype=torch.bool)                      # (1, Ls)
    model.eval()
    tokens, w = greedy_decode(model, src, src_mask, len(words) + extra_steps)  # (1, T), (1, T, Ls)
    out = tgt_vocab.decode(tokens[0].tolist())
    return out, w[0, :min(len(out) + 1, tokens.shape[1])].numpy()


def forced_weights(model: Seq2Seq, pairs: Sequence[Pair], batch_size: int = 250) -> list[np.ndarray]:
    """Attention weights ``(Lt, Ls)`` while the decoder reads the gold translation (teacher
    forcing): the weights the gold alignment is compared with (rows: the target words, then
    ``<eos>``)."""
    src_vocab, tgt_vocab = toylang.vocabularies()
    out: list[np.ndarray | None] = [None] * len(pairs)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i]))
    model.eval()
    with torch.no_grad():
        for k in range(0, len(order), batch_size):
            idx = order[k:k + batch_size]
            t = to_tensors([pairs[i] for i in idx], src_vocab, tgt_vocab)
            _, w = model(t["src"], t["src_mask"], t["tgt_in"])  # (B, Lt, Ls)
            for row, i in enumerate(idx):
                out[i] = w[row, :len(pairs[i].tgt) + 1, :len(pairs[i])].numpy()
    return out  # type: ignore[return-value]


def score(pairs: Sequence[Pair], hyps: Sequence[Sequence[str]], forced: Sequence[np.ndarray] | None = None,
          buckets: Sequence[tuple[int, int]] = BUCKETS) -> dict:
    """BLEU, exact match (and alignment accuracy, given forced weights) overall, on the long
    sentences (``LONG``) and per source-length bucket."""
    refs = [list(p.tgt) for p in pairs]

    def figures(idx: list[int]) -> dict:
        out = {"n": len(idx), "bleu": corpus_bleu([hyps[i] for i in idx], [refs[i] for i in idx]),
               "exact": exact_match([hyps[i] for i in idx], [refs[i] for i in idx])}
        if forced is not None:
            aligned = [(forced[i][:-1], np.asarray(pairs[i].alignment)) for i in idx]  # <eos> row left out
            hits = sum(alignment_accuracy(w, g) * int((g >= 0).sum()) for w, g in aligned if (g >= 0).any())
            out["align"] = hits / max(1, sum(int((g >= 0).sum()) for _, g in aligned))
        return out

    everything = list(range(len(pairs)))
    result = {"all": figures(everything),
              "long": figures([i for i in everything if LONG[0] <= len(pairs[i]) <= LONG[1]]),
              "buckets": {}}
    for lo, hi in buckets:
        result["buckets"][f"{lo}-{hi}"] = figures([i for i in everything if lo <= len(pairs[i]) <= hi])
    return result


def evaluate(model: Seq2Seq, pairs: Sequence[Pair]) -> dict:
    """Translate ``pairs`` greedily and :func:`score` the result (alignment under teacher
    forcing, skipped for the model without attention)."""
    hyps, _ = translate(model, pairs)
    attends = is_transformer(model) or model.config["attention"] != "none"
    return score(pairs, hyps, forced_weights(model, pairs) if attends else None)


# ---------------------------------------------------------------------------------------------
# Checkpoints

def checkpoint_path(attention: str, directory: Path | None = None) -> Path:
    return Path(directory or CHECKPOINT_DIR) / f"translation_{attention}.pt"


def save_checkpoint(model: Seq2Seq | TransformerSeq2Seq, config: TrainConfig, history: History, path: Path,
                    figures: dict | None = None) -> Path:
    """Weights in float16 (small enough to commit), the config, the loss curve and figures."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: (v.half() if v.is_floating_point() else v) for k, v in model.state_dict().items()}
    torch.save({"config": asdict(config), "model": model.config, "state_dict": state,
                "history": asdict(history), "figures": figures or {}}, path)
    return path


def load_checkpoint(path: Path) -> tuple[Seq2Seq | TransformerSeq2Seq, dict]:
    """The model (float32, eval mode) and everything else the checkpoint holds."""
    data = torch.load(Path(path), map_location="cpu", weights_only=True)
    model = TransformerSeq2Seq(**data["model"]) if "d_model" in data["model"] else Seq2Seq(**data["model"])
    model.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in data["state_dict"].items()})
    model.eval()
    return model, data


def load_pretrained(attention: str, directory: Path | None = None) -> Seq2Seq | TransformerSeq2Seq:
    """The committed model for ``attention`` in ``"none"``, ``"additive"``, ``"dot"``, ``"general"``,
    ``"transformer"`` or ``"transformer_nopos"``."""
    if attention not in KINDS + TRANSFORMER_KINDS:
        raise ValueError(f"attention: expected one of {KINDS + TRANSFORMER_KINDS}, got {attention!r}")
    path = checkpoint_path(attention, directory)
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `make checkpoints` to train the models")
    return load_checkpoint(path)[0]
