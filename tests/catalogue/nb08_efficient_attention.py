"""Wrong implementations of notebook 08's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

# A correct tiled_attention with one line changed by each wrong implementation below.
TILED = '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    output = np.zeros((*batch, Lq, Dv))
    logsumexp = np.zeros((*batch, Lq))
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m = np.full((*batch, i1 - i0), -np.inf)
        l = np.zeros((*batch, i1 - i0))
        acc = np.zeros((*batch, i1 - i0, Dv))
        last = min(Lk, i1) if causal else Lk
        for j0 in range(0, last, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
            if causal and j1 - 1 > i0:
                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(visible, S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        output[..., i0:i1, :] = acc / l[..., None]
        logsumexp[..., i0:i1] = m + np.log(l)
    return output, logsumexp
'''


# Attention in one piece, with the log-sum-exp: the right values, but no tiles.
NO_TILING = '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if causal:
        S = np.where(attnlab.causal_mask(Q.shape[-2], K.shape[-2]), S, -np.inf)
    m = S.max(axis=-1, keepdims=True)
    e = np.exp(S - m)
    l = e.sum(axis=-1, keepdims=True)
    return (e / l) @ V, (m + np.log(l))[..., 0]
'''


def tiled(old: str, new: str) -> str:
    assert old in TILED, old
    return TILED.replace(old, new)


WRONG = [
    # merge_softmax_stats ----------------------------------------------------------------------
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    return np.maximum(m_a, m_b), l_a + l_b, acc_a + acc_b
''', fails=("test_merge_softmax_stats",), message="without rescaling them to a common max"),
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    alpha = np.exp(m_a - m)
    return m, alpha * l_a + l_b, alpha[..., None] * acc_a + acc_b
''', fails=("test_merge_softmax_stats",), message="rescaling only part a"),
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    beta = np.exp(m_b - m_a)
    return m_a, l_a + beta * l_b, acc_a + beta[..., None] * acc_b
''', fails=("test_merge_softmax_stats",), message="keeping m_a as the max"),
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    a, b = np.exp(m - m_a), np.exp(m - m_b)
    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
''', fails=("test_merge_softmax_stats",), message="exp(m - m_a) instead of exp(m_a - m)"),
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    l = np.exp(m_a - m) * l_a + np.exp(m_b - m) * l_b
    return m, l, acc_a + acc_b
''', fails=("test_merge_softmax_stats",), message="rescaling l but not acc"),
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    a, b = np.exp(m_a - m), np.exp(m_b - m)
    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
''', fails=("test_merge_softmax_stats_empty",), message="NaN when both parts have seen no key"),
    Wrong("merge_softmax_stats", '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.max(m_a, m_b)
    a, b = np.exp(m_a - m), np.exp(m_b - m)
    return m, a * l_a + b * l_b, a[..., None] * acc_a + b[..., None] * acc_b
''', fails=("test_merge_softmax_stats", "test_merge_softmax_stats_empty"), message="`np.max(m_a, m_b)`"),

    # online_softmax_update --------------------------------------------------------------------
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
    p = np.exp(scores - m_safe[..., None])
    return m_new, np.exp(m - m_safe) * l + p.sum(axis=-1), acc + p @ V_tile
''', fails=("test_online_softmax_update",), message="not rescaling the accumulator"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
    alpha = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    return m_new, l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
''', fails=("test_online_softmax_update",), message="not rescaling l when"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m = np.maximum(m, scores.max(axis=-1))       # m is overwritten before the rescale factor
    m_safe = np.where(m == -np.inf, 0.0, m)
    alpha = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    return m, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
''', fails=("test_online_softmax_update",), message="not rescaling l or acc"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_tile = scores.max(axis=-1)
    m_new = np.maximum(m, m_tile)
    alpha = np.exp(m - m_new)
    p = np.exp(scores - m_tile[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
''', fails=("test_online_softmax_update",), message="using the tile's max instead of the new running max"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = scores.max(axis=-1)
    alpha = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
''', fails=("test_online_softmax_update",), message="forgetting the running max"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    alpha = np.exp(m_new - m)
    p = np.exp(scores - m_new[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
''', fails=("test_online_softmax_update",), message="exp(m' - m) instead of exp(m - m')"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(m_new == -np.inf, 0.0, m_new)
    alpha = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    l_new = alpha * l + p.sum(axis=-1)
    return m_new, l_new, (alpha[..., None] * acc + p @ V_tile) / l_new[..., None]
''', fails=("test_online_softmax_update",), message="normalising the accumulator inside the update"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    return m_new, alpha * l + p.sum(axis=-1), alpha[..., None] * acc + p @ V_tile
''', fails=("test_online_softmax_update_masked",), message="NaN for a query whose scores so far are all -inf"),
    Wrong("online_softmax_update", '''
def online_softmax_update(m, l, acc, scores, V_tile):
    m_t = scores.max(axis=-1)
    p = np.exp(scores - m_t[..., None])
    return attnlab.merge_softmax_stats(m, l, acc, m_t, p.sum(axis=-1), p @ V_tile)
''', fails=("test_online_softmax_update_masked",),
          message="NaN for a tile whose scores are all -inf", label="merge of raw tile stats"),

    # tiled_attention ---------------------------------------------------------------------------
    Wrong("tiled_attention", tiled(" / np.sqrt(Dk)", ""),
          fails=("test_tiled_attention", "test_tiled_attention_causal"), message="forgetting the 1/√Dk scale"),
    Wrong("tiled_attention", tiled("m = np.full((*batch, i1 - i0), -np.inf)", "m = np.zeros((*batch, i1 - i0))"),
          fails=("test_tiled_attention",), message="initialising the running max at 0"),
    Wrong("tiled_attention", tiled('''        for j0 in range(0, last, tile_size):
            j1 = min(j0 + tile_size, Lk)''', '''        for j0 in range(0, last - tile_size + 1, tile_size):
            j1 = j0 + tile_size'''),
          fails=("test_tiled_attention",), message="dropping the last, partial tile"),
    Wrong("tiled_attention", '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    output = np.zeros((*batch, Lq, Dv))
    logsumexp = np.zeros((*batch, Lq))
    m = np.full((*batch, min(tile_size, Lq)), -np.inf)     # created once, for every query tile
    l = np.zeros((*batch, min(tile_size, Lq)))
    acc = np.zeros((*batch, min(tile_size, Lq), Dv))
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m, l, acc = m[..., :i1 - i0], l[..., :i1 - i0], acc[..., :i1 - i0, :]
        for j0 in range(0, min(Lk, i1) if causal else Lk, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
            if causal:
                S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        output[..., i0:i1, :] = acc / l[..., None]
        logsumexp[..., i0:i1] = m + np.log(l)
    return output, logsumexp
''', fails=("test_tiled_attention", "test_tiled_attention_causal"), message="not resetting m, l and acc"),
    Wrong("tiled_attention", '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    Dk = Q.shape[-1]
    out = 0
    for j0 in range(0, K.shape[-2], tile_size):
        S = Q @ np.swapaxes(K[..., j0:j0 + tile_size, :], -1, -2) / np.sqrt(Dk)
        out = out + attnlab.softmax(S) @ V[..., j0:j0 + tile_size, :]
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dk)
    m = S.max(axis=-1)
    return out, m + np.log(np.exp(S - m[..., None]).sum(axis=-1))
''', fails=("test_tiled_attention",), message="normalising each tile of keys on its own"),
    Wrong("tiled_attention", tiled("output[..., i0:i1, :] = acc / l[..., None]", "output[..., i0:i1, :] = acc"),
          fails=("test_tiled_attention", "test_tiled_attention_causal"), message="not dividing acc by l"),
    Wrong("tiled_attention", tiled("logsumexp[..., i0:i1] = m + np.log(l)", "logsumexp[..., i0:i1] = np.log(l)"),
          fails=("test_tiled_attention",), message="returning log(l) without adding the running max"),
    Wrong("tiled_attention", NO_TILING, fails=("test_tiled_attention_memory",),
          message="materialising the full (Lq, Lk)", label="no tiling at all"),
    Wrong("tiled_attention", NO_TILING, fails=("test_tiled_attention_causal",),
          message="reading the tiles above the diagonal", label="no tiling at all, causal"),
    Wrong("tiled_attention", tiled("last = min(Lk, i1) if causal else Lk", "last = min(Lk, i0) if causal else Lk"),
          fails=("test_tiled_attention_causal",), message="skipping the diagonal tile"),
    Wrong("tiled_attention", tiled("last = min(Lk, i1) if causal else Lk", "last = Lk"),
          fails=("test_tiled_attention_causal",), message="reading the tiles above the diagonal"),
    Wrong("tiled_attention", tiled("last = min(Lk, i1) if causal else Lk", "last = min(Lk, i1 + tile_size) if causal else Lk"),
          fails=("test_tiled_attention_causal",), message="visiting one key tile past the diagonal"),
    Wrong("tiled_attention", tiled("if causal and j1 - 1 > i0:", "if causal and j1 > i1:"),
          fails=("test_tiled_attention_causal",), message="leaving the diagonal tile unmasked"),
    Wrong("tiled_attention", tiled("visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]",
                                   "visible = np.arange(j1 - j0)[None, :] <= np.arange(i1 - i0)[:, None]").replace(
        "if causal and j1 - 1 > i0:", "if causal:"),
          fails=("test_tiled_attention_causal",), message="the tile's local indices"),
    Wrong("tiled_attention", tiled("visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]",
                                   "visible = np.arange(j0, j1)[None, :] < np.arange(i0, i1)[:, None]").replace(
        "if causal and j1 - 1 > i0:", "if causal:"),
          fails=("test_tiled_attention_causal",), message="a strict mask j < i"),
    Wrong("tiled_attention", tiled("visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]",
                                   "visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None] + (Lk - Lq)").replace(
        "if causal and j1 - 1 > i0:", "if causal:"),
          fails=("test_tiled_attention_causal",), message="bottom-right aligned"),

    # weights_from_logsumexp -------------------------------------------------------------------
    Wrong("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    return attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
''', fails=("test_weights_from_logsumexp",), message="a softmax over the given keys"),
    Wrong("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    return np.exp(Q @ np.swapaxes(K, -1, -2) - logsumexp[..., None])
''', fails=("test_weights_from_logsumexp",), message="forgetting the 1/√Dk scale"),
    Wrong("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(S - logsumexp[..., None, :])
''', fails=("test_weights_from_logsumexp",), message="along the keys"),
    Wrong("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(S) / np.exp(logsumexp)[..., None]
''', fails=("test_weights_from_logsumexp",), message="exp(s) / exp(logsumexp)"),
    Wrong("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(S + logsumexp[..., None])
''', fails=("test_weights_from_logsumexp",), message="adding logsumexp"),
    Wrong("weights_from_logsumexp", '''
def weights_from_logsumexp(Q, K, logsumexp):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    return np.exp(S) / logsumexp[..., None]
''', fails=("test_weights_from_logsumexp",), message="dividing by logsumexp"),
    # real-world class (issue 12): untiled attention written in torch, invisible to tracemalloc
    Wrong("tiled_attention", '''
import torch

def tiled_attention(Q, K, V, tile_size, causal=False):
    Q, K, V = (torch.as_tensor(a) for a in (Q, K, V))
    scores = Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5
    if causal:
        scores = scores.masked_fill(~torch.ones(scores.shape[-2:], dtype=torch.bool).tril(), float("-inf"))
    return (torch.softmax(scores, dim=-1) @ V).numpy(), torch.logsumexp(scores, dim=-1).numpy()
''', fails=("test_tiled_attention_memory",), message="materialising the full (Lq, Lk) score matrix",
          label="torch, untiled"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_score_memory_gib", "prediction_score_memory_gib = 4\n",
          fails=("test_predict_score_memory_gib",), message="numbers counted, not bytes"),
    Wrong("predict_score_memory_gib", "prediction_score_memory_gib = 32.0\n",
          fails=("test_predict_score_memory_gib",), message="8 bytes per number"),
    Wrong("predict_score_memory_gib", "prediction_score_memory_gib = 16384\n",
          fails=("test_predict_score_memory_gib",), message="The answer is 16"),
    Wrong("predict_causal_tiles", "prediction_causal_tiles = 30\n",
          fails=("test_predict_causal_tiles",), message="every tile is computed and masked"),
    Wrong("predict_causal_tiles", "prediction_causal_tiles = 10\n",
          fails=("test_predict_causal_tiles",), message="the tiles on the diagonal are skipped"),
    Wrong("predict_causal_tiles", "prediction_causal_tiles = 20\n",
          fails=("test_predict_causal_tiles",), message="half of the tiles plus the diagonal"),
]


# A correct tiled_attention_backward with one line changed by each wrong implementation below.
BACKWARD = '''
def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    scale = 1 / np.sqrt(Dk)
    D = (grad_output * output).sum(axis=-1)
    dQ, dK, dV = np.zeros(Q.shape), np.zeros(K.shape), np.zeros(V.shape)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        last = min(Lk, i1) if causal else Lk
        for j0 in range(0, last, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) * scale
            if causal and j1 - 1 > i0:
                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(visible, S, -np.inf)
            P = np.exp(S - logsumexp[..., i0:i1, None])
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ grad_output[..., i0:i1, :]
            dP = grad_output[..., i0:i1, :] @ np.swapaxes(V[..., j0:j1, :], -1, -2)
            dS = P * (dP - D[..., i0:i1, None]) * scale
            dQ[..., i0:i1, :] += dS @ K[..., j0:j1, :]
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ Q[..., i0:i1, :]
    return dQ, dK, dV
'''


def backward(old: str, new: str) -> str:
    assert old in BACKWARD, old
    return BACKWARD.replace(old, new)


_BW_ALL = ("test_tiled_attention_backward", "test_tiled_attention_backward_causal")

WRONG += [
    # tiled_attention_backward -----------------------------------------------------------------
    Wrong("tiled_attention_backward",
          backward("D = (grad_output * output).sum(axis=-1)",
                   "D = (grad_output @ np.swapaxes(V, -1, -2)).sum(axis=-1)"),
          fails=_BW_ALL, message="D_i from the wrong product"),
    Wrong("tiled_attention_backward", backward("D = (grad_output * output).sum(axis=-1)", "D = grad_output.sum(axis=-1)"),
          fails=_BW_ALL, message="D_i as the row sum of dO alone"),
    Wrong("tiled_attention_backward",
          backward("dS = P * (dP - D[..., i0:i1, None]) * scale",
                   "dS = P * (dP - (P * dP).sum(axis=-1, keepdims=True)) * scale"),
          fails=_BW_ALL, message="D_i summed over one tile of keys only"),
    Wrong("tiled_attention_backward",
          backward("dS = P * (dP - D[..., i0:i1, None]) * scale", "dS = P * (dP - D[..., i0:i1, None])"),
          fails=_BW_ALL, message="the scale forgotten in dS"),
    Wrong("tiled_attention_backward",
          backward("dS = P * (dP - D[..., i0:i1, None]) * scale", "dS = P * dP * scale"),
          fails=_BW_ALL, message="dS without D_i"),
    Wrong("tiled_attention_backward", backward("return dQ, dK, dV", "return dK, dQ, dV"),
          fails=_BW_ALL, message="dK and dQ swapped"),
    Wrong("tiled_attention_backward",
          backward("P = np.exp(S - logsumexp[..., i0:i1, None])", "P = np.exp(S - logsumexp[..., j0:j1, None])"),
          fails=_BW_ALL, message="the log-sum-exp of the wrong tile"),
    Wrong("tiled_attention_backward", backward("if causal and j1 - 1 > i0:", "if causal and j1 > i1:"),
          # not the catalogue's "diagonal tile left unmasked" (the two differ when Lq < Lk): named by where it is right
          fails=("test_tiled_attention_backward_causal",), message="matches the right answer exactly at index",
          label="causal mask not applied in backward (tiles skipped by the wrong condition)"),
    Wrong("tiled_attention_backward", backward("last = min(Lk, i1) if causal else Lk", "last = Lk").replace(
        "if causal and j1 - 1 > i0:", "if False:"),
          fails=("test_tiled_attention_backward_causal",), message="ignoring `causal`"),
    Wrong("tiled_attention_backward", backward("last = min(Lk, i1) if causal else Lk", "last = Lk").replace(
        "if causal and j1 - 1 > i0:", "if causal:"),
          fails=("test_tiled_attention_backward_causal",), message="reading the tiles above the diagonal"),
    Wrong("tiled_attention_backward", '''
def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if causal:
        S = np.where(attnlab.causal_mask(Q.shape[-2], K.shape[-2]), S, -np.inf)
    P = np.exp(S - logsumexp[..., None])
    dP = grad_output @ np.swapaxes(V, -1, -2)
    dS = P * (dP - (grad_output * output).sum(axis=-1, keepdims=True)) / np.sqrt(Q.shape[-1])
    return dS @ K, np.swapaxes(dS, -1, -2) @ Q, np.swapaxes(P, -1, -2) @ grad_output
''', fails=("test_tiled_attention_backward_memory",), message="materialising the full (Lq, Lk) weights",
          label="no tiling at all"),

    # predict, then run: the sum of dK ---------------------------------------------------------
    Wrong("predict_dk_sum", 'prediction_dk_sum = "it depends on the inputs"\n',
          fails=("test_predict_dk_sum",), message="the gradient of each key is its own"),
    Wrong("predict_dk_sum", 'prediction_dk_sum = "the sum of dQ"\n',
          fails=("test_predict_dk_sum",), message="queries and keys play the same part"),
]
