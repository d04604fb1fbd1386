"""spatial_self_attention (notebook 10): self-attention over the pixels of a feature map."""
from __future__ import annotations

import numpy as np

from .. import images as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

CARD = Card(
    "spatial_self_attention", "10_attention_on_images",
    summary="the pixels as tokens, attending to each other, laid out as a map again",
    contract=Contract(
        args=("X", "W_q", "W_k", "W_v"), reference=_ref.spatial_self_attention, invoke=invoke_numpy,
        outputs=("Z", "A"),
        shapes="X (..., C, H, W); W_q, W_k (C, Dk); W_v (C, Dv)",
        returns="(Z, A): Z (..., Dv, H, W) the output map, A (..., H*W, H*W) the weights"),
    mistakes=[
        Mistake(
            'channels and positions swapped when flattening (a reshape to (H*W, C) without a transpose)',
            principle='The tokens of spatial attention are the pixels, each carrying its C channel values.',
            fix='the tokens are the pixels, each with its C channel values: use `attnlab.image_to_tokens(X)`, (..., C, H, W) -> (..., H*W, C).',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    C, H, W = X.shape[-3:]
                    tokens = X.reshape(*X.shape[:-3], H * W, C)
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]))
                    return attnlab.tokens_to_image(A @ V, H, W), A
                '''),
        Mistake(
            'column-major pixel order (token j*H + i)',
            principle='Pixels are numbered row by row, the order the weights A are read in.',
            fix='pixel (i, j) is token i*W + j: use `attnlab.image_to_tokens` and `attnlab.tokens_to_image`, which follow the contract.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    C, H, W = X.shape[-3:]
                    tokens = np.swapaxes(np.swapaxes(X, -1, -2).reshape(*X.shape[:-3], C, H * W), -1, -2)  # column by column
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]))
                    Z = np.swapaxes(A @ V, -1, -2).reshape(*X.shape[:-3], W_v.shape[1], W, H)
                    return np.swapaxes(Z, -1, -2), A
                '''),
        Mistake(
            'the output put back with a plain reshape (channels and positions mixed up)',
            principle='The outputs are tokens with their features last: the feature axis must move in front of the positions.',
            fix='the outputs are (..., H*W, Dv) tokens: turn them back into a map with `attnlab.tokens_to_image(Z, H, W)`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    C, H, W = X.shape[-3:]
                    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
                    return Z.reshape(*Z.shape[:-2], W_v.shape[1], H, W), A
                '''),
        Mistake(
            'the output left as tokens (..., H*W, Dv) instead of a feature map (..., Dv, H, W)',
            principle='Spatial attention maps a feature map to a feature map: lay the output tokens out as an image again.',
            fix='turn the outputs back into a map: `attnlab.tokens_to_image(Z, H, W)`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    H, W = X.shape[-2:]
                    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
                    return Z, A
                '''),
        Mistake(
            'attention over the channels (C x C weights) instead of over the pixels',
            principle='Spatial attention mixes positions: one weight per pair of pixels.',
            fix='spatial attention mixes positions: the tokens are the H*W pixels, so A is (..., H*W, H*W).',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    C, H, W = X.shape[-3:]
                    t = X.reshape(*X.shape[:-3], C, H * W)                 # one token per channel
                    A = attnlab.softmax(t @ np.swapaxes(t, -1, -2) / np.sqrt(W_q.shape[1]))
                    return A @ t, A
                '''),
        Mistake(
            'no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)',
            principle='Scores are divided by √Dk, the square root of the query/key width.',
            fix='divide the scores by `np.sqrt(Dk)`, `Dk = W_q.shape[1]`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    H, W = X.shape[-2:]
                    tokens = attnlab.image_to_tokens(X)
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2))
                    return attnlab.tokens_to_image(A @ V, H, W), A
                '''),
        Mistake(
            'scaling by √C (the number of channels) instead of √Dk',
            principle='The scale comes from the width of the dot product, the query/key width Dk.',
            fix='the scores are dot products of Dk-dimensional queries and keys: divide by `np.sqrt(W_q.shape[1])`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    C, H, W = X.shape[-3:]
                    tokens = attnlab.image_to_tokens(X)
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(C))
                    return attnlab.tokens_to_image(A @ V, H, W), A
                '''),
        Mistake(
            'scaling by Dk instead of √Dk',
            principle='The scale is the square root of Dk, not Dk itself.',
            fix='divide by `np.sqrt(W_q.shape[1])`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    H, W = X.shape[-2:]
                    tokens = attnlab.image_to_tokens(X)
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / W_q.shape[1])
                    return attnlab.tokens_to_image(A @ V, H, W), A
                '''),
        Mistake(
            'a softmax over the wrong axis (over the queries)',
            principle="Each pixel's weights over all pixels sum to one: normalise along the keys, the last axis.",
            fix="row p of A holds pixel p's weights over all pixels: softmax over the last axis.",
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    H, W = X.shape[-2:]
                    tokens = attnlab.image_to_tokens(X)
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]), axis=-2)
                    return attnlab.tokens_to_image(A @ V, H, W), A
                '''),
        Mistake(
            'the tokens used as the values (no W_v)',
            principle='Values are their own learned map of the tokens.',
            fix='the values are a learned map of the tokens too: `V = tokens @ W_v`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    H, W = X.shape[-2:]
                    tokens = attnlab.image_to_tokens(X)
                    Q, K = tokens @ W_q, tokens @ W_k
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]))
                    return attnlab.tokens_to_image(A @ tokens, H, W), A
                '''),
        Mistake(
            'returning (A, Z) instead of (Z, A)',
            principle='The contract returns the output first, then the weights.',
            fix='return the output map first: `return Z, A`.',
            fails=('test_spatial_self_attention', 'test_spatial_self_attention_batched'),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
                    return A, attnlab.tokens_to_image(Z, *X.shape[-2:])
                '''),
        Mistake(
            '`K.T` on a batch: it reverses every axis, not just the last two',
            principle='Transpose only the last two axes, so that leading batch axes stay where they are.',
            fix='use `np.swapaxes(K, -1, -2)`, which transposes only the last two axes.',
            fails=('test_spatial_self_attention_batched',),
            code=r'''
                def spatial_self_attention(X, W_q, W_k, W_v):
                    H, W = X.shape[-2:]
                    tokens = attnlab.image_to_tokens(X)
                    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
                    A = attnlab.softmax(Q @ K.T / np.sqrt(W_q.shape[1]))
                    return attnlab.tokens_to_image(A @ V, H, W), A
                '''),
    ],
)


def _case(rng, batch, C, H, W, Dk, Dv, why):
    X = rng.normal(size=(*batch, C, H, W))
    Ws = tuple(rng.normal(size=(C, d)) / np.sqrt(C) * 1.5 for d in (Dk, Dk, Dv))
    return Case((X, *Ws), why=why)


def cases(hidden: bool, batched: bool) -> list[Case]:
    rng = case_rng(105 + batched, hidden)
    if batched:
        specs = [((2,), 3, 2, 4, 5, 2), ((2, 2), 4, 3, 2, 3, 2)] if hidden else [((2,), 3, 4, 5, 4, 2), ((3, 2), 3, 2, 3, 4, 2)]
        why = "a batch of feature maps"
    else:
        specs = [((), 5, 2, 3, 4, 2), ((), 3, 4, 2, 2, 5)] if hidden else [((), 5, 3, 4, 2, 3), ((), 3, 2, 4, 5, 2)]
        why = "one feature map (C, H, W); C, H, W, Dk and Dv differ"
    return [_case(rng, *s, why=why) for s in specs]


def check_spatial_self_attention(spatial_self_attention, hidden: bool = False) -> None:
    """Check ``spatial_self_attention(X, W_q, W_k, W_v)`` on one feature map."""
    CARD.check(spatial_self_attention, cases(hidden, False), hidden=hidden,
               passed="Z (Dv, H, W) and A (H*W, H*W) match on one feature map")


def check_spatial_self_attention_batched(spatial_self_attention, hidden: bool = False) -> None:
    """Check ``spatial_self_attention`` on a batch ``(..., C, H, W)``."""
    CARD.check(spatial_self_attention, cases(hidden, True), hidden=hidden, passed="works on batches")
