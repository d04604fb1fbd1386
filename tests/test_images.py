"""Notebook 10's library: pixel tokens, 2-D positional encodings, spatial and channel attention,
patches, the corner-shapes task; numpy against torch and against torch's own operations."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import attnlab
import attnlab.torch as at

TOL = dict(rtol=1e-10, atol=1e-12)
SHAPES = [(3, 4, 5), (2, 3, 4, 5), (2, 1, 3, 2, 6), (1, 1, 1)]


@pytest.mark.parametrize("shape", SHAPES)
def test_image_to_tokens_is_row_major_and_inverted(shape):
    rng = np.random.default_rng(0)
    X = rng.normal(size=shape)
    *batch, C, H, W = shape
    T = attnlab.image_to_tokens(X)
    assert T.shape == (*batch, H * W, C)
    for i in range(H):
        for j in range(W):
            np.testing.assert_array_equal(T[..., i * W + j, :], X[..., :, i, j])
    np.testing.assert_array_equal(attnlab.tokens_to_image(T, H, W), X)
    np.testing.assert_allclose(at.image_to_tokens(torch.from_numpy(X)).numpy(), T, **TOL)
    np.testing.assert_allclose(at.tokens_to_image(torch.from_numpy(T), H, W).numpy(), X, **TOL)


def test_tokens_are_a_copy():
    X = np.zeros((2, 3, 4))
    T = attnlab.image_to_tokens(X)
    T[0, 0] = 1.0
    assert not X.any()


@pytest.mark.parametrize("H,W,D", [(3, 5, 8), (1, 4, 4), (6, 6, 16), (2, 7, 12)])
def test_positional_encoding_2d_halves(H, W, D):
    PE = attnlab.positional_encoding_2d(H, W, D)
    assert PE.shape == (H * W, D)
    half = D // 2
    k = np.arange(0, half, 2)
    for p in range(H * W):
        i, j = divmod(p, W)
        np.testing.assert_allclose(PE[p, 0:half:2], np.sin(i / 10000 ** (k / half)), atol=1e-12)
        np.testing.assert_allclose(PE[p, 1:half:2], np.cos(i / 10000 ** (k / half)), atol=1e-12)
        np.testing.assert_allclose(PE[p, half::2], np.sin(j / 10000 ** (k / half)), atol=1e-12)
        np.testing.assert_allclose(PE[p, half + 1::2], np.cos(j / 10000 ** (k / half)), atol=1e-12)
    if H > 1 and W > 1:
        # same row: first halves equal; same column: second halves equal
        np.testing.assert_array_equal(PE[0, :half], PE[W - 1, :half])
        np.testing.assert_array_equal(PE[0, half:], PE[W, half:])
    assert len({tuple(np.round(r, 9)) for r in PE}) == H * W  # every pixel has its own code
    np.testing.assert_allclose(at.positional_encoding_2d(H, W, D).double().numpy(), PE, atol=1e-6)


def test_positional_encoding_2d_matches_notebook_09s_sinusoids():
    public = getattr(attnlab, "sinusoidal_positional_encoding", None)
    if public is None:
        pytest.skip("notebook 09's sinusoidal_positional_encoding has not landed")
    PE = attnlab.positional_encoding_2d(4, 6, 16)
    rows, cols = np.asarray(public(4, 8)), np.asarray(public(6, 8))
    np.testing.assert_allclose(PE[:, :8], np.repeat(rows, 6, axis=0), atol=1e-6)
    np.testing.assert_allclose(PE[:, 8:], np.tile(cols, (4, 1)), atol=1e-6)


@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
def test_spatial_self_attention_is_self_attention_on_pixel_tokens(batch):
    rng = np.random.default_rng(1)
    C, H, W, Dk, Dv = 3, 4, 5, 2, 6
    X = rng.normal(size=(*batch, C, H, W))
    W_q, W_k, W_v = rng.normal(size=(C, Dk)), rng.normal(size=(C, Dk)), rng.normal(size=(C, Dv))
    Z, A = attnlab.spatial_self_attention(X, W_q, W_k, W_v)
    assert Z.shape == (*batch, Dv, H, W) and A.shape == (*batch, H * W, H * W)
    Zt, At = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    np.testing.assert_allclose(A, At, **TOL)
    np.testing.assert_allclose(Z, attnlab.tokens_to_image(Zt, H, W), **TOL)
    Zt2, At2 = at.spatial_self_attention(*(torch.from_numpy(a) for a in (X, W_q, W_k, W_v)))
    np.testing.assert_allclose(Zt2.numpy(), Z, **TOL)
    np.testing.assert_allclose(At2.numpy(), A, **TOL)


def test_spatial_attention_without_positions_is_permutation_equivariant():
    rng = np.random.default_rng(2)
    C, H, W = 3, 4, 4
    X = rng.normal(size=(C, H, W))
    Ws = [rng.normal(size=(C, 2)) for _ in range(3)]
    perm = rng.permutation(H * W)
    shuffled = attnlab.tokens_to_image(attnlab.image_to_tokens(X)[perm], H, W)
    Z, _ = attnlab.spatial_self_attention(X, *Ws)
    Zs, _ = attnlab.spatial_self_attention(shuffled, *Ws)
    np.testing.assert_allclose(attnlab.image_to_tokens(Zs), attnlab.image_to_tokens(Z)[perm], **TOL)


@pytest.mark.parametrize("batch,C,H,W,reduction", [((2,), 6, 3, 4, 2), ((), 8, 2, 5, 4), ((2, 3), 3, 2, 2, 4)])
def test_channel_attention_module_matches_numpy(batch, C, H, W, reduction):
    torch.manual_seed(0)
    module = at.ChannelAttention(C, reduction).double()
    Cr = max(1, C // reduction)
    assert module.fc1.weight.shape == (Cr, C) and module.fc2.weight.shape == (C, Cr)
    X = np.random.default_rng(3).normal(size=(*batch, C, H, W))
    with torch.no_grad():
        Y, s = module(torch.from_numpy(X))
    W_1, b_1 = module.fc1.weight.detach().numpy().T, module.fc1.bias.detach().numpy()
    W_2, b_2 = module.fc2.weight.detach().numpy().T, module.fc2.bias.detach().numpy()
    Y_np, s_np = attnlab.channel_attention(X, W_1, b_1, W_2, b_2)
    np.testing.assert_allclose(Y.numpy(), Y_np, **TOL)
    np.testing.assert_allclose(s.numpy(), s_np, **TOL)
    assert s_np.shape == (*batch, C) and ((s_np > 0) & (s_np < 1)).all()
    # the weights depend on the input: another image, other weights
    _, s_other = attnlab.channel_attention(X[..., ::-1, :] * 3 + 1, W_1, b_1, W_2, b_2)
    assert not np.allclose(s_other, s_np)
    Yf, sf = at.channel_attention(*(torch.from_numpy(a) for a in (X, W_1, b_1, W_2, b_2)))
    np.testing.assert_allclose(Yf.numpy(), Y_np, **TOL)


def test_channel_attention_sigmoid_is_stable():
    X = np.full((2, 1, 1), 1e4)
    Y, s = attnlab.channel_attention(X, np.ones((2, 1)), np.zeros(1), np.array([[1.0, -1.0]]), np.zeros(2))
    assert np.isfinite(s).all() and s[0] == 1.0 and s[1] == 0.0


@pytest.mark.parametrize("shape,P", [((3, 4, 6), 2), ((2, 2, 6, 9), 3), ((2, 3, 4, 4), 4), ((2, 3, 4, 5), 1)])
def test_patchify_matches_unfold_and_conv(shape, P):
    X = np.random.default_rng(4).normal(size=shape)
    tokens = attnlab.patchify(X, P)
    *batch, C, H, W = shape
    assert tokens.shape == (*batch, (H // P) * (W // P), C * P * P)
    flat = torch.from_numpy(X.reshape(-1, C, H, W))
    unfolded = torch.nn.functional.unfold(flat, P, stride=P).transpose(1, 2).numpy()
    np.testing.assert_allclose(tokens.reshape(unfolded.shape), unfolded, **TOL)
    np.testing.assert_allclose(at.patchify(torch.from_numpy(X), P).numpy(), tokens, **TOL)
    if P == 1:
        np.testing.assert_array_equal(tokens, attnlab.image_to_tokens(X))
    # a patch embedding is a strided convolution
    weight = np.random.default_rng(5).normal(size=(7, C, P, P))
    conv = torch.nn.functional.conv2d(flat, torch.from_numpy(weight), stride=P)  # (N, 7, H/P, W/P)
    np.testing.assert_allclose(tokens.reshape(-1, tokens.shape[-2], C * P * P) @ weight.reshape(7, -1).T,
                               attnlab.image_to_tokens(conv.numpy()), rtol=1e-9, atol=1e-9)


def test_attention_cost():
    assert attnlab.attention_cost(16, 16) == 256 ** 2
    assert attnlab.attention_cost(224, 224, 16) == 196 ** 2
    with pytest.raises(ValueError, match="patch"):
        attnlab.attention_cost(10, 10, 3)


@pytest.mark.parametrize("call,match", [
    (lambda: attnlab.image_to_tokens(np.zeros((3, 4))), r"X: expected shape \(\.\.\., C, H, W\), got \(3, 4\)"),
    (lambda: attnlab.tokens_to_image(np.zeros((12, 3)), 3, 5), r"T: expected shape \(\.\.\., H\*W=15, C\).*got \(12, 3\)"),
    (lambda: attnlab.tokens_to_image(np.zeros((12, 3)), 0, 5), r"H: expected an integer >= 1, got 0"),
    (lambda: attnlab.positional_encoding_2d(3, 4, 6), r"D: expected a multiple of 4.*got 6"),
    (lambda: attnlab.positional_encoding_2d(3, 4.0, 8), r"W: expected an integer, got float"),
    (lambda: attnlab.spatial_self_attention(np.zeros((3, 2, 2)), np.zeros((4, 2)), np.zeros((3, 2)), np.zeros((3, 2))),
     r"W_q: expected shape \(C=3, Dk\).*got \(4, 2\)"),
    (lambda: attnlab.spatial_self_attention(np.zeros((3, 2, 2)), np.zeros((3, 2)), np.zeros((3, 5)), np.zeros((3, 2))),
     r"W_k: expected shape \(C, Dk=2\).*got \(3, 5\)"),
    (lambda: attnlab.channel_attention(np.zeros((3, 2, 2)), np.zeros((3, 1)), np.zeros(2), np.zeros((1, 3)), np.zeros(3)),
     r"b_1: expected shape \(1,\).*got \(2,\)"),
    (lambda: attnlab.patchify(np.zeros((3, 5, 6)), 2), r"patch: expected a size that divides H=5 and W=6, got 2"),
    (lambda: attnlab.patchify(np.zeros((3, 4, 4)), 0), r"patch: expected an integer >= 1, got 0"),
    (lambda: at.tokens_to_image(torch.zeros(12, 3), 3, 5), r"T: expected shape \(\.\.\., H\*W=15, C\)"),
    (lambda: at.patchify(torch.zeros(3, 5, 6), 2), r"patch: expected a size that divides"),
    (lambda: at.ChannelAttention(4, 2)(torch.zeros(2, 3, 4, 4)), r"X: expected shape \(\.\.\., C=4, H, W\), got \(2, 3, 4, 4\)"),
    (lambda: attnlab.corner_shapes(4, size=13), r"size: expected an even number, got 13"),
    (lambda: attnlab.corner_shapes(4, n_colours=9), r"n_colours: expected at most 6, got 9"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_corner_shapes_labels_follow_the_diagonal():
    images, labels, boxes = attnlab.corner_shapes(200, seed=3)
    assert images.shape == (200, 3, 16, 16) and images.dtype == np.float32
    assert labels.sum() == 100  # balanced
    again = attnlab.corner_shapes(200, seed=3)
    np.testing.assert_array_equal(again[0], images)
    masks = attnlab.shape_mask(boxes, 16)  # (200, 4, 16, 16)
    assert (masks.sum(axis=(-2, -1)) == 9).all()
    assert not (images.sum(axis=1) * ~masks.any(axis=1)).any()  # nothing outside the shapes
    assert (boxes >= 1).all() and (boxes + 3 <= 15).all()  # a margin to the border
    colour = [np.stack([img[:, r:r + 3, q:q + 3].reshape(3, -1).max(axis=1) for r, q in bx])
              for img, bx in zip(images, boxes)]  # (4, 3) per image: each shape's RGB
    same = np.array([np.array_equal(c[0], c[1]) for c in colour])
    np.testing.assert_array_equal(same, labels == 1)
    # the distractor pair matches as often as not: the colours present say little about the label
    distract = np.array([np.array_equal(c[2], c[3]) for c in colour])
    assert 0.35 < distract.mean() < 0.65
    # the squares (full 3 x 3) sit in opposite corners, the distractors are not squares
    filled = images.max(axis=1) > 0  # (200, 16, 16)
    for img, bx in zip(filled, boxes):
        assert [bool(img[r:r + 3, q:q + 3].all()) for r, q in bx] == [True, True, False, False]
        (r0, q0), (r1, q1) = bx[0] // 8, bx[1] // 8  # the quadrants of the two squares
        assert r0 != r1 and q0 != q1


@pytest.mark.parametrize("attention", [False, True])
def test_corner_net_forward(attention):
    torch.manual_seed(0)
    model = at.CornerNet(8, attention=attention)
    logits = model(torch.zeros(3, 3, 16, 16))
    assert logits.shape == (3, 2)
    if attention:
        assert model.last_attention.shape[0] == 3
        np.testing.assert_allclose(model.last_attention.sum(-1).detach().numpy(), 1.0, rtol=1e-6)
    else:
        assert model.last_attention is None
