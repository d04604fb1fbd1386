"""Bad input gets a ValueError that names the argument, the expected and the actual shape."""
from __future__ import annotations

import re

import numpy as np
import pytest
import torch

import attnlab
import attnlab.torch as at

Q, K, V = np.zeros((2, 3, 4)), np.zeros((2, 5, 4)), np.zeros((2, 5, 6))

CASES = [  # (function name, args, words the message must contain)
    ("scaled_dot_product_attention", (np.zeros(4), K, V), ["Q", "(..., Lq, Dk)", "(4,)"]),
    ("scaled_dot_product_attention", (Q, np.zeros((2, 5, 3)), V), ["Q", "K", "Dk", "(2, 3, 4)", "(2, 5, 3)"]),
    ("scaled_dot_product_attention", (Q, K, np.zeros((2, 4, 6))), ["K", "V", "Lk", "(2, 4, 6)"]),
    ("scaled_dot_product_attention", (Q, K, V, np.ones((3, 4), dtype=bool)), ["mask", "(2, 3, 5)", "(3, 4)"]),
    ("scaled_dot_product_attention", (Q, K, V, np.ones((3, 5))), ["mask", "boolean", "float"]),
    ("masked_softmax", (np.zeros((3, 4)), np.ones((3, 5), dtype=bool)), ["mask", "(3, 4)", "(3, 5)"]),
    ("masked_softmax", (np.zeros(4), None), ["scores", "(..., Lq, Lk)", "(4,)"]),
    ("weighted_average", (np.zeros((3, 2)), np.array([0.5, 0.5])), ["values", "weights", "(3, 2)", "(2,)"]),
    ("weighted_average", (np.zeros((3, 2)), np.array([0.5, 0.5, 0.5])), ["weights", "simplex", "1.5"]),
    ("weighted_average", (np.zeros((3, 2)), np.array([1.5, -0.5, 0.0])), ["weights", "non-negative"]),
    ("weighted_average", (np.zeros(3), np.ones(3) / 3), ["values", "(N, D)", "(3,)"]),
    ("softmax", (np.zeros((2, 3)), 2), ["axis", "(2, 3)", "2"]),
    ("mix_tokens", (np.zeros(5),), ["X", "(..., L, D)", "(5,)"]),
    ("padding_mask", (np.array([1, 5]), 4), ["lengths", "[0, Lk=4]"]),
    ("padding_mask", (np.array([[1, 2]]), 4), ["lengths", "(B,)", "(1, 2)"]),
    ("causal_mask", (2.5, 3), ["Lq", "integer"]),
    ("general_score", (Q, K, np.zeros((3, 4))), ["Q", "W", "Dq"]),
    ("additive_score", (Q, K, np.zeros((4, 7)), np.zeros((4, 7)), np.zeros(6)), ["W_q", "v", "Dh"]),
    ("attend", (np.zeros((1, 4)), np.zeros((5, 4)), np.zeros((5, 2))), ["q", "(Dk,)", "(1, 4)"]),
]


def _torchify(a):
    return torch.tensor(a) if isinstance(a, np.ndarray) else a


@pytest.mark.parametrize("lib", ["numpy", "torch"])
@pytest.mark.parametrize("name,args,words", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_message(lib, name, args, words):
    fn = getattr(attnlab if lib == "numpy" else at, name)
    if lib == "torch":
        args = tuple(_torchify(a) for a in args)
    with pytest.raises(ValueError) as info:
        fn(*args)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} missing from: {message}"
    assert not re.search(r"\bnan\b", message, re.I)
