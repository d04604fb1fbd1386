"""Notebook 08: wrong implementations the catalogue does not list."""
from attnlab.cards.tiled_attention import TILED
from uncatalogued import U

# The catalogue's correct tiled_attention, with the two lines the entries below change as holes.
_S = "Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)"
_VIS = "np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]"
_TILED = TILED.replace(f"S = {_S}", "S = SCORES").replace(f"visible = {_VIS}", "visible = VISIBLE")
assert _TILED.count("SCORES") == 1 and _TILED.count("VISIBLE") == 1, "the tiled_attention card's TILED changed"


def _tiled(scores: str = _S, visible: str = _VIS) -> str:
    return _TILED.replace("SCORES", scores).replace("VISIBLE", visible)


WRONG = [
    U("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    safe = np.where(np.isfinite(m), m, 0.0)
    a, b = np.exp(m_a - safe), np.exp(m_b - safe)
    acc_a *= a[..., None]
    acc_a += b[..., None] * acc_b
    return m, a * l_a + b * l_b, acc_a
''', "test_merge_softmax_stats", "acc_a rescaled in place", words=("in place",), kind="in place"),
    U("merge_softmax_stats", '''
import torch
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m_a, l_a, acc_a, m_b, l_b, acc_b = (torch.as_tensor(t, dtype=torch.float64)
                                        for t in (m_a, l_a, acc_a, m_b, l_b, acc_b))
    m = torch.maximum(m_a, m_b)
    safe = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    a, b = torch.exp(m_a - safe), torch.exp(m_b - safe)
    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
''', "test_merge_softmax_stats", "in torch, tensors back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    a, b = np.exp(m_a - m), np.exp(m_b - m)
    return m, a * l_a + b * l_b, a * acc_a + b * acc_b
''', "test_merge_softmax_stats", "the rescale not broadcast over Dv", words=("broadcast", "axis", "shape"),
      kind="fixed-rank"),

    U("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
    rescale = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    acc *= rescale[..., None]
    acc += p @ V_tile
    l *= rescale
    l += p.sum(axis=-1)
    return m_new, l, acc
''', "test_online_softmax_update", "l and acc updated in place", words=("in place",), kind="in place"),
    U("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=1))
    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
    rescale = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    return m_new, rescale * l + p.sum(axis=-1), rescale[..., None] * acc + p @ V_tile
''', "test_online_softmax_update", "the tile max over axis 1 (2-D only)", words=("batch axis", "leading axes"),
      kind="fixed-rank"),
    U("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    rescale = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    return m_new, rescale * l + p.sum(axis=-1), rescale[..., None] * acc + p @ V_tile
''', "test_online_softmax_update_masked", "no guard for an all -inf start (NaN), masked tile",
      words=("NaN", "-inf", "masked"), kind="range"),

    U("tiled_attention", _tiled().replace("j1 = min(j0 + tile_size, Lk)", "j1 = min(j0 + tile_size - 1, Lk)"),
      "test_tiled_attention", "one key per tile skipped (j1 = j0 + tile_size - 1)", kind="off-by-one"),
    U("tiled_attention", _tiled(scores=_S.replace("np.sqrt(Dk)", "np.sqrt(Dv)")),
      "test_tiled_attention", "scaled by sqrt(Dv)", needs_layer=False, words=("scal", "sqrt"), kind="constant"),
    U("tiled_attention", _tiled(visible="np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None] + 1"),
      "test_tiled_attention_causal", "the causal mask one key ahead inside the diagonal tile", needs_layer=True,
      words=("causal", "diagonal", "future"), kind="off-by-one"),
    U("tiled_attention", _tiled().replace("logsumexp[..., i0:i1] = m + np.log(l)", "logsumexp[..., i0:i1] = m + np.log(l) / np.sqrt(Dk)"),
      "test_tiled_attention", "log(l) scaled again by 1/sqrt(Dk)", needs_layer=True, words=("log(l)", "constant factor", "scaled"), kind="constant"),
    U("tiled_attention", _tiled().replace("        output[..., i0:i1, :] = acc / l[..., None]\n",
                                          "        output[..., i0:i1, :] = acc / l[..., None]\n"
                                          "        Q[..., i0:i1, :] = 0.0\n"),
      "test_tiled_attention", "zeroes Q's finished tiles in place", words=("in place",), kind="in place"),

    U("weights_from_logsumexp", '''
import torch
def weights_from_logsumexp(Q, K, logsumexp):
    Q, K, lse = (torch.as_tensor(a, dtype=torch.float64) for a in (Q, K, logsumexp))
    return torch.exp(Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5 - lse[..., None])
''', "test_weights_from_logsumexp", "in torch, a tensor back", words=("tensor", "torch", "numpy"),
      kind="torch/numpy"),
    U("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    return np.exp(S - logsumexp[..., None])
''', "test_weights_from_logsumexp", "K.T on a batch", needs_layer=True, words=("batch axis", "leading axes", ".T"), kind="fixed-rank"),
    U("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-2])
    return np.exp(S - logsumexp[..., None])
''', "test_weights_from_logsumexp", "scaled by sqrt(Lk)", needs_layer=False, words=("scal", "sqrt"), kind="constant"),
]
